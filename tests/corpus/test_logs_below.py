"""logs_below lists a folder's logs in one os.scandir pass per folder: exactly what rglob("*.xml")
filtered by name, existence and kind listed, in the same order, on generated trees of folders, files,
links (to files, to folders, leading nowhere), FIFOs, staging folders and names that sort awkwardly."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from annotator.corpus.paths import is_log_file_name, logs_below

STAGING = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.tmp")
NAMES = st.sampled_from(
    [
        "a",
        "a-b",
        "a-b.xml",
        "a.xml",
        "b.xml",
        "B.XML",
        "z.xml",
        "x-human.xml",
        "x-human-ann.xml",
        "x.orig.xml",
        "notes.txt",
        ".hidden.xml",
        ".out.abcdefgh.tmp",
        "é.xml",
        "10.xml",
        "9.xml",
    ]
)
KINDS = st.sampled_from(["file", "folder", "fifo", "link-to-file", "link-to-folder", "broken-link"])


def by_rglob(folder: Path) -> list[Path]:
    """What expand_log_paths listed before logs_below: the specification."""
    return sorted(
        p
        for p in folder.rglob("*.xml")
        if is_log_file_name(p)
        and p.exists()
        and not p.is_dir()
        and not any(STAGING.fullmatch(part) for part in p.relative_to(folder).parts[:-1])
    )


def build(root: Path, plan: list[tuple[list[str], str]]) -> None:
    outside = root.parent / f"{root.name}-outside"
    (outside / "folder").mkdir(parents=True, exist_ok=True)
    (outside / "folder" / "inside.xml").write_text("<GC_LOG/>")
    (outside / "file.xml").write_text("<GC_LOG/>")
    for parts, kind in plan:
        path = root.joinpath(*parts)
        if path.exists() or path.is_symlink():
            continue
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            continue  # a file stands where a folder would go
        if kind == "file":
            path.write_text("<GC_LOG/>")
        elif kind == "folder":
            path.mkdir()
        elif kind == "fifo":
            os.mkfifo(path)
        elif kind == "link-to-file":
            path.symlink_to(outside / "file.xml")
        elif kind == "link-to-folder":
            path.symlink_to(outside / "folder")
        else:
            path.symlink_to(outside / "missing.xml")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.lists(NAMES, min_size=1, max_size=4), KINDS), max_size=25))
@example(
    [(["a", "z.xml"], "file"), (["a.xml"], "file"), (["a-b.xml"], "file")]
)  # as text "a-b.xml" < "a.xml" < "a/z.xml"
@pytest.mark.slow
def test_logs_below_lists_what_rglob_listed(plan):
    scratch = Path(tempfile.mkdtemp(prefix="logs-below-"))
    try:
        root = scratch / "corpus"
        root.mkdir()
        build(root, plan)
        assert logs_below(root) == by_rglob(root)
    finally:
        shutil.rmtree(scratch)
