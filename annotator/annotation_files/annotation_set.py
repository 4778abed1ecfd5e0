"""The annotations of some sessions as a plain value, independent of any file format.

A session is named by a SessionRef: its id and, when several sessions share
the id, which of them (occurrence 1, 2, ...; annotator.log.turn_ids). A turn
is named by a TurnRef: its session, its turn key (the key that makes "-01"
and "-1" the same turn) and, when turns of the session share the key, which
of them. The turn id as written is kept beside them so that writers
reproduce it, but it takes no part in equality. Values are kept as written:
folding decides what it accepts. A turn's reference concepts (annotator.log.concepts)
are kept as Concepts, beside its transcription or alone; its flags, comment and time spent
(annotator.log.flags) as their stored texts by kind; a session's review as the reviewer's name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from annotator.errors import AnnotationError, AnnotationFileError
from annotator.log.concepts import Concepts
from annotator.log.flags import stored_note
from annotator.log.text import clean_text
from annotator.log.turn_ids import TurnKey, occurrences, strip_id, turn_key

if TYPE_CHECKING:
    from annotator.log.elements import Session


class SessionRef(NamedTuple):
    id: str
    occurrence: int | None = None  # which of the sessions with this id (from 1); None: the only one

    def __str__(self) -> str:
        return self.id if self.occurrence is None else f"{self.id} (session_occurrence {self.occurrence})"


class TurnRef(NamedTuple):
    session: SessionRef
    key: TurnKey
    occurrence: int | None = None  # which of the session's turns with this key (from 1); None: the only one


class AnnotationConflict(ValueError):
    """Two different values for the same turn or session (readers add file and row)."""


@dataclass
class AnnotationSet:
    transcriptions: dict[TurnRef, str] = field(default_factory=dict)
    task_completion: dict[SessionRef, str] = field(default_factory=dict)
    concepts: dict[TurnRef, Concepts] = field(default_factory=dict)
    turn_ids: dict[TurnRef, str] = field(default_factory=dict, compare=False, repr=False)
    notes: dict[TurnRef, dict[str, str]] = field(default_factory=dict)  # kind (TURN_NOTES) -> stored text
    reviewed: dict[SessionRef, str] = field(default_factory=dict)  # the reviewer ('' unknown)
    # (session id, a row's file cell as written, where the row is): which log the rows were written for
    named_logs: list[tuple[str, str, str]] = field(default_factory=list, compare=False, repr=False)

    def add_transcription(
        self,
        session_id: str,
        turn_id: str,
        text: str | None,
        *,
        session_occurrence: int | None = None,
        turn_occurrence: int | None = None,
    ) -> None:
        """Record a transcription; blank text means no annotation. Raises AnnotationConflict, ValueError."""
        text = clean_text(text)
        if not text:
            return
        ref = self._turn_ref(session_id, turn_id, session_occurrence, turn_occurrence, "a transcription")
        old = self.transcriptions.get(ref)
        if old is not None and old != text:
            raise AnnotationConflict(
                f"two transcriptions for {self.describe_turn(ref)}: {old[:30]!r} and {text[:30]!r}"
            )
        self.transcriptions[ref] = text

    def add_concepts(
        self,
        session_id: str,
        turn_id: str,
        concepts: Concepts | None,
        *,
        session_occurrence: int | None = None,
        turn_occurrence: int | None = None,
    ) -> None:
        """Record a turn's reference concepts; None means none. Raises AnnotationConflict, ValueError."""
        if concepts is None:
            return
        ref = self._turn_ref(session_id, turn_id, session_occurrence, turn_occurrence, "concepts")
        old = self.concepts.get(ref)
        if old is not None and old != concepts:
            raise AnnotationConflict(
                f"two concept frames for {self.describe_turn(ref)}: "
                f"{old.compact()[:30]!r} and {concepts.compact()[:30]!r}"
            )
        self.concepts[ref] = concepts

    def add_note(
        self,
        session_id: str,
        turn_id: str,
        kind: str,
        text: str | None,
        *,
        session_occurrence: int | None = None,
        turn_occurrence: int | None = None,
    ) -> None:
        """Record a turn's flags, comment or time spent (KIND, as the log stores it); blank means none.
        Raises AnnotationConflict, ValueError (an unknown flag, a time that is no number)."""
        text = clean_text(text)
        if not text:
            return
        try:
            text = stored_note(kind, text)
        except AnnotationError as error:
            raise ValueError(str(error)) from None
        if text is None:
            return
        ref = self._turn_ref(session_id, turn_id, session_occurrence, turn_occurrence, f"a {kind}")
        old = self.notes.get(ref, {}).get(kind)
        if old is not None and old != text:
            raise AnnotationConflict(f"two {kind} values for {self.describe_turn(ref)}: {old[:30]!r} and {text[:30]!r}")
        self.notes.setdefault(ref, {})[kind] = text

    def add_reviewed(self, session_id: str, reviewer: str | None, *, session_occurrence: int | None = None) -> None:
        """Record that a session was reviewed by REVIEWER ('' unknown; None: not reviewed). Raises AnnotationConflict."""
        if reviewer is None:
            return
        reviewer = clean_text(reviewer)
        ref = _session_ref(session_id, session_occurrence)
        old = self.reviewed.get(ref)
        if old is not None and old != reviewer:
            raise AnnotationConflict(f"two reviewers for session {ref}: {old!r} and {reviewer!r}")
        self.reviewed[ref] = reviewer

    def _turn_ref(
        self, session_id: str, turn_id: str, session_occurrence: int | None, turn_occurrence: int | None, what: str
    ) -> TurnRef:
        key = turn_key(turn_id)
        if key is None:
            raise ValueError(f"{what} without a turn id")
        ref = TurnRef(_session_ref(session_id, session_occurrence), key, turn_occurrence)
        self.turn_ids.setdefault(ref, strip_id(turn_id))
        return ref

    def add_task_completion(self, session_id: str, value: str | None, *, session_occurrence: int | None = None) -> None:
        """Record a session's task completion; blank means none. Raises AnnotationConflict, ValueError."""
        value = (value or "").strip()
        if not value:
            return
        ref = _session_ref(session_id, session_occurrence)
        old = self.task_completion.get(ref)
        if old is not None and old != value:
            raise AnnotationConflict(f"two task completion values for session {ref}: {old!r} and {value!r}")
        self.task_completion[ref] = value

    def turn_id(self, ref: TurnRef) -> str:
        """The turn id as it was written, else the key as text."""
        return self.turn_ids.get(ref) or str(ref.key)

    def describe_turn(self, ref: TurnRef) -> str:
        which = "" if ref.occurrence is None else f" (turn_occurrence {ref.occurrence})"
        return f"{ref.session} turn {self.turn_id(ref)}{which}"

    @property
    def session_refs(self) -> set[SessionRef]:
        return (
            set(self.task_completion)
            | set(self.reviewed)
            | {ref.session for ref in (*self.transcriptions, *self.concepts, *self.notes)}
        )

    def __len__(self) -> int:
        return (
            len(self.transcriptions)
            + len(self.task_completion)
            + len(self.concepts)
            + sum(map(len, self.notes.values()))
            + len(self.reviewed)
        )

    def in_order(self, sessions: Iterable[Session] = ()) -> list[tuple[SessionRef, Session | None, list[TurnRef]]]:
        """For writers: (session ref, its view or None, its annotated turns) for the sessions of
        SESSIONS in their order, then the other annotated sessions sorted; turns in log order, then by key."""
        views = session_refs_of(list(sessions))
        refs: dict[SessionRef, list[TurnRef]] = {}
        for turn_ref in dict.fromkeys((*self.transcriptions, *self.concepts, *self.notes)):
            refs.setdefault(turn_ref.session, []).append(turn_ref)
        others = sorted(self.session_refs - views.keys(), key=lambda ref: (ref.id, ref.occurrence or 0))
        result: list[tuple[SessionRef, Session | None, list[TurnRef]]] = []
        for ref in list(views) + others:
            view = views.get(ref) or (views.get(SessionRef(ref.id)) if ref.occurrence == 1 else None)
            result.append((ref, view, _turn_order(refs.get(ref, []), view)))
        return result

    @classmethod
    def merged(cls, sets: Iterable[AnnotationSet]) -> AnnotationSet:
        """One set holding all of SETS; two different values for one turn or session are an error."""
        result = cls()
        conflicts: list[str] = []

        def add(adding, *args, **occurrences) -> None:
            try:
                adding(*args, **occurrences)
            except AnnotationConflict as conflict:
                conflicts.append(str(conflict))

        for part in sets:

            def turn(ref: TurnRef, part: AnnotationSet = part) -> tuple[str, str]:
                return ref.session.id, part.turn_id(ref)

            def turn_occurrences(ref: TurnRef) -> dict:
                return {"session_occurrence": ref.session.occurrence, "turn_occurrence": ref.occurrence}

            for ref, value in part.transcriptions.items():
                add(result.add_transcription, *turn(ref), value, **turn_occurrences(ref))
            for ref, concepts in part.concepts.items():
                add(result.add_concepts, *turn(ref), concepts, **turn_occurrences(ref))
            for ref, notes in part.notes.items():
                for kind, text in notes.items():
                    add(result.add_note, *turn(ref), kind, text, **turn_occurrences(ref))
            for session_ref, value in part.task_completion.items():
                add(result.add_task_completion, session_ref.id, value, session_occurrence=session_ref.occurrence)
            for session_ref, reviewer in part.reviewed.items():
                add(result.add_reviewed, session_ref.id, reviewer, session_occurrence=session_ref.occurrence)
            result.named_logs += part.named_logs
        if conflicts:
            raise AnnotationFileError(f"the annotation files disagree: {'; '.join(conflicts)}")
        return result


def session_refs_of(sessions: list[Session]) -> dict[SessionRef, Session]:
    """The ref of each session (in order): its id, with its occurrence where the id repeats;
    a session without id cannot be named and is left out."""
    ids = [strip_id(session.id) or None for session in sessions]
    return {
        SessionRef(session_id, occurrence): session
        for session, session_id, occurrence in zip(sessions, ids, occurrences(ids))
        if session_id is not None
    }


def turn_refs_of(session_ref: SessionRef, session: Session) -> list[tuple[TurnRef, int]]:
    """(ref, index) of each turn of SESSION that has an id, in order; occurrences where keys repeat."""
    keys = [turn.key for turn in session.turns]
    return [
        (TurnRef(session_ref, key, occurrence), index)
        for index, (key, occurrence) in enumerate(zip(keys, occurrences(keys)))
        if key is not None
    ]


def _session_ref(raw: str | None, occurrence: int | None) -> SessionRef:
    session_id = strip_id(raw)
    if not session_id:
        raise ValueError("no session id")
    return SessionRef(session_id, occurrence)


def _turn_order(refs: list[TurnRef], session: Session | None) -> list[TurnRef]:
    """REFS in the order of their turns in SESSION (occurrence 1 of a key that does not repeat is that turn)."""
    position: dict[tuple[TurnKey, int | None], int] = {}
    if session is not None and refs:
        for ref, index in turn_refs_of(refs[0].session, session):
            position[ref.key, ref.occurrence] = index
            if ref.occurrence is None:
                position[ref.key, 1] = index
    last = len(session.turns) if session is not None else 0
    return sorted(
        refs, key=lambda ref: (position.get((ref.key, ref.occurrence), last), _sortable(ref.key), ref.occurrence or 0)
    )


def _sortable(key: TurnKey) -> tuple[int, int | str]:
    return (0, key) if isinstance(key, int) else (1, str(key))
