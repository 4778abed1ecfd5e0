"""Operators combining conditions, with the semantics of Rasa's marker implementation.

Rasa evaluates a marker event by event: every sub-marker is updated first,
then the operator appends one boolean to its history. We compute the same
histories for all events of a log at once, as numpy arrays (one boolean per
event), with sessions evaluated separately (a session starts from scratch):

- `and` / `or`: all / any sub-markers apply at the event; `at_least_one_not`
  is the negated `and`.
- `not`: its single sub-marker does not apply at the event.
- `seq`: advances by at most one step per event (when the step it waits for
  applies there) and applies at the event where its last step applies, then
  starts over.
- `at_least_once`: applies from the first event where its sub-marker applies
  to the end of the session; `never` is its negation, so it applies from the
  session's first event until just before the sub-marker first applies.

A marker is reported at every event where it applies, except markers whose
top operator is `at_least_once` or `never`: those are reported at the first
such event of the session only (Rasa's OccurrenceMarker.relevant_events).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

if TYPE_CHECKING:
    from annotator.markers.conditions import Condition


class EvaluationContext:
    """The events of one log: how many, where each session starts, and the conditions' positive values."""

    def __init__(self, count: int, session_starts: Sequence[int], compute: Callable[[Condition], np.ndarray]):
        self.count = count
        self.session_starts = np.asarray(session_starts, dtype=np.int64)
        self._compute = compute
        self._cache: dict[tuple, np.ndarray] = {}

    def positive(self, condition: Condition) -> np.ndarray:
        """Where the condition's positive form applies; computed once per distinct condition."""
        key = condition.key
        values = self._cache.get(key)
        if values is None:
            values = self._compute(condition)
            values.flags.writeable = False  # shared between markers
            self._cache[key] = values
        return values

    def session_of(self, positions: np.ndarray) -> np.ndarray:
        """The session index of each event position (empty sessions own no position)."""
        return np.searchsorted(self.session_starts, positions, side="right") - 1


class Operator:
    tag: ClassVar[str]
    negated_tag: ClassVar[str | None] = None
    arity: ClassVar[int | None] = None  # the exact number of sub-markers, when fixed

    def __init__(self, children: Sequence[Condition | Operator], negated: bool = False):
        self.children = tuple(children)
        self.negated = negated
        if self.arity is not None and len(children) != self.arity:
            raise ValueError(f"{self.display_tag} takes exactly {self.arity} sub-marker(s), found {len(children)}")
        if not children:
            raise ValueError(f"{self.display_tag} needs at least one sub-marker")

    @property
    def display_tag(self) -> str:
        return self.negated_tag if self.negated and self.negated_tag else ("not " if self.negated else "") + self.tag

    def __str__(self) -> str:
        return f"{self.display_tag}({', '.join(map(str, self.children))})"

    def conditions(self) -> Iterator[Condition]:
        for child in self.children:
            yield from child.conditions()

    def evaluate(self, context: EvaluationContext) -> np.ndarray:
        values = self._positive([child.evaluate(context) for child in self.children], context)
        return ~values if self.negated else values

    def _positive(self, children: list[np.ndarray], context: EvaluationContext) -> np.ndarray:
        raise NotImplementedError

    def reported(self, values: np.ndarray, context: EvaluationContext) -> np.ndarray:
        """Event positions at which the marker is reported, given its values."""
        return np.flatnonzero(values)


class And(Operator):
    tag = "and"
    negated_tag = "at_least_one_not"

    def _positive(self, children, context):
        return functools.reduce(np.logical_and, children)


class Or(Operator):
    tag = "or"

    def _positive(self, children, context):
        return functools.reduce(np.logical_or, children)


class Not(Operator):
    tag = "not"
    arity = 1

    def _positive(self, children, context):
        return ~children[0]


class Seq(Operator):
    tag = "seq"

    def __str__(self) -> str:
        return f"{self.display_tag}({' -> '.join(map(str, self.children))})"

    def _positive(self, children, context):
        applied = np.zeros(context.count, dtype=bool)
        # Only events where some step applies can move the sequence on.
        candidates = np.flatnonzero(functools.reduce(np.logical_or, children))
        if not candidates.size:
            return applied
        steps = [child.tobytes() for child in children]  # one byte per event: fast indexing
        last = len(steps)
        progress, current_session, done = 0, -1, []
        for position, session in zip(candidates.tolist(), context.session_of(candidates).tolist()):
            if session != current_session:  # every session starts over
                current_session, progress = session, 0
            if steps[progress][position]:
                progress += 1
                if progress == last:
                    done.append(position)
                    progress = 0
        applied[done] = True
        return applied


class AtLeastOnce(Operator):
    tag = "at_least_once"
    negated_tag = "never"
    arity = 1

    def _positive(self, children, context):
        return ever_since(children[0], context)

    def reported(self, values, context):
        positions = np.flatnonzero(values)
        _, first = np.unique(context.session_of(positions), return_index=True)
        return positions[first]


def ever_since(values: np.ndarray, context: EvaluationContext) -> np.ndarray:
    """True from each session's first True of VALUES to the end of that session."""
    counts = np.cumsum(values, dtype=np.int64)
    starts = context.session_starts
    before = np.concatenate(([0], counts))[starts]  # Trues before each session's start
    lengths = np.diff(np.append(starts, context.count))
    return (counts - np.repeat(before, lengths)) > 0


OPERATOR_CLASSES: tuple[type[Operator], ...] = (And, Or, Not, Seq, AtLeastOnce)

OPERATORS_BY_TAG: dict[str, tuple[type[Operator], bool]] = {}
for _cls in OPERATOR_CLASSES:
    OPERATORS_BY_TAG[_cls.tag] = (_cls, False)
    if _cls.negated_tag:
        OPERATORS_BY_TAG[_cls.negated_tag] = (_cls, True)
