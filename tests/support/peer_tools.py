"""The peer tools the format tests hand our exports to (sclite, lmc, dialbb-test): where each is found."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tests.support.repository import REPO


def peer_tool(variable: str, command: str, venv: str | None = None) -> str | None:
    """The peer tool named by environment VARIABLE, else COMMAND on PATH, else in the checkout's VENV."""
    named = os.environ.get(variable)
    if named:
        return named if Path(named).is_file() else shutil.which(named)
    found = shutil.which(command)
    if found is None and venv is not None:
        candidate = REPO / venv / "bin" / command
        found = str(candidate) if candidate.is_file() else None
    return found
