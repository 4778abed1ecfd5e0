"""One small undoable command per annotation edit; each calls the core's mutators only.

The core announces every change, so commands never touch widgets: the views
update themselves from DocumentController.annotation_changed (docs/events.md).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from PySide6.QtGui import QUndoCommand, QUndoStack

from annotator.journal.values import RestoredValue
from annotator.log.annotations import (
    TASK_COMPLETED,
    TASK_NOT_COMPLETED,
    set_concepts,
    set_task_completion,
    set_transcription,
)
from annotator.log.concepts import Concepts, reference_concepts
from annotator.log.elements import Session, Turn
from annotator.log.text import clean_text, without_non_xml

TASK_COMPLETION_TEXT = {
    TASK_COMPLETED: "Mark task completed",
    TASK_NOT_COMPLETED: "Mark task not completed",
    None: "Clear task completion",
}


Value = TypeVar("Value")


class SetValue(QUndoCommand, Generic[Value]):
    """An edit of one value through one core writer: redo writes NEW, undo writes OLD back. A subclass
    sets old and new when it is made and says how a value is written (write)."""

    old: Value
    new: Value

    @property
    def changes_anything(self) -> bool:
        return self.old != self.new

    def write(self, value: Value) -> None:
        raise NotImplementedError

    def redo(self) -> None:
        self.write(self.new)

    def undo(self) -> None:
        self.write(self.old)


class TranscribeTurn(SetValue[str | None]):
    """Set (or, with blank text, remove) a turn's transcription."""

    def __init__(self, turn: Turn, text: str | None):
        super().__init__()
        self.turn = turn
        self.old = turn.transcription
        storable, self.removed_characters = without_non_xml(text or "")  # pasted control characters
        self.new = clean_text(storable) or None
        verb = "Transcribe" if self.new is not None else "Clear transcription of"
        self.setText(f"{verb} turn {turn.id}")

    def write(self, value: str | None) -> None:
        set_transcription(self.turn, value)


class SetConcepts(SetValue[Concepts | None]):
    """Set (or, with None, remove) a turn's reference concepts; TEXT names the edit in Edit > Undo.

    Names and values are stored as they read back from the log: whitespace collapsed, and the
    control characters XML cannot store replaced by spaces (set_concepts would refuse them)."""

    def __init__(self, turn: Turn, concepts: Concepts | None, text: str):
        super().__init__(text)
        self.turn = turn
        self.old = reference_concepts(turn.facts())
        self.new = (
            None
            if concepts is None
            else Concepts(
                _storable(concepts.frame), tuple((_storable(path), _storable(value)) for path, value in concepts.slots)
            )
        )

    def write(self, value: Concepts | None) -> None:
        set_concepts(self.turn, value)


def _storable(text: str) -> str:
    return clean_text(without_non_xml(text)[0])


class SetTaskCompletion(SetValue[str | None]):
    """Set the session's type_task_completion to "1", "0" or nothing."""

    def __init__(self, session: Session, value: str | None):
        super().__init__()
        self.session = session
        self.old = session.task_completion
        self.new = value
        self.setText(TASK_COMPLETION_TEXT.get(value, f"Set task completion to {value}"))

    def write(self, value: str | None) -> None:
        set_task_completion(self.session, value)

    def undo(self) -> None:
        set_task_completion(self.session, self.old, restoring=True)  # the log's own value may be neither 1 nor 0


class RestoreWork(QUndoCommand):
    """The unsaved work a recovery journal gave back, as one step however many values it set.

    Made once the journal is applied (RecoveryJournal.restore sets all or nothing, and raises
    before the stack sees anything), so the redo that pushing runs has nothing left to do."""

    def __init__(self, values: list[RestoredValue]):
        super().__init__("Restore unsaved work")
        self.values = values
        self._applied = True

    def redo(self) -> None:
        if self._applied:
            self._applied = False
            return
        for value in self.values:
            value.apply()

    def undo(self) -> None:
        for value in reversed(self.values):
            value.revert()


def changed_place(command: QUndoCommand | None) -> tuple[Session | None, Turn | None]:
    """Where undoing or redoing COMMAND changes the log, to show it: (session, turn or None)."""
    if isinstance(command, (TranscribeTurn, SetConcepts)):
        return command.turn.session, command.turn
    if isinstance(command, SetTaskCompletion):
        return command.session, None
    if isinstance(command, RestoreWork) and command.values:
        target = command.values[0].target
        return (target, None) if isinstance(target, Session) else (target.session, target)
    return getattr(command, "place", (None, None))  # the commands of other modules say where they change


def removed_characters_note(count: int) -> str:
    return (
        f"{count} control character{'s' if count != 1 else ''} that XML cannot store "
        f"{'were' if count != 1 else 'was'} replaced by spaces"
    )


def push_if_changed(stack: QUndoStack, command: SetValue[Any]) -> bool:
    """Push COMMAND unless it would change nothing (so no empty undo steps and no false unsaved mark)."""
    if not command.changes_anything:
        return False
    stack.push(command)
    return True
