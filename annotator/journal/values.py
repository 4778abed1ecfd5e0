"""A document's annotations as the recovery journal sees them: values by position, how they
differ from the file, and putting journalled values back into a document, all or nothing.

A value is keyed by (session position, turn position), turn None standing for
the session's task completion, and carries the session and turn ids so that a
journal applied to a log whose positions moved still finds its turns by id. A turn's
reference concepts are keyed by (session position, turn position, CONCEPTS) and valued by
their compact form (annotator.log.concepts), so they travel like a transcription; a turn's flags,
comment and time spent likewise by (session position, turn position, kind) with their stored text,
and a session's review by (session position, None, REVIEWED) with the reviewer's name.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from annotator.errors import AnnotationError, AnnotationFileError
from annotator.journal.entries import (
    AnnotationEdits,
    ConceptsEdit,
    JournalEntry,
    NoteEdit,
    ReviewedEdit,
    TaskCompletionEdit,
    TranscriptionEdit,
)
from annotator.log import annotations as writer
from annotator.log.concepts import parse_compact, reference_concepts
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.flags import REVIEWED, TURN_NOTES, note_value, parse_flags, parse_seconds, session_reviewer

CONCEPTS = "concepts"
# (session position, turn position): a transcription; turn None: the session's task completion;
# (session position, turn position, CONCEPTS or a note kind): the turn's reference concepts or note;
# (session position, None, REVIEWED): the session's review.
Key = tuple[int, int | None] | tuple[int, int | None, str]
TurnPosition = tuple[int, int]  # (session position, turn position): the Key of a turn's transcription
Target = tuple[Turn | Session, str]  # what a value belongs to, and its kind
Value = tuple[str, str | None, str | None]  # (session id, turn id, value)
_NONE: Value = ("", None, None)


def key_of(turn: Turn) -> TurnPosition:
    return turn.session.index, turn.index


def concepts_key_of(turn: Turn) -> Key:
    return turn.session.index, turn.index, CONCEPTS


def change_key(change: AnnotationChange) -> Key:
    """Where the value a CHANGE announces is kept."""
    s, turn = change.session.index, change.turn
    if turn is None:
        return (s, None, REVIEWED) if change.kind == REVIEWED else (s, None)
    if change.kind == CONCEPTS or change.kind in TURN_NOTES:
        return s, turn.index, change.kind
    return key_of(turn)


def typing_key(turn: Turn, kind: str | None) -> Key:
    """Where typing of KIND in TURN is kept: None its transcription, CONCEPTS its reference concepts."""
    assert kind in (None, CONCEPTS), "typing is a transcription's or the concepts'"
    return key_of(turn) if kind is None else concepts_key_of(turn)


def stored_value(turn: Turn, kind: str | None) -> Value:
    """The value TURN holds now of KIND (see typing_key), as the journal keeps it."""
    return turn.session.id, turn.id, turn.transcription if kind is None else compact_concepts(turn)


def compact_concepts(turn: Turn) -> str | None:
    """The turn's reference concepts in their compact form, None when it has none."""
    concepts = reference_concepts(turn.facts())
    return None if concepts is None else concepts.compact()


# The last values read of each document, by its revision: a second journal of the same unchanged
# document (a leftover's comparison, a save's new baseline) reads them once.
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
    for _step in read_values_in_steps(doc, values):
        pass
    return values


def read_values_in_steps(doc: LogDocument, values: dict[Key, Value], turns_per_step: int = 100) -> Iterator[None]:
    """Put every annotation of DOC into VALUES, pausing (a yield) after each TURNS_PER_STEP turns and
    each session: a caller on the GUI thread reads a big log between events."""
    for s, session in enumerate(doc.sessions):
        values[(s, None)] = (session.id, None, session.task_completion)
        values[(s, None, REVIEWED)] = (session.id, None, session_reviewer(session.el))
        for t, turn in enumerate(session.turns):
            values[(s, t)] = (session.id, turn.id, turn.transcription)
            values[(s, t, CONCEPTS)] = (session.id, turn.id, compact_concepts(turn))
            noted = turn.facts().notes is not None
            for kind in TURN_NOTES:
                values[(s, t, kind)] = (session.id, turn.id, note_value(turn.facts(), kind) if noted else None)
            if t % turns_per_step == turns_per_step - 1:
                yield
        yield


def difference(baseline: dict[Key, Value], values: dict[Key, Value]) -> AnnotationEdits:
    """The VALUES that differ from BASELINE (the file), in log order."""
    texts, tasks, frames, notes, reviews = [], [], [], [], []
    for key, (session_id, turn_id, value) in sorted(values.items(), key=_in_log_order):
        was = baseline.get(key, _NONE)[2]
        if value == was:
            continue
        s, t, kind = key[0], key[1], key[2] if len(key) == 3 else None
        if t is None:
            (
                reviews.append(ReviewedEdit(s, session_id, value, was))
                if kind == REVIEWED
                else tasks.append(TaskCompletionEdit(s, session_id, value, was))
            )
            continue
        assert turn_id is not None, "a turn's value carries the turn's id"
        if kind == CONCEPTS:
            frames.append(ConceptsEdit(s, session_id, t, turn_id, value, was))
        elif kind is not None:
            notes.append(NoteEdit(s, session_id, t, turn_id, value, was, kind))
        else:
            texts.append(TranscriptionEdit(s, session_id, t, turn_id, value, was))
    return AnnotationEdits(tuple(texts), tuple(tasks), tuple(frames), tuple(notes), tuple(reviews))


def would_change(baseline: dict[Key, Value], edits: AnnotationEdits) -> int:
    """How many EDITS would change the file BASELINE describes."""
    tasks = sum(baseline.get(_session_key(e), _NONE)[2] != e.value for e in edits.task_completion + edits.reviewed)
    return tasks + sum(baseline.get(_edit_key(e), _NONE)[2] != e.text for e in _turn_edits(edits))


def changed_since(baseline: dict[Key, Value], edits: AnnotationEdits) -> int:
    """How many EDITS find the file (BASELINE) holding neither the value they were made against nor their own."""
    tasks = sum(
        baseline.get(_session_key(e), _NONE)[2] not in (e.was, e.value) for e in edits.task_completion + edits.reviewed
    )
    return tasks + sum(baseline.get(_edit_key(e), _NONE)[2] not in (e.was, e.text) for e in _turn_edits(edits))


def _turn_edits(edits: AnnotationEdits) -> tuple[TranscriptionEdit, ...]:
    return edits.transcriptions + edits.concepts + edits.notes


def _edit_key(edit: TranscriptionEdit) -> Key:
    return (
        (edit.session, edit.turn, _turn_kind(edit))
        if _turn_kind(edit) != "transcription"
        else (edit.session, edit.turn)
    )


def _turn_kind(edit: TranscriptionEdit) -> str:
    return CONCEPTS if isinstance(edit, ConceptsEdit) else edit.kind if isinstance(edit, NoteEdit) else "transcription"


def _session_key(edit: TaskCompletionEdit) -> Key:
    return (edit.session, None, REVIEWED) if isinstance(edit, ReviewedEdit) else (edit.session, None)


@dataclass(frozen=True)
class RestoredValue:
    """One annotation a restore changed: set it again (redo) or put back what DOC held (undo)."""

    target: Turn | Session
    old: str | None
    new: str | None
    kind: str = "transcription"  # or CONCEPTS (compact forms), a note kind, "task_completion" or REVIEWED

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
        for edit in entry.edits.task_completion + entry.edits.reviewed:
            session = _find_session(doc, edit.session, edit.session_id)
            kind = REVIEWED if isinstance(edit, ReviewedEdit) else "task_completion"
            missing += [f"session {edit.session_id}"] if session is None else []
            plan += [((session, kind), edit.value)] if session is not None else []
        for turn_edit in _turn_edits(entry.edits):
            turn = _find_turn(doc, turn_edit)
            kind = _turn_kind(turn_edit)
            missing += [f"{turn_edit.session_id} turn {turn_edit.turn_id}"] if turn is None else []
            plan += [((turn, kind), turn_edit.text)] if turn is not None else []
    if missing:
        raise AnnotationFileError(
            f"{where}: the log has no {', '.join(missing[:5])}"
            f"{' and more' if len(missing) > 5 else ''}; nothing was restored"
        )
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
    return [
        RestoredValue(target, old, _get((target, kind)), kind)
        for (target, kind), old in first_old.items()
        if _get((target, kind)) != old
    ]


def _in_log_order(item: tuple[Key, Value]) -> tuple[int, int, int]:
    key, _value = item
    return key[0], -1 if key[1] is None else key[1], len(key)


def _get(target: Target) -> str | None:
    element, kind = target
    if isinstance(element, Session):
        return session_reviewer(element.el) if kind == REVIEWED else element.task_completion
    if kind in TURN_NOTES:
        return note_value(element.facts(), kind)
    return compact_concepts(element) if kind == CONCEPTS else element.transcription


def _set(target: Target, value: str | None, restoring: bool = False) -> None:
    element, kind = target
    if isinstance(element, Session) and kind == REVIEWED:
        writer.set_reviewed(element, value)
    elif isinstance(element, Session):
        writer.set_task_completion(element, value, restoring=restoring)
    elif kind == "flags":
        writer.set_flags(element, parse_flags(value))
    elif kind == "comment":
        writer.set_comment(element, value)
    elif kind == "time_spent":
        writer.set_time_spent(element, parse_seconds(value) or None)
    elif kind == CONCEPTS:
        writer.set_concepts(element, parse_compact(value or ""))
    else:
        writer.set_transcription(element, value)


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


def with_typing(edits: AnnotationEdits, typed: Key | None) -> AnnotationEdits:
    """EDITS with TYPED (the place of the editor's typing not yet stored) marked, when one of its edits is there.
    Only a transcription's is marked, to come back as a draft in its editor; typing in a concept cell comes back as
    the turn's concepts, like any other unsaved value."""
    if typed is None or len(typed) != 2 or typed[1] is None:
        return edits
    place = (typed[0], typed[1])
    if any((edit.session, edit.turn) == place for edit in edits.transcriptions):
        return replace(edits, typing=place)
    return edits


def split_draft(doc: LogDocument, entries: list[JournalEntry]) -> tuple[list[JournalEntry], tuple[Turn, str] | None]:
    """ENTRIES (oldest first) without the typing that was not yet stored of the newest entry that has some, and that
    typing as (its turn in DOC, its text), None when a later entry stored that turn's value or there is none.

    One editor shows one draft: the typing of an older entry (another window that died too) is restored as that
    turn's value instead, unsaved like every restored value, so that nothing typed is lost."""
    typed = [
        (position, found) for position, entry in enumerate(entries) if (found := _typing_edit(doc, entry)) is not None
    ]
    drafted, (typing, turn) = typed[-1] if typed else (None, (None, None))
    kept: list[JournalEntry] = []
    draft: tuple[Turn, str] | None = None
    for position, entry in enumerate(entries):
        edits = replace(entry.edits, typing=None)
        if position == drafted:
            assert typing is not None and turn is not None and typing.text  # as _typing_edit found them
            draft = (turn, typing.text)
            edits = replace(edits, transcriptions=tuple(e for e in edits.transcriptions if e is not typing))
        elif draft is not None and any(
            (edit.session_id, edit.turn_id) == (draft[0].session.id, draft[0].id) for edit in edits.transcriptions
        ):
            draft = None  # stored later on
        kept.append(replace(entry, edits=edits))
    return kept, draft


def _typing_edit(doc: LogDocument, entry: JournalEntry) -> tuple[TranscriptionEdit, Turn] | None:
    """The edit of ENTRY's typing not yet stored and its turn in DOC, when it has one with text that DOC has."""
    if entry.edits.typing is None:
        return None
    typing = next(edit for edit in entry.edits.transcriptions if (edit.session, edit.turn) == entry.edits.typing)
    turn = _find_turn(doc, typing)
    return (typing, turn) if turn is not None and typing.text else None
