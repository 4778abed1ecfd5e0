"""`annotator validate/info/export/markers` on logs whose DOCTYPE names an external DTD: they work, and
nothing the DOCTYPE names is read: no connection reaches the URL's server, a FIFO named as the DTD
(which would block whoever opened it) does not block, a poisoned DTD file changes nothing."""

from __future__ import annotations

import os
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.doctype_logs import ConnectionCounter, doctype_log, poisoned_dtd
from tests.support.repository import REPO

KPIS = REPO / "resources" / "markers" / "communicator-kpis.yml"


annotator = partial(run_annotator, timeout=60)


@pytest.fixture
def logs(tmp_path: Path):
    """(folder of DOCTYPE logs naming a URL, a FIFO, a poisoned file and a PUBLIC id; the counting server)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    fifo = tmp_path / "gc_log-fifo.dtd"
    os.mkfifo(fifo)
    with ConnectionCounter() as counter:
        poisoned = poisoned_dtd(tmp_path, counter)
        doctypes = {
            "url": f'<!DOCTYPE GC_LOG SYSTEM "{counter.url}">',
            "fifo": f'<!DOCTYPE GC_LOG SYSTEM "{fifo}">',
            "poisoned": f'<!DOCTYPE GC_LOG SYSTEM "{poisoned}">',
            "public": f'<!DOCTYPE GC_LOG PUBLIC "-//DARPA//DTD Communicator 11//EN" "{counter.url}">',
        }
        for name, doctype in doctypes.items():
            (folder / f"{name}.xml").write_text(doctype_log(doctype), encoding="utf-8")
        yield folder, counter
        assert counter.connections == 0, "nothing reached the server the DOCTYPE names"


@pytest.mark.slow
def test_validate_checks_against_the_shipped_dtd_and_reads_nothing_named(logs):
    folder, _ = logs
    result = annotator("validate", "--hide-quirks", "--no-audio", folder)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 4 and all(": info: the DOCTYPE names the DTD" in line for line in lines)


@pytest.mark.slow
def test_info_export_and_markers_work(logs, tmp_path: Path):
    folder, _ = logs
    info = annotator("info", folder)
    assert info.returncode == 0 and info.stdout.count("session s1") == 4, info.stderr
    exported = annotator("export", folder, "--to", "csv", "-o", tmp_path / "csv")
    assert exported.returncode == 0, exported.stderr
    assert len((tmp_path / "csv" / "sessions.csv").read_text().splitlines()) == 5
    markers = annotator("markers", "--config", KPIS, folder, "-o", tmp_path / "markers.csv", "--no-stats")
    assert markers.returncode == 0, markers.stderr


@pytest.mark.slow
def test_fold_keeps_the_doctype_byte_for_byte(logs, tmp_path: Path):
    folder, _ = logs
    log = folder / "public.xml"
    annotations = tmp_path / "annotations.csv"
    annotations.write_text(
        "file,session_id,turn_id,transcription,task_completion\npublic.xml,s1,2,to boston,\n", encoding="utf-8"
    )
    result = annotator("fold", log, annotations, "-o", tmp_path / "folded.xml")
    assert result.returncode == 0, result.stderr
    original = log.read_bytes()
    folded = (tmp_path / "folded.xml").read_bytes()
    prolog = original[: original.index(b"<GC_LOG>")]
    assert folded.startswith(prolog) and b"to boston" in folded
