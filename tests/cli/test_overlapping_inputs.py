"""Inputs are read once however they overlap, and no output lands inside an input folder.

`export CORPUS CORPUS/sub` exported each log below sub twice (as session_occurrence 2, which could not be
folded back) and annotator.tables doubled rows the same way; `export CORPUS -o CORPUS/some-log-folder`
passed the guard. The overlaps are generated: a folder and one below it, the same folder twice, a link to
a log, a second hard link, a folder through a link to it."""

from __future__ import annotations

import csv
import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

import annotator
from annotator.cli.main import main
from tests.support import planted_team
from tests.support.corpus_commands import WRITERS

SUB = "travel-20261121-001"
LOG = f"{SUB}/{SUB}-hublog.xml"


def _sub(corpus: Path, scratch: Path) -> list[Path]:
    return [corpus, corpus / SUB]


def _twice(corpus: Path, scratch: Path) -> list[Path]:
    return [corpus, corpus]


def _link_to_a_log(corpus: Path, scratch: Path) -> list[Path]:
    link = scratch / "link-hublog.xml"
    link.symlink_to(corpus / LOG)
    return [corpus, link]


def _hard_link(corpus: Path, scratch: Path) -> list[Path]:
    hard = scratch / "hard-hublog.xml"
    os.link(corpus / LOG, hard)
    return [hard, corpus]


def _linked_folder(corpus: Path, scratch: Path) -> list[Path]:
    alias = scratch / "alias"
    alias.symlink_to(corpus / SUB)
    return [corpus, alias]


OVERLAPS: dict[str, Callable[[Path, Path], list[Path]]] = {
    "folder-and-subfolder": _sub,
    "same-folder-twice": _twice,
    "link-to-a-log": _link_to_a_log,
    "hard-link": _hard_link,
    "folder-through-a-link": _linked_folder,
}


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as stream:
        return list(csv.DictReader(stream))


@pytest.mark.parametrize("overlap", OVERLAPS)
def test_export_reads_each_log_once(corpus: Path, tmp_path: Path, capsys, overlap: str):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    paths = OVERLAPS[overlap](corpus, scratch)
    assert main(["export", *map(str, paths), "--to", "csv", "-o", str(tmp_path / "out"), "--jobs", "1"]) == 0
    sessions = rows(tmp_path / "out" / "sessions.csv")
    assert sorted(row["session_id"] for row in sessions) == [f"travel:20261121:00{n}" for n in (1, 2, 3)]
    assert {row["session_occurrence"] for row in sessions} <= {"", "1"}


@pytest.mark.parametrize("overlap", OVERLAPS)
def test_tables_count_each_log_once(corpus: Path, tmp_path: Path, overlap: str):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    alone = annotator.tables(corpus)
    doubled = annotator.tables(OVERLAPS[overlap](corpus, scratch))
    assert len(doubled.sessions) == len(alone.sessions) == 3
    assert len(doubled.turns) == len(alone.turns)


def test_tables_take_bytes_paths_as_names_that_are_not_utf8(corpus: Path, tmp_path: Path):
    folder = os.fsencode(tmp_path) + b"/pr\xe9"
    os.rename(corpus, folder)
    found = annotator.tables(folder)
    assert len(found.sessions) == 3
    assert len(annotator.tables([folder + b"/" + os.fsencode(LOG)]).sessions) == 1
    with pytest.raises(TypeError, match="give a path"):
        annotator.tables(3)


def _tree(root: Path) -> dict[str, str]:
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        for path in sorted(root.rglob("*"))
    }


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("depth", ["log-folder", "new-folder-below"])
def test_an_output_inside_an_input_folder_is_refused(corpus: Path, capsys, writer: str, depth: str):
    inside = corpus / SUB if depth == "log-folder" else corpus / SUB / "exports" / "new"
    before = _tree(corpus)
    status = main([str(part) for part in WRITERS[writer](corpus, inside)])
    err = capsys.readouterr().err
    assert status == 2, err
    assert err.count("\n") == 1 and "inside the input folder" in err and "--force" not in err, err
    assert main([str(part) for part in WRITERS[writer](corpus, inside)] + ["--force"]) == 2
    assert "inside the input folder" in capsys.readouterr().err
    assert _tree(corpus) == before, "nothing written, forced or not"


def test_the_issues_export_into_a_log_folder_is_refused_even_with_force(corpus: Path, capsys):
    out = corpus / SUB
    refusal = (
        f"annotator: {out}: inside the input folder {corpus}; nothing written (the next run over that "
        "folder would read it as input: write somewhere else)\n"
    )
    assert main(["export", str(corpus), "--to", "csv", "-o", str(out)]) == 2
    assert capsys.readouterr().err == refusal
    assert main(["export", str(corpus), "--to", "csv", "-o", str(out), "--force"]) == 2
    assert capsys.readouterr().err == refusal
    assert not (out / "sessions.csv").exists()


def test_assign_still_writes_its_file_into_the_corpus(corpus: Path, capsys):
    assert main(["assign", str(corpus), "--annotators", "a,b", "--seed", "1"]) == 0
    assert (corpus / "annotator-assignment.csv").is_file()


@pytest.mark.parametrize("where", ["the-corpus", "below-it", "beside-the-files-given"])
def test_agree_never_writes_its_csvs_among_the_input_logs(tmp_path: Path, capsys, where: str):
    corpus = planted_team.make_team_corpus(tmp_path / "corpus")
    out = corpus / "figures" if where == "below-it" else corpus
    given = (
        [corpus / "planted-001-human-ann1.xml", corpus / "planted-001-human-ann2.xml"]
        if where == "beside-the-files-given"
        else [corpus]
    )
    before = _tree(corpus)
    assert main(["agree", *map(str, given), "--csv", str(out), "--jobs", "1"]) == 2
    err = capsys.readouterr().err
    words = {
        "the-corpus": "this is the input",
        "below-it": "inside the input folder",
        "beside-the-files-given": "this folder holds the input",
    }[where]
    assert err.count("\n") == 1 and words in err, err
    assert _tree(corpus) == before
