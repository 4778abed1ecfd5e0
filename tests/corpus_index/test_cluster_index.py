"""A corpus indexed on a Dask cluster (--scheduler, a LocalCluster on 127.0.0.1 here) or on two
processes writes the same index as a serial run: the same files, rows, texts and full-text answers."""

from __future__ import annotations

import os
import sqlite3
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.repository import REPO

annotator = partial(
    run_annotator, cwd=REPO, timeout=None
)  # the real command, run from the repository with no time limit


def _index_of(corpus: Path, cache: Path, where: list[str]) -> dict[str, list]:
    environment = {**os.environ, "ANNOTATOR_CACHE_DIR": str(cache)}
    done = annotator("index", corpus, *where, env=environment)
    # The truncated log is named, in one line, and the others indexed all the same.
    assert done.returncode == 2 and done.stderr.count("a-truncated-hublog.xml") == 1, done.stderr
    file = Path(annotator("index", corpus, "--where", env=environment).stdout.strip())
    with sqlite3.connect(file) as connection:
        tables = {
            "files": connection.execute(
                "SELECT id, path, size, mtime_ns, ctime_ns, digest, sessions FROM files ORDER BY id"
            ).fetchall(),
            "texts": connection.execute("SELECT * FROM texts ORDER BY id").fetchall(),
            "found": connection.execute(
                "SELECT rowid FROM texts_fts WHERE texts_fts MATCH 'flight OR austin' ORDER BY rowid"
            ).fetchall(),
        }
    connection.close()
    return tables


@pytest.mark.parametrize("where", [["--jobs", "2"], ["--scheduler", "cluster"]], ids=["two processes", "dask"])
@pytest.mark.slow
def test_a_parallel_index_is_the_serial_index(request, small_corpus: Path, tmp_path: Path, where):
    if where[0] == "--scheduler":
        where = ["--scheduler", request.getfixturevalue("cluster")]
    serial = _index_of(small_corpus, tmp_path / "serial", ["--jobs", "1"])
    parallel = _index_of(small_corpus, tmp_path / "parallel", where)
    assert len(serial["files"]) == 10 and serial["texts"] and serial["found"]
    assert parallel == serial
