"""Audio cells of turns.csv: where a turn's audio file was found, relative to the log's folder.

AudioResolver.locate does the finding (and settles unfindable paths with one
stat); this only turns its answer into a cell.
"""

from __future__ import annotations

from pathlib import Path

from annotator.file_name_text import name_text
from annotator.log.audio_refs import AudioResolver


class AudioCells:
    """Relative paths of found audio files for the logs of one folder."""

    def __init__(self, log_folder: Path):
        self.resolver = AudioResolver(log_folder)
        self.folder = self.resolver.folder

    def cell(self, written: str | None) -> str:
        """The found file relative to the log's folder (POSIX separators, as name_text writes names), "" when not found."""
        if not written:
            return ""
        path = self.resolver.locate(written).path
        return "" if path is None else name_text(path.relative_to(self.folder).as_posix())
