"""A bare X server (Xvfb, no window manager) and real key presses from xdotool, for the tests of what the window
does where nothing but the window itself gives it the keyboard."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

SCREEN = "1280x720x24"


@contextmanager
def bare_x_server() -> Iterator[dict[str, str]]:
    """A fresh Xvfb on a free display; the environment to run X clients on it."""
    if shutil.which("Xvfb") is None or shutil.which("xdotool") is None:
        pytest.fail("Xvfb and xdotool are needed (scripts/system-deps.sh installs them)")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", SCREEN, "-nolisten", "tcp"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as displays:
            display = displays.readline().strip()
        assert display, "Xvfb said no display"
        yield os.environ | {"DISPLAY": f":{display}", "QT_QPA_PLATFORM": "xcb"}
    finally:
        server.terminate()
        server.wait(timeout=10)


def xdotool(env: dict[str, str], *arguments: str, timeout: float = 30) -> str:
    return subprocess.run(
        ["xdotool", *arguments], env=env, capture_output=True, text=True, timeout=timeout, check=False
    ).stdout


def visible_windows(env: dict[str, str], name: str) -> list[str]:
    return xdotool(env, "search", "--onlyvisible", "--name", name).split()


def wait_for_window(
    env: dict[str, str], name: str, seconds: float = 60, process: subprocess.Popen | None = None
) -> None:
    """Until a window named NAME shows; PROCESS, the program that is to show it, ending first fails at once with
    what it printed (a Qt that cannot reach the X server aborts, and says why)."""
    deadline = time.monotonic() + seconds
    while not visible_windows(env, name):
        if process is not None and process.poll() is not None:
            output = process.stdout.read() if process.stdout is not None else ""
            pytest.fail(f"the program ended ({process.returncode}) before its window showed:\n{output}")
        assert time.monotonic() < deadline, f"no window named {name!r} showed"
        time.sleep(0.1)
