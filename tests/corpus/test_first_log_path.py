"""Opening a corpus folder opens the first log of the sorted list without listing every file:
first_log_path finds the same log as expand_log_paths([folder])[0], whatever the folder holds."""

from __future__ import annotations

import os
from pathlib import Path

from annotator.corpus.paths import expand_log_paths, first_log_path

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "travel-20261121-001" / "travel-20261121-001-hublog.xml"


def _log(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(SAMPLE.read_bytes())
    return path


def _first_both_ways(folder: Path) -> Path | None:
    listed = expand_log_paths([folder])
    first = first_log_path(folder)
    assert first == (listed[0] if listed else None)
    return first


def test_a_folders_files_sort_where_its_name_does(tmp_path):
    """By path parts, as Path sorts: folder "a"'s logs come before "a.xml" and "a-b.xml" ("a" < "a-b" < "a.xml"),
    though as text "a-b.xml" < "a/x.xml"."""
    _log(tmp_path / "a.xml")
    _log(tmp_path / "a-b.xml")
    _log(tmp_path / "a" / "z" / "x.xml")
    assert _first_both_ways(tmp_path) == tmp_path / "a" / "z" / "x.xml"


def test_what_is_not_a_log_is_passed_over(tmp_path):
    """Annotation files, backups, other names, an upper-case .XML (rglob's pattern is case-sensitive), a folder
    named *.xml (its logs count), a broken link, a link to a folder and an export's staging folder."""
    for name in ("0-human.xml", "0-human-ann.xml", "0.orig.xml", "0.txt", "0.XML"):
        _log(tmp_path / name)
    _log(tmp_path / ".0.abcdefgh.tmp" / "staged.xml")
    os.symlink(tmp_path / "missing.xml", tmp_path / "1-broken.xml")
    elsewhere = _log(tmp_path.parent / f"{tmp_path.name}-elsewhere" / "linked.xml").parent
    os.symlink(elsewhere, tmp_path / "1-linked")
    _log(tmp_path / "2.xml" / "inside.xml")
    _log(tmp_path / "3.xml")
    assert _first_both_ways(tmp_path) == tmp_path / "2.xml" / "inside.xml"


def test_a_folder_without_logs_has_none(tmp_path):
    _log(tmp_path / "sub" / "x-human.xml")
    (tmp_path / "empty").mkdir()
    assert _first_both_ways(tmp_path) is None


def test_the_sample_corpus(tmp_path):
    assert _first_both_ways(SAMPLE.parents[1]) is not None
