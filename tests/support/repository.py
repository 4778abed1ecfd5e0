"""This repository as the tests see it: its root, the bundled sample logs, and the environment of a command a
test starts (the repository's code first on its path)."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE_LOGS = REPO / "sample_logs"


def command_environment() -> dict[str, str]:
    """The environment of a command a test starts, taken when it starts: the test's own data and cache folders
    (isolated_user_data), so no earlier run's journal or corpus index answers for it, and this repository's code."""
    return {**os.environ, "PYTHONPATH": str(REPO)}


def sample_log_paths() -> list[Path]:
    return sorted(SAMPLE_LOGS.glob("*/*-hublog.xml"))
