"""Ctrl+Q while the validation child still runs: the window's process ends within a second of the window
closing, its child told to stop rather than waited for. The real window runs in a process of its own
(tests/support/window_driver.py) on a generated log big enough that validation takes seconds."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.support.big_log import make_big_log
from tests.support.window_driver import is_running, read_lines, run_window

QUIT_WITHIN_S = 1.0
LOG_MB = 30  # validated in several seconds: the child is still at work when Ctrl+Q comes


@pytest.mark.slow
def test_ctrl_q_ends_the_process_within_a_second_while_validation_runs(tmp_path: Path):
    log = make_big_log(tmp_path / "big-hublog.xml", LOG_MB)
    window = run_window(log, tmp_path / "settings", [{"child": 120}, {"keys": "Ctrl+Q"}])
    children: list[int] = []
    try:
        lines = read_lines(window, until="closed")
        assert lines[-1]["event"] == "closed", lines[-1]
        closed, children = lines[-1]["t"], lines[-1]["children"]
        assert children, "validation was still running when the window closed"
        window.wait(timeout=120)
        ended = time.monotonic()
    finally:
        if window.poll() is None:
            window.send_signal(signal.SIGKILL)
            window.wait(timeout=60)
        window.stdout.close()
        window.stderr.close()
        for pid in children:
            if is_running(pid):
                os.kill(pid, signal.SIGKILL)
    assert ended - closed < QUIT_WITHIN_S, f"the process lived {ended - closed:.1f} s after its window closed"
