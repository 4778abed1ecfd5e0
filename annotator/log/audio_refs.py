"""Where a turn's audio is: resolving the paths written in audio_input / audio_output GC_DATA.

The standard wants paths relative to the log. Recorded logs often hold
absolute paths from the recording machine instead; such a path that does not
exist here is looked up by file name under the log's folder. Paths are data,
not commands: a file is only ever used if it is a regular file inside the
log's folder (after following symlinks), so "../../etc/shadow", devices and
folders are reported, never opened.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath

from annotator.log.views import DataView, Turn


@dataclass(frozen=True)
class AudioRef:
    turn: Turn
    direction: str  # "input" (the user's audio) or "output" (the system's)
    data: DataView  # the GC_DATA that names the file
    written: str  # the path as written in the log
    path: Path | None  # the file to open, or None
    problem: str | None  # why path is None (or how it was found), in plain words

    @property
    def found(self) -> bool:
        return self.path is not None

    @property
    def mime_type(self) -> str | None:
        return self.data.mime_type


class AudioResolver:
    """Resolves audio paths for the logs of one folder; caches the by-name index."""

    def __init__(self, log_folder: Path):
        self.folder = log_folder.resolve()
        self._by_name: dict[str, list[Path]] | None = None

    def resolve(self, turn: Turn, direction: str) -> AudioRef | None:
        data = turn.audio_data(direction)
        if data is None:
            return None
        written = data.text
        path, problem = self.locate(written)
        return AudioRef(turn, direction, data, written, path, problem)

    def locate(self, written: str) -> tuple[Path | None, str | None]:
        if not written:
            return None, "the audio path is empty"
        if "\x00" in written:
            return None, "the audio path holds a NUL character; not opened"
        candidate = Path(written) if os.path.isabs(written) else self.folder / written
        problem = self._check(candidate, written)
        if problem is None:
            return candidate.resolve(), None
        name = _file_name(written)
        matches = self._index().get(name, []) if name else []
        if matches:
            return matches[0], None
        return None, problem

    def _check(self, candidate: Path, written: str) -> str | None:
        try:
            real = candidate.resolve()
        except (OSError, RuntimeError):
            return f"cannot resolve audio path {written!r}"
        if not real.exists():
            return f"audio file not found: {written} (also looked for its name under {self.folder})"
        if not real.is_relative_to(self.folder):
            return f"audio path {written!r} points outside the log's folder; not opened"
        if real.is_dir():
            return f"audio path {written!r} is a folder, not a file; not opened"
        if not real.is_file():
            return f"audio path {written!r} is not a regular file (a device or pipe?); not opened"
        return None

    def _index(self) -> dict[str, list[Path]]:
        if self._by_name is None:
            self._by_name = {}
            for root, _dirs, files in os.walk(self.folder):
                for name in files:
                    path = Path(root, name)
                    if path.is_file() and path.resolve().is_relative_to(self.folder):
                        self._by_name.setdefault(name, []).append(path.resolve())
            for paths in self._by_name.values():
                paths.sort(key=lambda p: (len(p.parts), str(p)))
        return self._by_name


def _file_name(written: str) -> str:
    """The last component whether the recording machine used / or \\ separators."""
    return PureWindowsPath(written).name if "\\" in written else PurePosixPath(written).name


def resolver_for(log_path: Path) -> AudioResolver:
    return AudioResolver(log_path.resolve().parent)
