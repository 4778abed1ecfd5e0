"""Audio cells of turns.csv: where a turn's audio file was found, relative to the log's folder.

AudioResolver.locate resolves every path fully (a realpath and several
stats), 20 microseconds a file; a big corpus whose audio is elsewhere or lost
pays that for every turn. A file that neither exists where written nor has
its name anywhere under the log's folder cannot be found by the resolver
either, so one stat and a set lookup settle those; the rest goes through
the resolver unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from annotator.log.audio_refs import AudioResolver


def _file_name(written: str) -> str:
    """The last component, as AudioResolver takes it (the recording machine may have used / or \\)."""
    tail = written.rpartition("/")[2]
    if tail and tail != "." and "\\" not in written:
        return tail  # what PurePosixPath(written).name gives, without building a path
    return PureWindowsPath(written).name if "\\" in written else PurePosixPath(written).name


class AudioCells:
    """Relative paths of found audio files for the logs of one folder."""

    def __init__(self, log_folder: Path):
        self.resolver = AudioResolver(log_folder)
        self.folder = self.resolver.folder
        self._names: set[str] | None = None

    def _file_names(self) -> set[str]:
        if self._names is None:
            self._names = {name for _root, _dirs, files in os.walk(self.folder) for name in files}
        return self._names

    def cell(self, written: str | None) -> str:
        """The found file relative to the log's folder (POSIX separators), "" when not found."""
        if not written:
            return ""
        if "\x00" not in written and not os.path.exists(os.path.join(self.folder, written)) \
                and _file_name(written) not in self._file_names():
            return ""
        path, _problem = self.resolver.locate(written)
        return "" if path is None else path.relative_to(self.folder).as_posix()
