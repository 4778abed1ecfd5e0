"""Relative paths on a Dask cluster: the workers run in a folder of their own (the cluster fixture's is the
repository), so a path relative to the command's folder must reach them absolute. The index, a search, an export
and an agreement report made with `--scheduler` from the corpus's folder are those of a serial run there.

A real LocalCluster (tests/conftest.py) and the real command in a subprocess."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from tests.support.cli import run_annotator

pytest.importorskip("dask.distributed")


def _here(corpus: Path, cache: Path, *args: str | Path):
    return run_annotator(*args, cwd=corpus, timeout=None, env={"ANNOTATOR_CACHE_DIR": str(cache)})


@pytest.mark.slow
def test_an_index_built_on_the_cluster_from_a_relative_path_holds_the_texts(cluster, small_corpus, tmp_path):
    cache = tmp_path / "cache"
    built = _here(small_corpus, cache, "index", ".", "--scheduler", cluster)
    assert built.returncode == 2, built.stderr  # the truncated log beside the others is named
    file = Path(_here(small_corpus, cache, "index", ".", "--where").stdout.strip())
    with sqlite3.connect(file) as connection:
        unread = connection.execute("SELECT path FROM files WHERE digest IS NULL").fetchall()
        texts = connection.execute("SELECT count(*) FROM texts").fetchone()[0]
    connection.close()
    assert unread == [] and texts > 0
    on_cluster = _here(small_corpus, cache, "search", "boston", ".", "--scheduler", cluster)
    serial = _here(small_corpus, tmp_path / "serial", "search", "boston", ".", "--jobs", "1")
    assert on_cluster.returncode == serial.returncode == 2  # hits, and the truncated log
    assert on_cluster.stdout == serial.stdout and "site-0/" in serial.stdout


@pytest.mark.slow
def test_an_export_and_an_agreement_from_relative_paths_are_the_serial_ones(cluster, tmp_path):
    from tests.support.repository import SAMPLE_LOGS

    corpus = tmp_path / "corpus"
    for name in ("alice", "bob"):
        (corpus / name).mkdir(parents=True)
        for log in sorted(SAMPLE_LOGS.glob("*/*-hublog.xml")):
            os.symlink(log, corpus / name / log.name)
    for where, arguments in (("cluster", ["--scheduler", cluster]), ("serial", ["--jobs", "1"])):
        exported = _here(corpus, tmp_path / where, "export", "-o", f"../{where}-csv", "alice", *arguments)
        assert exported.returncode == 0, exported.stderr
        agreed = _here(corpus, tmp_path / where, "agree", "-o", f"../{where}.html", "a=alice", "b=bob", *arguments)
        assert agreed.returncode == 0, agreed.stderr
    tables = {
        where: {table.name: table.read_bytes() for table in (tmp_path / f"{where}-csv").iterdir()}
        for where in ("cluster", "serial")
    }
    assert tables["cluster"] == tables["serial"] and tables["serial"]["turns.csv"].count(b"\n") > 10
    assert (tmp_path / "cluster.html").read_bytes() == (tmp_path / "serial.html").read_bytes()
