"""The keys that work: the action table's defaults (gui/actions.py) with the user's own keys over them.

Only what the user rebound is stored (AppSettings.shortcut_overrides, JSON {action name: [key, ...]}),
so a later version's new default keys reach every action the user left alone. An override naming an
action the table no longer has, or a key Qt cannot read, is ignored; so is a key that types text (a plain
letter, Space...: gui/keyboard.py), which KeyBindings.ignored names for the status bar.

    keys = KeyBindings(settings)
    keys.effective["play_pause"]      # ("Ctrl+Space",) unless rebound
    keys.save({**keys.effective, "play_pause": ("F9",)})   # stored as {"play_pause": ["F9"]}; changed emitted
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QKeySequence

from annotator.gui.actions import ACTIONS, Actions
from annotator.gui.keyboard import typing_keys_among
from annotator.gui.settings import AppSettings

Keys = dict[str, tuple[str, ...]]  # action name -> its keys, in QKeySequence's portable text


def portable(key: str | QKeySequence) -> str:
    """KEY as QKeySequence's portable text ("Ctrl+Space"), one spelling per key ("" when unreadable)."""
    return QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText)


def default_keys() -> Keys:
    return {action_spec.name: tuple(portable(key) for key in action_spec.keys) for action_spec in ACTIONS}


def parse_overrides(stored: str) -> Keys:
    """The overrides in STORED that still mean something: actions the table has, keys Qt can read."""
    try:
        raw = json.loads(stored or "{}")
    except ValueError:
        return {}
    if not isinstance(raw, dict):
        return {}
    known = default_keys()
    overrides: Keys = {}
    for name, keys in raw.items():
        if name not in known or not isinstance(keys, list):
            continue
        overrides[name] = tuple(key for key in (portable(str(k)) for k in keys) if key)
    return overrides


def effective_keys(overrides: Mapping[str, tuple[str, ...]]) -> Keys:
    return {**default_keys(), **{name: keys for name, keys in overrides.items() if name in default_keys()}}


def overrides_of(effective: Mapping[str, tuple[str, ...]]) -> Keys:
    """What differs from the table's defaults: the only keys worth storing."""
    return {name: tuple(keys) for name, keys in effective.items() if tuple(keys) != default_keys().get(name)}


@dataclass(frozen=True)
class Conflict:
    key: str
    actions: tuple[str, ...]  # the names of the actions that share KEY

    def describe(self) -> str:
        texts = [_action_text(name) for name in self.actions]
        return (
            f"{QKeySequence(self.key).toString(QKeySequence.SequenceFormat.NativeText)} is bound to "
            + " and to ".join(f"\u201c{text}\u201d" for text in texts)
        )


def conflicts(effective: Mapping[str, tuple[str, ...]]) -> list[Conflict]:
    """Keys bound to more than one action. Every action works in the window, and a panel's own actions
    (in_panel) work where the window's do too, so any shared key is ambiguous: Qt would fire neither."""
    holders: dict[str, list[str]] = {}
    for name, keys in effective.items():
        for key in keys:
            holders.setdefault(key, []).append(name)
    return [Conflict(key, tuple(names)) for key, names in holders.items() if len(names) > 1]


def _action_text(name: str) -> str:
    return next(s.text.replace("&", "") for s in ACTIONS if s.name == name)


class KeyBindings(QObject):
    """The window's effective keys, stored as overrides in SETTINGS; `changed` after each save."""

    changed = Signal()

    def __init__(self, settings: AppSettings, parent: QObject | None = None):
        super().__init__(parent)
        self.settings = settings
        overrides = parse_overrides(settings.shortcut_overrides)
        self.ignored: dict[str, tuple[str, ...]] = {}  # action name -> its stored keys that type text
        for name, keys in list(overrides.items()):
            typing = typing_keys_among(keys)
            if typing:
                self.ignored[name] = tuple(typing)
                kept = tuple(key for key in keys if key not in typing)
                if kept:
                    overrides[name] = kept
                else:
                    del overrides[name]  # the action keeps its default keys
        self.effective = effective_keys(overrides)

    def ignored_text(self) -> str:
        """A line naming the stored keys that were ignored because they type ("" when none was)."""
        if not self.ignored:
            return ""
        named = "; ".join(
            f"{', '.join(keys)} for \u201c{_action_text(name)}\u201d" for name, keys in self.ignored.items()
        )
        return f"Stored shortcuts ignored because they type text: {named}. Help > Keyboard shortcuts sets others"

    def save(self, effective: Mapping[str, tuple[str, ...]]) -> None:
        """Store EFFECTIVE as overrides and tell the window. Refuses keys that conflict (ValueError)."""
        found = conflicts(effective)
        if found:
            raise ValueError(found[0].describe())
        self.effective = effective_keys(overrides_of(effective))
        self.settings.shortcut_overrides = json.dumps(
            {name: list(keys) for name, keys in sorted(overrides_of(self.effective).items())}
        )
        self.changed.emit()

    def apply(self, actions: Actions) -> None:
        """Give the live QActions their effective keys."""
        for action_spec, action in actions:
            action.setShortcuts([QKeySequence(key) for key in self.effective[action_spec.name]])

    def window_sequences(self) -> list[QKeySequence]:
        """The keys that work anywhere in the window, which its text fields let through (a panel's own
        keys, such as Delete, stay with the field that has the focus): all_key_sequences, rebound."""
        return [
            QKeySequence(key)
            for action_spec in ACTIONS
            if not action_spec.in_panel
            for key in self.effective[action_spec.name]
        ]
