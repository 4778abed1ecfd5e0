"""The validation child process dies with its window, even when the window is SIGKILLed while the
child is running (within about a second of an open)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.support.window_driver import children_of, is_running, run_window

PATIENCE_SECONDS = 60  # a hang guard for a loaded machine, not a speed requirement


@pytest.mark.slow
def test_killing_the_window_during_open_ends_its_validation_child(raw_log: Path, tmp_path: Path):
    window = run_window(raw_log, tmp_path / "settings", [])
    try:
        deadline = time.monotonic() + PATIENCE_SECONDS
        children: list[int] = []
        while not children and time.monotonic() < deadline and window.poll() is None:
            children = [
                pid
                for pid in children_of(window.pid)
                if b"multiprocessing" in Path(f"/proc/{pid}/cmdline").read_bytes()
            ]
            time.sleep(0.002)
        assert children, "the window started a validation child"
    finally:
        window.send_signal(signal.SIGKILL)
        window.wait(timeout=60)  # not communicate(): a child left running holds the window's stdout open
        window.stdout.close()
        window.stderr.close()
    deadline = time.monotonic() + PATIENCE_SECONDS
    while any(is_running(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = [pid for pid in children if is_running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], "the children of a killed window end with it"
