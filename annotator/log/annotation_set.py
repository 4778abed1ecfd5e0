"""The annotations of some sessions as a plain value, independent of any file format.

Transcriptions are keyed by (session id, turn key), the key that makes "-01"
and "-1" the same turn; the turn id as written is kept beside them so that
writers reproduce it, but it takes no part in equality.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from annotator.errors import AnnotationFileError
from annotator.log.text import clean_text
from annotator.log.turn_ids import TurnKey, turn_key

if TYPE_CHECKING:
    from annotator.log.views import Session

TurnRef = tuple[str, TurnKey]


class AnnotationConflict(ValueError):
    """Two different values for the same turn or session (readers add file and row)."""


@dataclass
class AnnotationSet:
    transcriptions: dict[TurnRef, str] = field(default_factory=dict)
    task_completion: dict[str, str] = field(default_factory=dict)
    turn_ids: dict[TurnRef, str] = field(default_factory=dict, compare=False, repr=False)

    def add_transcription(self, session_id: str, turn_id: str, text: str | None) -> None:
        """Record a transcription; blank text means no annotation. Raises AnnotationConflict, ValueError."""
        text = clean_text(text)
        if not text:
            return
        session_id = _session_id(session_id)
        key = turn_key(turn_id)
        if key is None:
            raise ValueError("a transcription without a turn id")
        ref = (session_id, key)
        old = self.transcriptions.get(ref)
        if old is not None and old != text:
            raise AnnotationConflict(f"two transcriptions for {self.describe_turn(ref)}: {old[:30]!r} and {text[:30]!r}")
        self.transcriptions[ref] = text
        self.turn_ids.setdefault(ref, turn_id.strip())

    def add_task_completion(self, session_id: str, value: str | None) -> None:
        """Record a session's task completion; blank means none. Raises AnnotationConflict, ValueError."""
        value = (value or "").strip()
        if not value:
            return
        session_id = _session_id(session_id)
        old = self.task_completion.get(session_id)
        if old is not None and old != value:
            raise AnnotationConflict(f"two task completion values for session {session_id}: {old!r} and {value!r}")
        self.task_completion[session_id] = value

    def turn_id(self, ref: TurnRef) -> str:
        """The turn id as it was written, else the key as text."""
        return self.turn_ids.get(ref) or str(ref[1])

    def describe_turn(self, ref: TurnRef) -> str:
        return f"{ref[0]} turn {self.turn_id(ref)}"

    @property
    def session_ids(self) -> set[str]:
        return set(self.task_completion) | {session_id for session_id, _ in self.transcriptions}

    def __len__(self) -> int:
        return len(self.transcriptions) + len(self.task_completion)

    def in_order(self, sessions: Iterable[Session] = ()) -> list[tuple[str, Session | None, list[TurnRef]]]:
        """For writers: (session id, its view or None, its transcribed turns) for the sessions of
        SESSIONS in their order, then the other annotated sessions sorted; turns in log order, then by key."""
        views: dict[str, Session] = {}
        for session in sessions:
            views.setdefault(session.id, session)
        refs: dict[str, list[TurnRef]] = {}
        for ref in self.transcriptions:
            refs.setdefault(ref[0], []).append(ref)
        ordered = list(views) + sorted(self.session_ids - views.keys())
        return [(session_id, views.get(session_id), _turn_order(refs.get(session_id, []), views.get(session_id)))
                for session_id in ordered]

    @classmethod
    def merged(cls, sets: Iterable[AnnotationSet]) -> AnnotationSet:
        """One set holding all of SETS; two different values for one turn or session are an error."""
        result = cls()
        conflicts: list[str] = []
        for part in sets:
            for ref, text in part.transcriptions.items():
                try:
                    result.add_transcription(ref[0], part.turn_id(ref), text)
                except AnnotationConflict as conflict:
                    conflicts.append(str(conflict))
            for session_id, value in part.task_completion.items():
                try:
                    result.add_task_completion(session_id, value)
                except AnnotationConflict as conflict:
                    conflicts.append(str(conflict))
        if conflicts:
            raise AnnotationFileError(f"the annotation files disagree: {'; '.join(conflicts)}")
        return result


def _session_id(raw: str | None) -> str:
    session_id = (raw or "").strip()
    if not session_id:
        raise ValueError("no session id")
    return session_id


def _turn_order(refs: list[TurnRef], session: Session | None) -> list[TurnRef]:
    position = {} if session is None else {turn.key: turn.index for turn in reversed(session.turns)}
    return sorted(refs, key=lambda ref: (position.get(ref[1], len(position)), _sortable(ref[1])))


def _sortable(key: TurnKey) -> tuple[int, int | str]:
    return (0, key) if isinstance(key, int) else (1, str(key))
