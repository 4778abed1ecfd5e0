"""The window on a bare X server (Xvfb, no window manager), driven by xdotool as a fresh X session is: it takes
its shortcuts without a click, and F1's and Ctrl+,'s dialogs take the keyboard, an Escape typed right after the
key that opens one closing it, and the typing after it going on in the transcription."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.bare_x import bare_x_server, visible_windows, wait_for_window, xdotool


def _start(env: dict[str, str], log: Path, tmp_path: Path) -> subprocess.Popen:
    env = env | {"XDG_CONFIG_HOME": str(tmp_path / "config")}  # the window's settings, the test's own
    app = subprocess.Popen(
        [sys.executable, "-m", "annotator", "gui", str(log)],
        env=env,
        cwd=Path(__file__).resolve().parents[2],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    wait_for_window(env, log.name, process=app)
    time.sleep(1.0)  # the log's turns shown, the editor focused
    return app


def _ended(app: subprocess.Popen, seconds: float = 15) -> bool:
    try:
        app.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        app.kill()
        app.wait()
        return False
    return True


@pytest.mark.slow
def test_a_fresh_window_takes_its_shortcuts_without_a_click(raw_log: Path, tmp_path: Path):
    with bare_x_server() as env:
        app = _start(env, raw_log, tmp_path)
        xdotool(env, "key", "ctrl+q")
        assert _ended(app), "Ctrl+Q, the first key of the session, quit"
        assert app.returncode == 0, app.stdout.read() if app.stdout else ""


@pytest.mark.slow
@pytest.mark.parametrize(("key", "title"), [("F1", "Keyboard shortcuts"), ("ctrl+comma", "Preferences")])
def test_a_dialog_takes_the_keyboard_and_an_escape_right_after_its_key_closes_it(
    raw_log: Path, tmp_path: Path, key: str, title: str
):
    log = raw_log  # a writable copy
    with bare_x_server() as env:
        app = _start(env, log, tmp_path)
        xdotool(env, "key", key, "Escape")  # 12 ms apart: the Escape comes while the dialog is being shown
        time.sleep(1.0)
        assert not visible_windows(env, title), f"{title} is still open: the Escape was lost"
        xdotool(env, "type", "--delay", "30", "hello boston")
        time.sleep(0.5)
        xdotool(env, "key", "ctrl+s")
        time.sleep(1.0)
        xdotool(env, "key", "ctrl+q")
        assert _ended(app)
    assert b"hello boston" in log.read_bytes(), "the typing after the dialog went into the transcription, saved"
