"""A document's annotations as the recovery journal sees them: values by position, how they
differ from the file, and putting journalled values back into a document, all or nothing.

A value is keyed by (session position, turn position), turn None standing for
the session's task completion, and carries the session and turn ids so that a
journal applied to a log whose positions moved still finds its turns by id.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from pathlib import Path

from annotator.errors import AnnotationError, AnnotationFileError
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.journal_entries import AnnotationEdits, JournalEntry, TaskCompletionEdit, TranscriptionEdit

Key = tuple[int, int | None]  # (session position, turn position); None: the session's task completion
Value = tuple[str, str | None, str | None]  # (session id, turn id, value)
_NONE: Value = ("", None, None)


def key_of(turn: Turn) -> Key:
    return turn.session.index, turn.index


# The last values read of each document, by its revision: the window's opener reads them on its
# worker thread, so that the journal made on the GUI thread for the new document finds them there.
_read: weakref.WeakKeyDictionary[LogDocument, tuple[int, dict[Key, Value]]] = weakref.WeakKeyDictionary()


def annotation_values(doc: LogDocument) -> dict[Key, Value]:
    """Every annotation of DOC by position (read once per open and save: linear in the log); a copy of
    the values read before when no annotation changed since."""
    revision, values = _read.get(doc, (None, None))
    if revision != doc.revision or values is None:
        values = _read_values(doc)
        _read[doc] = (doc.revision, values)
    return dict(values)


def _read_values(doc: LogDocument) -> dict[Key, Value]:
    values: dict[Key, Value] = {}
    for s, session in enumerate(doc.sessions):
        values[(s, None)] = (session.id, None, session.task_completion)
        for t, turn in enumerate(session.turns):
            values[(s, t)] = (session.id, turn.id, turn.transcription)
    return values


def difference(baseline: dict[Key, Value], values: dict[Key, Value]) -> AnnotationEdits:
    """The VALUES that differ from BASELINE (the file), in log order."""
    texts, tasks = [], []
    for (s, t), (session_id, turn_id, value) in sorted(values.items(), key=_in_log_order):
        was = baseline.get((s, t), _NONE)[2]
        if value == was:
            continue
        if t is None:
            tasks.append(TaskCompletionEdit(s, session_id, value, was))
        else:
            texts.append(TranscriptionEdit(s, session_id, t, turn_id, value, was))
    return AnnotationEdits(tuple(texts), tuple(tasks))


def would_change(baseline: dict[Key, Value], edits: AnnotationEdits) -> int:
    """How many EDITS would change the file BASELINE describes."""
    tasks = sum(baseline.get((e.session, None), _NONE)[2] != e.value for e in edits.task_completion)
    return tasks + sum(baseline.get((e.session, e.turn), _NONE)[2] != e.text for e in edits.transcriptions)


def changed_since(baseline: dict[Key, Value], edits: AnnotationEdits) -> int:
    """How many EDITS find the file (BASELINE) holding neither the value they were made against nor their own."""
    tasks = sum(baseline.get((e.session, None), _NONE)[2] not in (e.was, e.value) for e in edits.task_completion)
    return tasks + sum(baseline.get((e.session, e.turn), _NONE)[2] not in (e.was, e.text)
                       for e in edits.transcriptions)


@dataclass(frozen=True)
class RestoredValue:
    """One annotation a restore changed: set it again (redo) or put back what DOC held (undo)."""

    target: Turn | Session
    old: str | None
    new: str | None

    def apply(self) -> None:
        _set(self.target, self.new, restoring=True)

    def revert(self) -> None:
        _set(self.target, self.old, restoring=True)


def apply_entries(doc: LogDocument, entries: list[JournalEntry], where: Path) -> list[RestoredValue]:
    """Set the values of ENTRIES (oldest first) in DOC, all or nothing; the values changed, in log order.

    Every target is found before anything is set; raises AnnotationFileError naming WHERE
    (DOC unchanged) when an edit names a turn or session DOC lacks, or a value cannot be stored.
    """
    plan: list[tuple[Turn | Session, str | None]] = []
    missing: list[str] = []
    for entry in entries:
        for edit in entry.edits.task_completion:
            session = _find_session(doc, edit.session, edit.session_id)
            missing += [f"session {edit.session_id}"] if session is None else []
            plan += [(session, edit.value)] if session is not None else []
        for edit in entry.edits.transcriptions:
            turn = _find_turn(doc, edit)
            missing += [f"{edit.session_id} turn {edit.turn_id}"] if turn is None else []
            plan += [(turn, edit.text)] if turn is not None else []
    if missing:
        raise AnnotationFileError(f"{where}: the log has no {', '.join(missing[:5])}"
                                  f"{' and more' if len(missing) > 5 else ''}; nothing was restored")
    done: list[tuple[Turn | Session, str | None]] = []
    try:
        for target, value in plan:
            done.append((target, _get(target)))
            _set(target, value)
    except AnnotationError as error:  # journals are checked when read; this is the last line of defence
        for target, value in reversed(done):
            _set(target, value, restoring=True)  # what the log held, even a value the app would not offer
        raise AnnotationFileError(f"{where}: {error}; nothing was restored") from None
    first_old = dict(reversed(done))  # a target set twice keeps the value DOC held before the first
    return [RestoredValue(target, old, _get(target)) for target, old in first_old.items() if _get(target) != old]


def _in_log_order(item: tuple[Key, Value]) -> tuple[int, int]:
    (session, turn), _value = item
    return session, -1 if turn is None else turn


def _get(target: Turn | Session) -> str | None:
    return target.task_completion if isinstance(target, Session) else target.transcription


def _set(target: Turn | Session, value: str | None, restoring: bool = False) -> None:
    if isinstance(target, Session):
        set_task_completion(target, value, restoring=restoring)
    else:
        set_transcription(target, value)


def _find_session(doc: LogDocument, position: int, session_id: str) -> Session | None:
    """The session at POSITION if it has SESSION_ID, else the first with that id."""
    if 0 <= position < len(doc.sessions) and doc.sessions[position].id == session_id:
        return doc.sessions[position]
    return doc.session(session_id)


def _find_turn(doc: LogDocument, edit: TranscriptionEdit) -> Turn | None:
    session = _find_session(doc, edit.session, edit.session_id)
    if session is None:
        return None
    if 0 <= edit.turn < len(session.turns) and session.turns[edit.turn].id == edit.turn_id:
        return session.turns[edit.turn]
    return session.turn(edit.turn_id)
