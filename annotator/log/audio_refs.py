"""Where a turn's audio is: resolving the paths written in audio_input / audio_output GC_DATA.

The standard wants paths relative to the log. Recorded logs often hold
absolute paths from the recording machine instead; such a path that does not
exist here is looked up by file name under the log's folder. Paths are data,
not commands: a file is only ever used if it is a regular file inside the
log's folder (after following symlinks), so "../../etc/shadow", devices and
folders are reported, never opened. Such a path is `refused` (unsafe), as
opposed to merely missing: validation reports the first as an error, the
second as a warning.

Speed: a corpus whose audio is elsewhere or lost would pay a full resolution
(a realpath and a stat, 20 microseconds) per turn. A path that does not exist
where written and whose file name is nowhere under the log's folder cannot be
found by name either, so one stat and a set lookup settle it. The names are
those of one walk of the log's folder, at most SEARCH_DEPTH folders down, made
once per folder and run (resolver_for shares it between the logs of a folder).
"""

from __future__ import annotations

import os
import stat
import threading
from dataclasses import dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import NamedTuple

from annotator.log.elements import DataView, Turn


class Located(NamedTuple):
    """What AudioResolver.locate makes of a written path."""

    path: Path | None  # the file to open, or None
    problem: str | None  # why path is None, in plain words
    refused: bool = False  # path is None because the path is unsafe, not merely missing


@dataclass(frozen=True)
class AudioRef:
    turn: Turn
    direction: str  # "input" (the user's audio) or "output" (the system's)
    data: DataView  # the GC_DATA that names the file
    written: str  # the path as written in the log
    path: Path | None  # the file to open, or None
    problem: str | None  # why path is None (or how it was found), in plain words
    refused: bool = False  # path is None because the path is unsafe (outside the folder, a device...)

    @property
    def found(self) -> bool:
        return self.path is not None

    @property
    def mime_type(self) -> str | None:
        return self.data.mime_type


SEARCH_DEPTH = 4  # folders below the log's own in which audio is looked for by its name


class AudioResolver:
    """Resolves audio paths for the logs of one folder; caches the folder's file names and by-name index."""

    def __init__(self, log_folder: Path):
        self.folder = log_folder.resolve()
        self._folder_text = str(self.folder)  # joined with a path per turn: a Path would be converted each time
        self._roots: dict[str, list[str]] | None = None  # file name -> the folders under the folder holding one
        self._by_name: dict[str, list[Path]] = {}  # file name -> its regular files inside the folder, once looked up

    def resolve(self, turn: Turn, direction: str) -> AudioRef | None:
        data = turn.audio_data(direction)
        if data is None:
            return None
        written = data.text
        path, problem, refused = self.locate(written)
        return AudioRef(turn, direction, data, written, path, problem, refused)

    def locate(self, written: str) -> Located:
        if not written:
            return Located(None, "the audio path is empty")
        if "\x00" in written:
            return Located(None, "the audio path holds a NUL character; not opened", True)
        candidate = written if os.path.isabs(written) else os.path.join(self._folder_text, written)
        name = _file_name(written)
        if not _exists(candidate) and name not in self.index_folder():
            # The shortcut: not where written, and no file of that name to find.
            return self._unfound(written, None)
        checked = self._check(candidate, written)
        if checked is not None and checked.path is not None:
            return checked
        matches = self._files_named(name) if name else []
        if matches:
            return Located(matches[0], None)
        return self._unfound(written, checked)

    def _unfound(self, written: str, checked: Located | None) -> Located:
        """Why WRITTEN gives no file; CHECKED is the verdict on its target (None: it does not exist)."""
        if not os.path.isabs(written) and _climbs_out(written):
            return Located(
                None,
                f"audio path {written!r} points outside the log's folder: it climbs out of "
                "the log's folder; not opened",
                True,
            )
        if checked is not None:
            return checked
        return Located(None, f"audio file not found: {written} (also looked for its name under {self._folder_text})")

    def _check(self, candidate: str, written: str) -> Located | None:
        """CANDIDATE if it is a regular file inside the folder, else why it is refused; None if it does not exist."""
        try:
            real = Path(os.path.realpath(candidate))
            mode = os.stat(real).st_mode
        except (OSError, RuntimeError, ValueError):
            return None
        if not real.is_relative_to(self.folder):
            return Located(None, f"audio path {written!r} points outside the log's folder; not opened", True)
        if stat.S_ISDIR(mode):
            return Located(None, f"audio path {written!r} is a folder, not a file; not opened", True)
        if not stat.S_ISREG(mode):
            return Located(None, f"audio path {written!r} is not a regular file (a device or pipe?); not opened", True)
        return Located(real, None)

    def index_folder(self) -> dict[str, list[str]]:
        """Where each file name is under the folder (folders, links and all: only to rule names out or find
        the candidates), from one walk of the folder, made on the first call. The window makes it on the
        opening worker: on the GUI thread, the walk of a big folder stalled the first turn's audio."""
        if self._roots is None:
            roots: dict[str, list[str]] = {}
            base_depth = self._folder_text.count(os.sep)
            for root, dirs, files in os.walk(self.folder):
                if root.count(os.sep) - base_depth >= SEARCH_DEPTH:
                    dirs.clear()  # bounded: a log at the top of a big tree does not walk all of it
                for name in files:
                    roots.setdefault(name, []).append(root)
            self._roots = roots
        return self._roots

    def _files_named(self, name: str) -> list[Path]:
        """The regular files called NAME inside the folder, the shallowest first."""
        found = self._by_name.get(name)
        if found is None:
            found = []
            for root in self.index_folder().get(name, ()):
                path = Path(root, name)
                if path.is_file() and path.resolve().is_relative_to(self.folder):
                    found.append(path.resolve())
            found.sort(key=lambda p: (len(p.parts), str(p)))
            self._by_name[name] = found
        return found


def _exists(path: str) -> bool:
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def _climbs_out(written: str) -> bool:
    """Whether a relative path's .. components take it above its starting folder (/ or \\ separators)."""
    if ".." not in written:
        return False
    depth = 0
    for part in PurePosixPath(written.replace("\\", "/")).parts:
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def _file_name(written: str) -> str:
    """The last component whether the recording machine used / or \\ separators."""
    if "\\" in written:
        return PureWindowsPath(written).name
    tail = written.rpartition("/")[2]
    if tail and tail not in (".", ".."):
        return tail  # what PurePosixPath(written).name gives, without building a path
    return PurePosixPath(written).name


def resolver_for(log_path: Path) -> AudioResolver:
    """The resolver of LOG_PATH's folder, shared by the logs of that folder in this process: a corpus whose
    logs name missing audio walked the folder once per log (6,000 logs in one folder: 58 s). It is made
    anew when the folder's own entries change (its mtime), so that audio copied in beside the logs is seen."""
    folder = log_path.resolve().parent
    try:
        key = (str(folder), os.stat(folder).st_mtime_ns)
    except OSError:
        return AudioResolver(folder)
    with _SHARED_LOCK:
        resolver = _SHARED.pop(key, None) or AudioResolver(folder)
        _SHARED[key] = resolver  # the most recent last
        while len(_SHARED) > _SHARED_FOLDERS:
            del _SHARED[next(iter(_SHARED))]
    return resolver


_SHARED: dict[tuple[str, int], AudioResolver] = {}
_SHARED_FOLDERS = 16  # folders whose index is kept: a corpus is read folder by folder
_SHARED_LOCK = threading.Lock()
