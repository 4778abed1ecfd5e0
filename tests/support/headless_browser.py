"""Debian's chromium, headless, as the agreement report's tests run it: a window of 1280 x 900 CSS pixels, the
width of the smallest screen the report is read on. Tests that need it are skipped only where chromium is absent
(scripts/system-deps.sh installs it, so CI runs them)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WINDOW_WIDTH = 1280
HEADLESS = ["--headless", "--no-sandbox", "--disable-gpu", f"--window-size={WINDOW_WIDTH},900"]
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="chromium is not installed (scripts/system-deps.sh installs it)"
)


def chromium(*args: str) -> subprocess.CompletedProcess:
    assert CHROMIUM is not None
    return subprocess.run([CHROMIUM, *HEADLESS, *args], capture_output=True, text=True, timeout=120)
