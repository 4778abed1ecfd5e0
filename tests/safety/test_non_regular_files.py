"""Inputs that are not regular files (a FIFO, a socket, a device, a folder named like a file) are
refused in one line and never opened: opening a FIFO blocks until someone writes to it, so every
command here would hang forever if it did. Real FIFOs and sockets, the real CLI in a subprocess,
with a timeout."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.repository import SAMPLE_LOGS

TIMEOUT = 60
FIFO = "is a named pipe (FIFO), not a regular file; not opened"
SOCKET = "is a socket, not a regular file; not opened"
DEVICE = "is a device, not a regular file; not opened"
FOLDER = "is a folder, not a file"


annotator = partial(run_annotator, timeout=TIMEOUT)


@pytest.fixture
def specials(tmp_path: Path) -> Iterator[dict[str, tuple[Path, str]]]:
    """name -> (path, the words its refusal must hold): a FIFO, a socket, /dev/null behind a symlink."""
    folder = tmp_path / "specials"
    folder.mkdir()
    os.mkfifo(folder / "fifo.xml")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(folder / "socket.xml"))
    (folder / "null.xml").symlink_to("/dev/null")
    try:
        yield {
            "fifo": (folder / "fifo.xml", FIFO),
            "socket": (folder / "socket.xml", SOCKET),
            "device": (folder / "null.xml", DEVICE),
        }
    finally:
        listener.close()


KINDS = ["fifo", "socket", "device"]


def _one_line_refusal(result: subprocess.CompletedProcess, path: Path, words: str) -> None:
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"annotator: {path}: {words}"), result.stderr


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["info", "export", "extract", "fold", "markers"])
@pytest.mark.slow
def test_a_log_that_is_not_a_regular_file(specials, tmp_path: Path, kind: str, command: str):
    path, words = specials[kind]
    out = tmp_path / "out"
    extra = {
        "info": [],
        "export": ["-o", out],
        "extract": ["-o", tmp_path / "a.csv"],
        "fold": [SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml", "-o", out / "f.xml"],
        "markers": ["-o", tmp_path / "m.csv"],
    }[command]
    if command == "markers":
        args = ["markers", "--config", SAMPLE_LOGS.parent / "resources" / "markers" / "communicator-kpis.yml", path]
    elif command == "fold":
        args = ["fold", path]
    else:
        args = [command, path]
    _one_line_refusal(annotator(*args, *extra), path, words)


@pytest.mark.parametrize("kind", KINDS)
def test_validate_names_it_as_an_unreadable_input(specials, kind: str):
    path, words = specials[kind]
    result = annotator("validate", path)
    assert result.returncode == 2 and "Traceback" not in result.stdout + result.stderr
    assert result.stdout == f"{path}: error: {words}\n"


@pytest.mark.parametrize("kind", [*KINDS, "folder"])
@pytest.mark.parametrize("role", ["annotations", "markers-config", "dialbb", "convlab"])
def test_other_input_files(specials, tmp_path: Path, kind: str, role: str):
    if kind == "folder":
        path, words = tmp_path / "folder.xml", FOLDER
        path.mkdir()
        if role in ("markers-config", "convlab"):
            pytest.skip("a folder is a valid input there (a folder of marker files, a dataset folder)")
    else:
        path, words = specials[kind]
    log = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
    args = {
        "annotations": ["fold", log, path, "-o", tmp_path / "f.xml"],
        "markers-config": ["markers", "--config", path, log, "-o", tmp_path / "m.csv"],
        "dialbb": ["import", "--from", "dialbb", path, "-o", tmp_path / "imported"],
        "convlab": ["import", "--from", "convlab", path, "-o", tmp_path / "imported"],
    }[role]
    _one_line_refusal(annotator(*args), path, words)


def test_a_corpus_folder_holding_them_names_each_and_reads_the_rest(specials, tmp_path: Path):
    corpus = specials["fifo"][0].parent
    shutil.copytree(SAMPLE_LOGS / "travel-20261121-001", corpus / "travel-20261121-001")
    result = annotator("validate", "--hide-quirks", corpus)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    for kind in KINDS:
        path, words = specials[kind]
        assert f"{path}: error: {words}" in lines
    assert len(lines) == 3, "the real log is validated, clean"


def test_the_corpus_scan_lists_them_as_unreadable_rows(specials):
    corpus = specials["fifo"][0].parent
    shutil.copytree(SAMPLE_LOGS / "travel-20261121-001", corpus / "travel-20261121-001")
    script = (
        "import sys; from annotator.corpus.scan import scan_corpus\n"
        "for row in scan_corpus(sys.argv[1]): print(row.file.name, '|', row.problem)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(corpus)], capture_output=True, text=True, timeout=TIMEOUT
    )
    assert result.returncode == 0, result.stderr
    rows = dict(line.split(" | ", 1) for line in result.stdout.splitlines())
    assert rows["travel-20261121-001-hublog.xml"] == "None"
    for kind in KINDS:
        path, words = specials[kind]
        assert words in rows[path.name]


def test_a_symlink_to_a_regular_log_is_fine(tmp_path: Path):
    link = tmp_path / "link.xml"
    link.symlink_to(SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml")
    result = annotator("info", link)
    assert result.returncode == 0, result.stderr
