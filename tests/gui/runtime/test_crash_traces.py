"""The window's process leaves a trace of every thread when a fatal signal kills it, and none when it ends well."""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from annotator import __version__
from annotator.gui.runtime.crash_traces import forget_crash_trace, record_crash_traces
from tests.support.repository import REPO, SAMPLE_LOGS, command_environment

LOG = SAMPLE_LOGS / "travel-20261121-002" / "travel-20261121-002-hublog.xml"
PATIENCE_S = 60


def _start(data: Path, *environment: tuple[str, str]) -> subprocess.Popen:
    env = {
        **command_environment(),
        "QT_QPA_PLATFORM": "offscreen",
        "ANNOTATOR_DATA_DIR": str(data),
        **dict(environment),
    }
    # The crash is on purpose: the window dumps no core file, which CI would report as a crash.
    no_core = ["sh", "-c", 'ulimit -c 0 && exec "$@"', "sh"]
    return subprocess.Popen(
        [*no_core, sys.executable, "-m", "annotator", "gui", str(LOG)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _crash_files(data: Path) -> list[Path]:
    return sorted((data / "crashes").glob("crash-*.txt"))


@pytest.mark.slow
def test_a_window_killed_by_sigsegv_leaves_every_thread_s_stack_in_its_crash_file(tmp_path: Path):
    data = tmp_path / "data"
    window = _start(data)
    deadline = time.monotonic() + PATIENCE_S
    while not _crash_files(data) and window.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # the window shows its log meanwhile: its threads are running
    os.kill(window.pid, signal.SIGSEGV)
    window.communicate(timeout=PATIENCE_S)
    assert window.returncode == -signal.SIGSEGV
    [crash] = _crash_files(data)
    assert crash.name == f"crash-{window.pid}.txt"
    text = crash.read_text(encoding="utf-8")
    assert text.startswith("annotator ") and f"process {window.pid}" in text.splitlines()[0]
    assert "Fatal Python error: Segmentation fault" in text
    assert "most recent call first" in text and "annotator/gui/app.py" in text


@pytest.mark.slow
def test_a_window_that_ends_well_leaves_no_crash_file(tmp_path: Path):
    data = tmp_path / "data"
    window = _start(data, ("ANNOTATOR_SMOKE_TEST", "1"))
    out, err = window.communicate(timeout=PATIENCE_S)
    assert window.returncode == 0, err
    assert "smoke test: opened=True" in out
    assert (data / "crashes").is_dir() and _crash_files(data) == []


def test_the_crash_file_is_made_once_per_process_and_removed_when_it_ends_well(tmp_path: Path):
    folder = tmp_path / "crashes"
    path = record_crash_traces(folder)
    try:
        assert path == folder / f"crash-{os.getpid()}.txt"
        assert path.read_text(encoding="utf-8").startswith(f"annotator {__version__}, process {os.getpid()}")
        assert faulthandler.is_enabled()
        assert record_crash_traces(tmp_path / "elsewhere") == path  # one file per process
        assert not (tmp_path / "elsewhere").exists()
    finally:
        forget_crash_trace()
    assert not path.exists() and faulthandler.is_enabled()  # on standard error from now on
    forget_crash_trace()  # a second end is nothing


def test_a_crash_folder_that_cannot_be_made_leaves_the_traces_on_standard_error(tmp_path: Path):
    not_a_folder = tmp_path / "data"
    not_a_folder.write_text("a file where the data folder should be", encoding="utf-8")
    assert record_crash_traces(not_a_folder / "crashes") is None
    assert faulthandler.is_enabled()
    forget_crash_trace()  # nothing was recorded: nothing to remove
