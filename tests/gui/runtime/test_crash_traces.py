"""The window's process leaves a trace of every thread when a fatal signal kills it, and none when it ends well."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

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


def test_a_window_that_ends_well_leaves_no_crash_file(tmp_path: Path):
    data = tmp_path / "data"
    window = _start(data, ("ANNOTATOR_SMOKE_TEST", "1"))
    out, err = window.communicate(timeout=PATIENCE_S)
    assert window.returncode == 0, err
    assert "smoke test: opened=True" in out
    assert (data / "crashes").is_dir() and _crash_files(data) == []
