"""Typed application settings, each declared once over QSettings.

    settings = AppSettings()
    settings.auto_play            # True unless the user turned it off
    settings.speed = 1.5

Every setting names its key, type, default and what it is for. QSettings()
follows QCoreApplication's organisation/application names and
QSettings.defaultFormat(), which is how tests isolate themselves (see
tests/gui/conftest.py): they never touch the user's real settings.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QByteArray, QSettings

from annotator.file_name_text import name_from_text, name_text
from annotator.team.mode import in_team_mode
from annotator.team.names import is_annotator_name, login_name

T = TypeVar("T")

MAX_RECENT_FILES = 10
LOG_ORDER, DOUBT_ORDER = "log", "doubt"  # the values of AppSettings.next_turn_order
LAST_POSITION, LAST_LOG_IN_CORPUS = "last_position", "last_log_in_corpus"  # where the annotator stopped, per path


class Setting(Generic[T]):
    """One setting: a descriptor reading and writing AppSettings' QSettings."""

    def __init__(self, key: str, kind: type, default: T, doc: str):
        self.key = key
        self.kind = kind
        self.default = default
        self.doc = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, settings: AppSettings | None, owner: type) -> Any:
        if settings is None:
            return self
        raw = settings.qsettings.value(self.key)
        return self.default if raw is None else _convert(raw, self.kind, self.default)

    def __set__(self, settings: AppSettings, value: T) -> None:
        settings.qsettings.setValue(self.key, value)


def _convert(raw: Any, kind: type, default: Any) -> Any:
    """QSettings' INI and native backends give back strings, lists or QByteArrays: coerce to KIND."""
    try:
        if kind is bool:
            return raw if isinstance(raw, bool) else str(raw).strip().lower() in ("true", "1", "yes")
        if kind is float:
            return float(raw)
        if kind is list:
            if isinstance(raw, str):
                return [raw] if raw else []
            return [str(item) for item in raw]
        if kind is QByteArray:
            return raw if isinstance(raw, QByteArray) else QByteArray(raw)
        return kind(raw)
    except (TypeError, ValueError):
        return default


@dataclass(frozen=True)
class LastPosition:
    """Where the annotator left a log: a session id and a turn index within it."""

    session_id: str
    turn_index: int


class AppSettings:
    window_geometry = Setting("window/geometry", QByteArray, QByteArray(), "main window size and place")
    window_state = Setting("window/state", QByteArray, QByteArray(), "docks and toolbars of the main window")
    splitter_state = Setting("window/splitter", QByteArray, QByteArray(), "split between turn table and editor")
    window_screen = Setting("window/screen", str, "", "WIDTHxHEIGHT of the screen area the layout was saved on")
    recent_files: Setting[list[str]] = Setting("files/recent", list, [], "logs opened lately, newest first")
    auto_play = Setting("playback/auto_play", bool, True, "play the next turn's audio after Ctrl+Enter moves to it")
    loop = Setting("playback/loop", bool, False, "repeat the turn's audio until stopped")
    speed = Setting("playback/speed", float, 1.0, "playback speed, 0.25 to 2, pitch kept")
    place_words = Setting(
        "playback/place_words", bool, True, "place the shown turn's words on its audio (an aligner in a child process)"
    )
    prefill_automatically = Setting(
        "annotate/prefill", bool, False, "start an untranscribed turn's editor with the recognizer text"
    )
    next_turn_order = Setting(
        "annotate/next_turn_order",
        str,
        LOG_ORDER,
        'the user turn Ctrl+Enter goes to: the next in log order ("log") or the most '
        'doubtful still to transcribe ("doubt", docs/metrics.md)',
    )

    annotator_name = Setting(
        "team/annotator", str, "", "the annotator's name in team mode (docs/team.md); empty: the login name"
    )

    # Playback, the listening kit (docs/guide.md, "A listening kit for telephone speech").
    back_seconds = Setting("playback/back_seconds", float, 2.0, "how far Playback > Back jumps, in seconds")
    rewind_on_resume = Setting(
        "playback/rewind_on_resume",
        float,
        1.0,
        "resuming after a pause starts this many seconds earlier (0: where it paused)",
    )
    normalise_loudness = Setting(
        "playback/normalise_loudness",
        bool,
        True,
        "play quiet turns at a common loudness (ITU-R BS.1770); the files never change",
    )
    loudness_target = Setting(
        "playback/loudness_target", float, -23.0, "the loudness normalised playback aims at, LUFS"
    )
    pause_while_typing = Setting(
        "playback/pause_while_typing",
        bool,
        False,
        "a keystroke in the editor pauses playback; it resumes after typing_idle_seconds",
    )
    typing_idle_seconds = Setting(
        "playback/typing_idle_seconds",
        float,
        1.5,
        "with pause_while_typing: the idle time after the last keystroke before resuming",
    )

    # Appearance.
    theme = Setting("appearance/theme", str, "system", '"system" (follow the desktop), "light" or "dark"')
    zoom = Setting("appearance/zoom", int, 100, "text size of the turn table and the editor, percent of the default")
    editor_font_size = Setting("annotate/font_size", float, 0.0, "the editor's font size in points (0: the system's)")
    show_spectrogram = Setting("view/spectrogram", bool, False, "the waveform dock shows the turn's spectrogram too")

    # Keys: only the actions the user rebound, as JSON {action name: [key, ...]}; every other action keeps the
    # table's default (gui/actions.py), so a new version's new defaults reach users who rebound something else.
    shortcut_overrides = Setting("keys/overrides", str, "{}", "the user's own keys, by action name")

    journal_folder = Setting(
        "paths/journal_folder", str, "", "where unsaved work is journalled (empty: the per-user data folder)"
    )

    def __init__(self, qsettings: QSettings | None = None):
        self.qsettings = qsettings if qsettings is not None else QSettings()
        self.annotator_for_this_run: str | None = None  # `--annotator NAME`: wins over the setting, never stored

    @property
    def annotator(self) -> str:
        """Who is annotating: --annotator, else the setting when it is a valid name, else the login name."""
        if self.annotator_for_this_run is not None:
            return self.annotator_for_this_run
        stored = self.annotator_name
        return stored if is_annotator_name(stored) else login_name()

    # Paths are stored as name_text (any file name, reversibly, in text Qt can hold).
    def add_recent_file(self, path: str | Path) -> list[str]:
        name = name_text(Path(path).resolve())
        recent = [name] + [p for p in self.recent_files if p != name]
        self.recent_files = recent[:MAX_RECENT_FILES]
        return self.recent_files

    def remove_recent_file(self, path: str | Path) -> None:
        name = name_text(Path(path).resolve())
        self.recent_files = [p for p in self.recent_files if p != name]

    # Where the annotator stopped: the position in each log, and the log last opened from each corpus folder. One
    # key per log or folder, named by a hash of its absolute path (paths hold "/" which QSettings reads as groups).
    # In team mode (ANNOTATOR given; None outside it) each annotator has their own, in a group per path named by
    # the same hash. The per-path key was also team mode's before these were kept per annotator: it is still read,
    # in team mode by whoever comes first, and never given to an annotator once another has their own there (it
    # may be theirs: nothing in it says whose it is).
    def last_position(self, log_path: str | Path, annotator: str | None) -> LastPosition | None:
        raw = self._kept(LAST_POSITION, log_path, annotator)
        if raw is None:
            return None
        try:
            stored = json.loads(str(raw))
            return LastPosition(str(stored["session"]), int(stored["turn"]))
        except (ValueError, KeyError, TypeError):
            return None

    def set_last_position(self, log_path: str | Path, position: LastPosition, annotator: str | None) -> None:
        stored: dict[str, object] = {"path": name_text(Path(log_path).resolve())}
        if annotator is not None:
            stored["annotator"] = annotator
        stored |= {"session": position.session_id, "turn": position.turn_index}
        self._keep(LAST_POSITION, log_path, annotator, json.dumps(stored))

    def last_log_in_corpus(self, folder: str | Path, annotator: str | None) -> Path | None:
        """The log last opened from the corpus FOLDER, so reopening the corpus returns to it."""
        raw = self._kept(LAST_LOG_IN_CORPUS, folder, annotator)
        return Path(name_from_text(str(raw))) if raw else None

    def set_last_log_in_corpus(self, folder: str | Path, log_path: str | Path, annotator: str | None) -> None:
        self._keep(LAST_LOG_IN_CORPUS, folder, annotator, name_text(Path(log_path).resolve()))

    def team_annotator_of(self, path: str | Path) -> str | None:
        """Whose places in PATH (a log or a corpus folder) are kept: the annotator's in team mode, else None."""
        return self.annotator if in_team_mode(path) else None

    def _kept(self, kind: str, path: str | Path, annotator: str | None) -> object:
        digest = _path_digest(path)
        if annotator is None:
            return self.qsettings.value(f"{kind}/{digest}")
        group = f"{kind}_by_annotator/{digest}"
        own = self.qsettings.value(f"{group}/{annotator}")  # annotator names are key-safe (team/names.py)
        if own is not None:
            return own
        self.qsettings.beginGroup(group)
        others = self.qsettings.childKeys()
        self.qsettings.endGroup()
        return None if others else self.qsettings.value(f"{kind}/{digest}")

    def _keep(self, kind: str, path: str | Path, annotator: str | None, value: str) -> None:
        digest = _path_digest(path)
        key = f"{kind}/{digest}" if annotator is None else f"{kind}_by_annotator/{digest}/{annotator}"
        self.qsettings.setValue(key, value)

    def sync(self) -> None:
        self.qsettings.sync()


def _path_digest(path: str | Path) -> str:
    return hashlib.sha1(os.fsencode(Path(path).resolve())).hexdigest()
