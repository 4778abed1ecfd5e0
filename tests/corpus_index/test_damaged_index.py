"""A corrupt, truncated or older-schema index is made again with a one-line notice, never a traceback,
and the answer is still right; a cache folder that cannot be written costs only the keeping."""

from __future__ import annotations

import sqlite3
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.plain_scan import hits_of, scan
from tests.support.repository import REPO

annotator = partial(
    run_annotator, cwd=REPO, timeout=None
)  # the real command, run from the repository with no time limit


def _indexed(corpus: Path) -> Path:
    assert annotator("index", corpus, "--jobs", "1").returncode == 0
    file = Path(annotator("index", corpus, "--where").stdout.strip())
    assert file.is_file()
    return file


def _garbage(file: Path) -> None:
    file.write_bytes(b"this is no database at all\n" * 200)


def _truncated(file: Path) -> None:
    data = file.read_bytes()
    file.write_bytes(data[: len(data) // 3])


def _older(file: Path) -> None:
    with sqlite3.connect(file) as connection:
        connection.execute("UPDATE meta SET value = '0' WHERE key = 'schema'")
    connection.close()


def _scrambled_pages(file: Path) -> None:
    """The header kept, the pages after the first few overwritten: SQLite opens it and fails on a read."""
    data = bytearray(file.read_bytes())
    page = 4096
    for start in range(page * 2, len(data), page * 2):
        data[start : start + page] = b"\xa5" * min(page, len(data) - start)
    file.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [_garbage, _truncated, _older, _scrambled_pages])
@pytest.mark.slow
def test_a_damaged_index_is_made_again_and_the_answer_is_right(corpus: Path, damage):
    file = _indexed(corpus)
    damage(file)
    done = annotator("search", "flight", corpus, "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert hits_of(done.stdout) == scan([corpus], "flight")
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"annotator: note: the index {file} could not be used ("), lines
    assert lines[0].endswith("it is made again") and "Traceback" not in done.stderr
    again = annotator("search", "flight", corpus, "--jobs", "1")
    assert again.stderr == "" and again.stdout == done.stdout


@pytest.mark.slow
def test_info_beside_a_damaged_index_prints_the_same(corpus: Path):
    first = annotator("info", corpus, "--jobs", "1")
    file = Path(annotator("index", corpus, "--where").stdout.strip())
    _garbage(file)
    second = annotator("info", corpus, "--jobs", "1")
    assert second.stdout == first.stdout and second.stderr.count("\n") == 1 and "made again" in second.stderr


@pytest.mark.slow
def test_a_cache_folder_that_is_a_file_leaves_the_index_in_memory(corpus: Path, tmp_path: Path):
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    done = annotator("search", "flight", corpus, env={**_environment(), "ANNOTATOR_CACHE_DIR": str(blocked)})
    assert done.returncode == 0 and hits_of(done.stdout) == scan([corpus], "flight")
    assert done.stderr.count("\n") == 1 and "it is kept in memory for this run" in done.stderr


def _environment() -> dict[str, str]:
    import os

    return dict(os.environ)
