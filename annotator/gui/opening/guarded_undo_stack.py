"""The undo stack of the open log, which refuses every edit while the log is open read-only."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack


class GuardedUndoStack(QUndoStack):
    """The undo stack of the open log; refuses every edit while the log is open read-only."""

    refused = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.read_only = False

    def push(self, command: QUndoCommand) -> None:
        if self.read_only:
            self.refused.emit()
            return
        super().push(command)
