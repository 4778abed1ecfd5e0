"""A document's annotations as the recovery journal sees them: values by position, how they
differ from the file, and putting journalled values back into a document, all or nothing.

A value is keyed by (session position, turn position), turn None standing for
the session's task completion, and carries the session and turn ids so that a
journal applied to a log whose positions moved still finds its turns by id. A turn's
reference concepts are keyed by (session position, turn position, CONCEPTS) and valued by
their compact form (annotator.log.concepts), so they travel like a transcription.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from pathlib import Path

from annotator.errors import AnnotationError, AnnotationFileError
from annotator.log.annotations import set_concepts, set_task_completion, set_transcription
from annotator.log.concepts import parse_compact, reference_concepts
from annotator.log.document import LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.journal_entries import (
    AnnotationEdits,
    ConceptsEdit,
    JournalEntry,
    TaskCompletionEdit,
    TranscriptionEdit,
)

CONCEPTS = "concepts"
# (session position, turn position): a transcription; turn None: the session's task completion;
# (session position, turn position, CONCEPTS): the turn's reference concepts.
Key = tuple[int, int | None] | tuple[int, int, str]
Target = tuple[Turn | Session, str]  # what a value belongs to, and its kind
Value = tuple[str, str | None, str | None]  # (session id, turn id, value)
_NONE: Value = ("", None, None)


def key_of(turn: Turn) -> Key:
    return turn.session.index, turn.index


def concepts_key_of(turn: Turn) -> Key:
    return turn.session.index, turn.index, CONCEPTS


def compact_concepts(turn: Turn) -> str | None:
    """The turn's reference concepts in their compact form, None when it has none."""
    concepts = reference_concepts(turn.facts())
    return None if concepts is None else concepts.compact()


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
            values[(s, t, CONCEPTS)] = (session.id, turn.id, compact_concepts(turn))
    return values


def difference(baseline: dict[Key, Value], values: dict[Key, Value]) -> AnnotationEdits:
    """The VALUES that differ from BASELINE (the file), in log order."""
    texts, tasks, frames = [], [], []
    for key, (session_id, turn_id, value) in sorted(values.items(), key=_in_log_order):
        was = baseline.get(key, _NONE)[2]
        if value == was:
            continue
        s, t = key[0], key[1]
        if t is None:
            tasks.append(TaskCompletionEdit(s, session_id, value, was))
        elif len(key) == 3:
            frames.append(ConceptsEdit(s, session_id, t, turn_id, value, was))
        else:
            texts.append(TranscriptionEdit(s, session_id, t, turn_id, value, was))
    return AnnotationEdits(tuple(texts), tuple(tasks), tuple(frames))


def would_change(baseline: dict[Key, Value], edits: AnnotationEdits) -> int:
    """How many EDITS would change the file BASELINE describes."""
    tasks = sum(baseline.get((e.session, None), _NONE)[2] != e.value for e in edits.task_completion)
    return tasks + sum(baseline.get(_edit_key(e), _NONE)[2] != e.text for e in edits.transcriptions + edits.concepts)


def changed_since(baseline: dict[Key, Value], edits: AnnotationEdits) -> int:
    """How many EDITS find the file (BASELINE) holding neither the value they were made against nor their own."""
    tasks = sum(baseline.get((e.session, None), _NONE)[2] not in (e.was, e.value) for e in edits.task_completion)
    return tasks + sum(baseline.get(_edit_key(e), _NONE)[2] not in (e.was, e.text)
                       for e in edits.transcriptions + edits.concepts)


def _edit_key(edit: TranscriptionEdit) -> Key:
    return (edit.session, edit.turn, CONCEPTS) if isinstance(edit, ConceptsEdit) else (edit.session, edit.turn)


@dataclass(frozen=True)
class RestoredValue:
    """One annotation a restore changed: set it again (redo) or put back what DOC held (undo)."""

    target: Turn | Session
    old: str | None
    new: str | None
    kind: str = "transcription"  # or CONCEPTS (compact forms) or "task_completion"

    def apply(self) -> None:
        _set((self.target, self.kind), self.new, restoring=True)

    def revert(self) -> None:
        _set((self.target, self.kind), self.old, restoring=True)


def apply_entries(doc: LogDocument, entries: list[JournalEntry], where: Path) -> list[RestoredValue]:
    """Set the values of ENTRIES (oldest first) in DOC, all or nothing; the values changed, in log order.

    Every target is found before anything is set; raises AnnotationFileError naming WHERE
    (DOC unchanged) when an edit names a turn or session DOC lacks, or a value cannot be stored.
    """
    plan: list[tuple[Target, str | None]] = []
    missing: list[str] = []
    for entry in entries:
        for edit in entry.edits.task_completion:
            session = _find_session(doc, edit.session, edit.session_id)
            missing += [f"session {edit.session_id}"] if session is None else []
            plan += [((session, "task_completion"), edit.value)] if session is not None else []
        for edit in entry.edits.transcriptions + entry.edits.concepts:
            turn = _find_turn(doc, edit)
            kind = CONCEPTS if isinstance(edit, ConceptsEdit) else "transcription"
            missing += [f"{edit.session_id} turn {edit.turn_id}"] if turn is None else []
            plan += [((turn, kind), edit.text)] if turn is not None else []
    if missing:
        raise AnnotationFileError(f"{where}: the log has no {', '.join(missing[:5])}"
                                  f"{' and more' if len(missing) > 5 else ''}; nothing was restored")
    done: list[tuple[Target, str | None]] = []
    try:
        for target, value in plan:
            done.append((target, _get(target)))
            _set(target, value)
    except AnnotationError as error:  # journals are checked when read; this is the last line of defence
        for target, value in reversed(done):
            _set(target, value, restoring=True)  # what the log held, even a value the app would not offer
        raise AnnotationFileError(f"{where}: {error}; nothing was restored") from None
    first_old = dict(reversed(done))  # a target set twice keeps the value DOC held before the first
    return [RestoredValue(target, old, _get((target, kind)), kind)
            for (target, kind), old in first_old.items() if _get((target, kind)) != old]


def _in_log_order(item: tuple[Key, Value]) -> tuple[int, int, int]:
    key, _value = item
    return key[0], -1 if key[1] is None else key[1], len(key)


def _get(target: Target) -> str | None:
    element, kind = target
    if isinstance(element, Session):
        return element.task_completion
    return compact_concepts(element) if kind == CONCEPTS else element.transcription


def _set(target: Target, value: str | None, restoring: bool = False) -> None:
    element, kind = target
    if isinstance(element, Session):
        set_task_completion(element, value, restoring=restoring)
    elif kind == CONCEPTS:
        set_concepts(element, parse_compact(value or ""))
    else:
        set_transcription(element, value)


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
