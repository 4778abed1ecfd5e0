"""Team mode, chosen per corpus by a marker file: `.annotator-team` in the corpus folder.

A log is in team mode when its folder, or any folder above it, holds the marker (so marking
a corpus's top folder covers every log below it). The marker's content is not read; it is
written with a comment saying what it does. The window's menu toggle and every command read
the same file (docs/team.md).
"""

from __future__ import annotations

from pathlib import Path

from annotator.errors import WriteError
from annotator.writes.atomic import write_atomic

MARKER_NAME = ".annotator-team"
MARKER_TEXT = (
    b"# annotator: team mode for the logs in this folder and below it: each annotator saves to\n"
    b"# <log-stem>-human-<annotator>.xml beside the log, never into the log (docs/team.md).\n"
)


def team_marker(log_or_folder: str | Path) -> Path | None:
    """The marker that puts LOG_OR_FOLDER in team mode (the nearest one above it), or None."""
    start = Path(log_or_folder).resolve()
    folder = start if start.is_dir() else start.parent
    for candidate in (folder, *folder.parents):
        marker = candidate / MARKER_NAME
        if marker.is_file():
            return marker
    return None


def in_team_mode(log_or_folder: str | Path) -> bool:
    return team_marker(log_or_folder) is not None


def set_team_mode(folder: str | Path, on: bool) -> None:
    """Mark FOLDER as a team corpus, or unmark it (and every folder above it that marks it). Raises WriteError."""
    folder = Path(folder)
    if on:
        write_atomic(folder / MARKER_NAME, MARKER_TEXT)
        return
    while (marker := team_marker(folder)) is not None:
        try:
            marker.unlink()
        except OSError as error:
            raise WriteError(f"{marker}: cannot remove the team-mode marker: {error.strerror or error}") from None
