"""One undoable step for every transcription a replace changed in the open log."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from annotator.analysis.replace import PlannedChange, apply_changes
from annotator.log.document import LogDocument


class ReplaceInLog(QUndoCommand):
    """Apply the chosen planned changes (checked against the log before it is pushed: check_plan)."""

    def __init__(self, document: LogDocument, changes: list[PlannedChange], find: str, replacement: str):
        super().__init__(
            f"Replace {find!r} with {replacement!r} in {len(changes)} transcription{'s' if len(changes) != 1 else ''}"
        )
        self.document, self.changes = document, changes

    def redo(self) -> None:
        apply_changes(self.document, self.changes)

    def undo(self) -> None:
        apply_changes(self.document, self.changes, undo=True)
