"""The questions of crash recovery: restore a dead window's work, open a log another window holds,
and the note that a journal could not be read."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox, QWidget

from annotator.gui.message_box import Button, Icon, message_box
from annotator.journal.entries import JournalEntry
from annotator.journal.instance_lock import LIVE, InstanceLock

Role = QMessageBox.ButtonRole
READ_ONLY, EDIT = "read-only", "edit"


def ask_restore(parent: QWidget, entries: list[JournalEntry]) -> bool:
    """Restore (the default) or Discard the unsaved work ENTRIES hold."""
    found = "; ".join(entry.summary for entry in entries)
    windows = f", left by {len(entries)} windows that closed unexpectedly" if len(entries) > 1 else ""
    warnings = [entry.warning for entry in entries if entry.warning]
    box = message_box(
        parent,
        Icon.Question,
        "Restore unsaved work?",
        f"Unsaved annotations of this log were found{windows}: {found}.",
        Button.Discard,
        informative=warnings[0] if warnings else "Restore puts them back exactly as they were; Discard deletes them.",
    )
    restore = box.addButton("&Restore", Role.AcceptRole)
    box.setDefaultButton(restore)
    box.exec()
    return box.clickedButton() is restore


def ask_open_elsewhere(parent: QWidget, path: Path, others: dict[str, InstanceLock]) -> tuple[str | None, set[str]]:
    """How to open PATH, which OTHERS hold: (READ_ONLY, EDIT or None to cancel, the windows the
    annotator said are gone: their unsaved work is then offered here)."""
    live = [lock for lock in others.values() if lock.state() == LIVE]
    if live:
        text = f"{path.name} is already open in another window of the annotator ({live[0].describe()})."
        more = (
            "Open it read-only to look at it without changing it, or edit it here too: each window keeps "
            "its own unsaved work, and saving over the other window's save asks first."
        )
        edit_label = "&Edit here too"
    else:
        text = f"{path.name} may be open on {next(iter(others.values())).describe()}; this cannot be checked from here."
        more = (
            "If the annotator there is still working on it, open it read-only. If not (that computer "
            "crashed or was switched off), choose Edit: its unsaved work is then offered to you here."
        )
        edit_label = "&Edit"
    box = message_box(parent, Icon.Warning, "Log already open", text, Button.Cancel, informative=more)
    read_only = box.addButton("Open &read-only", Role.AcceptRole)
    edit = box.addButton(edit_label, Role.DestructiveRole)
    box.setDefaultButton(read_only)
    box.exec()
    if box.clickedButton() is read_only:
        return READ_ONLY, set()
    if box.clickedButton() is edit:
        return EDIT, set() if live else set(others)
    return None, set()


def tell_set_aside(parent: QWidget, lines: list[str]) -> None:
    message_box(parent, Icon.Warning, "Unreadable recovery journal", "\n".join(lines)).exec()
