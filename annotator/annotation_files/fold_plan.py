"""Resolve every annotation to the one session or turn it names, or say why it cannot be folded.

A session is found by its id and, when several sessions of the logs share it,
by its occurrence (1 = the first of them, the logs taken in the order given);
an annotation that names a repeated id without its occurrence is ambiguous and
refused, never spread over all of them or given to the first. Turns the same
way, by key and turn occurrence inside their session. Every problem is
collected before anything changes, so folding is all or nothing; changes go
through annotator.log.annotations only, the sole writer of GC_ANNOT.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef
from annotator.errors import AnnotationFileError
from annotator.log.annotations import (
    set_comment,
    set_concepts,
    set_flags,
    set_reviewed,
    set_task_completion,
    set_time_spent,
    set_transcription,
    task_completion_problem,
)
from annotator.log.concepts import Concepts
from annotator.log.document import LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.turn_ids import TurnKey, strip_id

# Characters XML 1.0 cannot hold (lxml refuses them); checked before folding starts.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_PLACES_SHOWN = 5
_BAD_TASK_COMPLETION = "task completion not 1 (completed) or 0 (not completed)"
_AMBIGUOUS = {"session": "ambiguous session ids", "turn": "ambiguous turns"}
_UNKNOWN = {"session": "unknown session ids", "turn": "unknown turns"}
_NOUNS = {"session": "sessions", "turn": "GC_TURNs"}
_KINDS = (
    "unknown session ids",
    "ambiguous session ids",
    "unknown turns",
    "ambiguous turns",
    "two values for one place",
    "characters XML cannot hold in",
    _BAD_TASK_COMPLETION,
)


@dataclass
class FoldPlan:
    transcriptions: dict[Turn, str] = field(default_factory=dict)
    task_completion: dict[Session, str] = field(default_factory=dict)
    concepts: dict[Turn, Concepts] = field(default_factory=dict)
    notes: dict[tuple[Turn, str], str] = field(default_factory=dict)  # (turn, kind) -> stored text
    reviewed: dict[Session, str] = field(default_factory=dict)

    def apply(self) -> int:
        changes = sum(set_task_completion(session, value) for session, value in self.task_completion.items())
        changes += sum(set_transcription(turn, text) for turn, text in self.transcriptions.items())
        changes += sum(set_reviewed(session, reviewer) for session, reviewer in self.reviewed.items())
        changes += sum(_NOTE_SETTERS[kind](turn, text) for (turn, kind), text in self.notes.items())
        return changes + sum(set_concepts(turn, concepts) for turn, concepts in self.concepts.items())


_NOTE_SETTERS = {
    "flags": lambda turn, text: set_flags(turn, text.split()),
    "comment": set_comment,
    "time_spent": lambda turn, text: set_time_spent(turn, float(text)),
}


def plan_fold(docs: list[LogDocument], annotations: AnnotationSet) -> FoldPlan:
    """Where each annotation goes; raises AnnotationFileError naming every one that does not fit."""
    return _Planner(docs).plan(annotations)


class _Planner:
    def __init__(self, docs: list[LogDocument]):
        self.several_logs = len(docs) > 1
        self.sessions: dict[str, list[Session]] = {}
        for doc in docs:
            for session in doc.sessions:
                self.sessions.setdefault(strip_id(session.id), []).append(session)
        self._turns: dict[Session, dict[TurnKey | None, list[Turn]]] = {}  # None: turns without an id
        self.problems: dict[str, list[str]] = {}

    def plan(self, annotations: AnnotationSet) -> FoldPlan:
        plan = FoldPlan()
        for session_ref, value in annotations.task_completion.items():
            session = self._session(session_ref)
            if task_completion_problem(value) is not None:
                self._problem(_BAD_TASK_COMPLETION, f"{value!r} for session {session_ref}")
            if session is not None and self._agrees(plan.task_completion, session, value, f"session {session_ref}"):
                plan.task_completion[session] = value
        for ref, text in annotations.transcriptions.items():
            where = annotations.describe_turn(ref)
            if _NOT_XML.search(text):
                self._problem("characters XML cannot hold in", where)
            session = self._session(ref.session)
            turn = None if session is None else self._turn(session, ref, where)
            if turn is not None and self._agrees(plan.transcriptions, turn, text, where):
                plan.transcriptions[turn] = text
        for ref, concepts in annotations.concepts.items():
            where = annotations.describe_turn(ref)
            if any(_NOT_XML.search(text) for slot in ((concepts.frame, ""), *concepts.slots) for text in slot):
                self._problem("characters XML cannot hold in", f"the concepts of {where}")
            session = self._session(ref.session)
            turn = None if session is None else self._turn(session, ref, where)
            planned = plan.concepts.get(turn) if turn is not None else None
            if planned is not None and planned != concepts:
                self._problem(
                    "two values for one place", f"{where}: {planned.compact()[:30]!r} and {concepts.compact()[:30]!r}"
                )
            elif turn is not None:
                plan.concepts[turn] = concepts
        self._plan_notes(annotations, plan)
        if self.problems:
            raise AnnotationFileError(
                "; ".join(f"{kind}: {', '.join(self._items(kind))}" for kind in _KINDS if kind in self.problems)
                + "; nothing was folded"
            )
        return plan

    def _plan_notes(self, annotations: AnnotationSet, plan: FoldPlan) -> None:
        """The turns' flags, comments and times spent and the sessions' reviews (checked when read)."""
        for session_ref, reviewer in annotations.reviewed.items():
            session = self._session(session_ref)
            if _NOT_XML.search(reviewer):
                self._problem("characters XML cannot hold in", f"the reviewer of session {session_ref}")
            if session is not None and self._agrees(plan.reviewed, session, reviewer, f"session {session_ref}"):
                plan.reviewed[session] = reviewer
        for ref, notes in annotations.notes.items():
            where = annotations.describe_turn(ref)
            session = self._session(ref.session)
            turn = None if session is None else self._turn(session, ref, where)
            for kind, text in notes.items():
                if _NOT_XML.search(text):
                    self._problem("characters XML cannot hold in", f"the {kind} of {where}")
                if turn is not None:
                    plan.notes[turn, kind] = text

    def _items(self, kind: str) -> list[str]:
        items = list(dict.fromkeys(self.problems[kind]))
        return sorted(items) if kind == "unknown session ids" else items

    def _session(self, ref: SessionRef) -> Session | None:
        return self._one_of(self.sessions.get(ref.id, []), ref.occurrence, str(ref), "session")

    def _turn(self, session: Session, ref: TurnRef, where: str) -> Turn | None:
        by_key = self._turns.get(session)
        if by_key is None:
            by_key = self._turns[session] = {}
            for turn in session.turns:
                by_key.setdefault(turn.key, []).append(turn)
        return self._one_of(by_key.get(ref.key, []), ref.occurrence, where, "turn")

    def _one_of(self, candidates: list, occurrence: int | None, where: str, what: str):
        """The candidate OCCURRENCE names (the only one when it is None), or None and a problem."""
        if occurrence is None and len(candidates) > 1:
            self._problem(
                _AMBIGUOUS[what],
                f"{where} names {len(candidates)} {_NOUNS[what]} "
                f"({self._places(candidates)}), say which with {what}_occurrence 1 to {len(candidates)}",
            )
            return None
        index = (occurrence or 1) - 1
        if index >= len(candidates):
            self._problem(_UNKNOWN[what], where)
            return None
        return candidates[index]

    def _agrees(self, planned: dict, target: Session | Turn, value: str, where: str) -> bool:
        """False (and a problem) when another annotation already gave TARGET a different value."""
        old = planned.get(target)
        if old is not None and old != value:
            self._problem("two values for one place", f"{where}: {old[:30]!r} and {value[:30]!r}")
            return False
        return True

    def _places(self, views: list[Session] | list[Turn]) -> str:
        shown = [
            f"{view.session.document.path.name if isinstance(view, Turn) else view.document.path.name}:{view.line}"
            if self.several_logs
            else f"line {view.line}"
            for view in views[:_PLACES_SHOWN]
        ]
        return ", ".join(shown) + (" ..." if len(views) > _PLACES_SHOWN else "")

    def _problem(self, kind: str, item: str) -> None:
        self.problems.setdefault(kind, []).append(item)
