"""Adjudication: one value per turn and session out of several annotators' work (docs/agreement.md).

For each turn (its transcription, and its concepts when any annotator gave them) and each session
(its task completion), the values of the annotators who gave one are compared: transcriptions after
the WER normalisation (annotator.log.text.normalize_words), concepts and task completion as they are.
When they are all equal the value is "agreed" and taken (the first annotator's, in the order the
annotators were given). Otherwise the rule decides: PREFER takes that annotator's value when they
gave one; the majority rule takes the value more than half of those who gave one agree on. Anything
else is left for a person. Turns and sessions pair as in `annotator agree` (SessionRef, TurnRef).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from annotator.agreement.sources import AnnotatorWork
from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef
from annotator.log.concepts import Concepts
from annotator.log.text import normalize_words

if TYPE_CHECKING:
    from annotator.log.elements import Session

TRANSCRIPTION = "transcription"
CONCEPTS = "concepts"
TASK_COMPLETION = "task_completion"
AGREED = "agreed"
MAJORITY = "majority"
LEFT = "left"
PREFER_PREFIX = "prefer:"

Value = str | Concepts


@dataclass(frozen=True)
class Decision:
    """What was decided for one field of one turn (TURN None: of the session)."""

    session: SessionRef
    turn: TurnRef | None
    turn_id: str  # as written; "" for a session
    field: str
    given: tuple[tuple[str, Value], ...]  # (annotator, value) of those who gave one, in the annotators' order
    value: Value | None  # None when left for a person
    source: str  # agreed, prefer:NAME, majority or left

    @property
    def left(self) -> bool:
        return self.source == LEFT


@dataclass
class Adjudication:
    chosen: AnnotationSet  # the values to fold into the log
    decisions: list[Decision]  # every field some annotator gave, in log order

    @property
    def left(self) -> list[Decision]:
        return [decision for decision in self.decisions if decision.left]


def value_text(value: Value) -> str:
    return value.compact() if isinstance(value, Concepts) else value


def adjudicate(works: list[AnnotatorWork], prefer: str | None, sessions: list[Session]) -> Adjudication:
    """Decide every field the WORKS give: by PREFER's value, or (PREFER None) by strict majority.
    SESSIONS (the log's) order the decisions; fields of sessions it lacks come after, sorted."""
    turn_ids: dict[TurnRef, str] = {}
    for work in works:
        for ref in (*work.annotations.transcriptions, *work.annotations.concepts):
            turn_ids.setdefault(ref, work.annotations.turn_id(ref))
    chosen = AnnotationSet()
    decisions: list[Decision] = []
    for session, _view, turns in _all_refs(works, turn_ids).in_order(sessions):
        for turn in turns:
            for field, of, key in ((TRANSCRIPTION, _transcriptions, _words), (CONCEPTS, _concepts, _same)):
                decision = _decide(works, of, turn, key, prefer, session, turn, turn_ids[turn], field)
                if decision is not None:
                    decisions.append(decision)
                    _choose(chosen, decision)
        decision = _decide(works, _task_completion, session, _same, prefer, session, None, "", TASK_COMPLETION)
        if decision is not None:
            decisions.append(decision)
            _choose(chosen, decision)
    return Adjudication(chosen, decisions)


def _all_refs(works: list[AnnotatorWork], turn_ids: dict[TurnRef, str]) -> AnnotationSet:
    """A set naming every turn and session of WORKS (its values unused): for in_order."""
    turns = dict.fromkeys(turn_ids, "")
    sessions = dict.fromkeys((ref for work in works for ref in work.annotations.session_refs), "")
    return AnnotationSet(transcriptions=turns, task_completion=sessions, turn_ids=turn_ids)


def _transcriptions(work: AnnotatorWork) -> dict:
    return work.annotations.transcriptions


def _concepts(work: AnnotatorWork) -> dict:
    return work.annotations.concepts


def _task_completion(work: AnnotatorWork) -> dict:
    return work.annotations.task_completion


def _words(value: Value) -> Hashable:
    return tuple(normalize_words(value_text(value)))


def _same(value: Value) -> Hashable:
    return value


def _decide(
    works: list[AnnotatorWork],
    of: Callable[[AnnotatorWork], dict],
    ref: Hashable,
    key: Callable[[Value], Hashable],
    prefer: str | None,
    session: SessionRef,
    turn: TurnRef | None,
    turn_id: str,
    field: str,
) -> Decision | None:
    given = tuple((work.name, value) for work in works if (value := of(work).get(ref)) is not None)
    if not given:
        return None
    value, source = _rule(given, key, prefer)
    return Decision(session, turn, turn_id, field, given, value, source)


def _rule(
    given: tuple[tuple[str, Value], ...], key: Callable[[Value], Hashable], prefer: str | None
) -> tuple[Value | None, str]:
    counts: dict[Hashable, int] = {}
    first: dict[Hashable, Value] = {}
    for _name, value in given:
        counts[key(value)] = counts.get(key(value), 0) + 1
        first.setdefault(key(value), value)
    if len(counts) == 1:
        return given[0][1], AGREED
    if prefer is not None:
        preferred = dict(given).get(prefer)
        return (preferred, PREFER_PREFIX + prefer) if preferred is not None else (None, LEFT)
    top = max(counts, key=counts.__getitem__)
    if 2 * counts[top] > len(given):
        return first[top], MAJORITY
    return None, LEFT


def _choose(chosen: AnnotationSet, decision: Decision) -> None:
    if decision.value is None:
        return
    session = decision.session
    if decision.field == TASK_COMPLETION:
        assert isinstance(decision.value, str)  # a task completion is text
        chosen.add_task_completion(session.id, decision.value, session_occurrence=session.occurrence)
        return
    assert decision.turn is not None, "a turn's field has its turn"
    if decision.field == TRANSCRIPTION:
        assert isinstance(decision.value, str)  # a transcription is text
        chosen.add_transcription(
            session.id,
            decision.turn_id,
            decision.value,
            session_occurrence=session.occurrence,
            turn_occurrence=decision.turn.occurrence,
        )
    else:
        assert isinstance(decision.value, Concepts)  # the remaining field is the reference concepts
        chosen.add_concepts(
            session.id,
            decision.turn_id,
            decision.value,
            session_occurrence=session.occurrence,
            turn_occurrence=decision.turn.occurrence,
        )


def describe(decision: Decision) -> str:
    """One line for a person: where, and who gave what."""
    where = (
        f"{decision.session} task completion"
        if decision.turn is None
        else f"{decision.session} turn {decision.turn_id}"
    )
    if decision.field == CONCEPTS:
        where += " concepts"
    return f"{where}: " + " / ".join(f"{name} {value_text(value)!r}" for name, value in decision.given)
