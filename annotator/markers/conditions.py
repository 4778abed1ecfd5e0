"""Event conditions: what `action: X`, `intent: X`, `prompt: P`... mean on a Communicator session.

A session's events are its GC_OPERATION, GC_MESSAGE, GC_EVENT and GC_ANNOT
elements in document order. "Carries" means at any depth: the GC_DATA
inside an operation's frames and lists count.

Each condition kind turns the facts of one scan (facts.py) into a boolean
per event, True where its positive form applies; a negated condition
(`not_action`, `slot_was_not_set`...) is the complement, event by event,
exactly like Rasa's negated markers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import numpy as np

from annotator.log.text import clean_text
from annotator.markers.facts import FactNeeds, LogFacts, normalise_key
from annotator.user_patterns import PatternError, UserPattern

if TYPE_CHECKING:
    from annotator.markers.operators import EvaluationContext


class ConditionKind(Protocol):
    # Read-only: the kinds are frozen dataclasses.
    @property
    def tag(self) -> str: ...
    @property
    def negated_tag(self) -> str: ...
    @property
    def meaning(self) -> str: ...  # one line for the documentation and error messages
    @property
    def example(self) -> str: ...  # a YAML example

    def parse_value(self, raw: object, text: str) -> object:
        """The condition's value from the YAML scalar (constructed value, source text); ValueError if unfit."""

    def needs(self, value: object) -> FactNeeds: ...

    def positive(self, value: object, facts: LogFacts) -> np.ndarray: ...


def _mark(count: int, indices: list[int] | None) -> np.ndarray:
    values = np.zeros(count, dtype=bool)
    if indices:
        values[np.fromiter(indices, dtype=np.int64, count=len(indices))] = True
    return values


def _name_value(raw: object, text: str) -> str:
    """A name: any scalar but a YAML boolean or null (`intent: no` is False in YAML 1.1)."""
    if raw is None or raw == "":
        raise ValueError("needs a value")
    if isinstance(raw, bool):
        raise ValueError(f"expected a name, found the YAML boolean {text!r}; put it in quotes")
    if not isinstance(raw, (str, int, float)):
        raise ValueError(f"expected a name, found {type(raw).__name__}")
    return text.strip()


@dataclass(frozen=True)
class AttributeCondition:
    """Applies at events whose attribute (collected in facts.<family>) has the given value."""

    tag: str
    negated_tag: str
    family: str
    meaning: str
    example: str
    normalise: bool = False  # compare keys with or without their leading colon

    def parse_value(self, raw: object, text: str) -> str:
        value = _name_value(raw, text)
        return normalise_key(value) if self.normalise else value

    def needs(self, value: object) -> FactNeeds:
        wanted: dict[str, Any] = {self.family: True}  # the field named by FAMILY
        return FactNeeds(**wanted)

    def positive(self, value: object, facts: LogFacts) -> np.ndarray:
        return _mark(facts.count, getattr(facts, self.family).get(value))


@dataclass(frozen=True)
class FlagCondition:
    """error_message / help_message: carries system text marked type_error_msg / type_help_msg="true"."""

    tag: str
    negated_tag: str
    flag: str
    meaning: str
    example: str

    def parse_value(self, raw: object, text: str) -> bool:
        if raw is True or isinstance(raw, str) and raw.strip().lower() == "true":
            return True
        raise ValueError(f"only takes `true` (found {text!r}); write `not_{self.tag}: true` for the opposite")

    def needs(self, value: object) -> FactNeeds:
        return FactNeeds(flags=True)

    def positive(self, value: object, facts: LogFacts) -> np.ndarray:
        return _mark(facts.count, facts.flags.get(self.flag))


@dataclass(frozen=True)
class IntentCondition:
    tag: str = "intent"
    negated_tag: str = "not_intent"
    meaning: str = "an element of a user turn that carries GC_DATA of type concept whose first GC_FRAME is named X"
    example: str = "intent: flight_query"

    def parse_value(self, raw: object, text: str) -> str:
        return _name_value(raw, text)

    def needs(self, value: object) -> FactNeeds:
        return FactNeeds(concepts=True)

    def positive(self, value: object, facts: LogFacts) -> np.ndarray:
        hits = {index for index, frame in facts.concepts if frame == value}
        return _mark(facts.count, [index for index in sorted(hits) if facts.in_user_turn(index)])


@dataclass(frozen=True)
class SlotCondition:
    """Rasa's slot_was_set: true from an element that sets the key until one that clears it."""

    tag: str = "slot_was_set"
    negated_tag: str = "slot_was_not_set"
    meaning: str = (
        "every element from one that carries GC_DATA with key K and non-empty text "
        'until one that carries key K with empty text (the colon of ":K" is optional)'
    )
    example: str = "slot_was_set: destination"

    def parse_value(self, raw: object, text: str) -> str:
        return normalise_key(_name_value(raw, text))

    def needs(self, value: object) -> FactNeeds:
        return FactNeeds(slot_keys=frozenset([cast(str, value)]))  # made by parse_value

    def positive(self, value: object, facts: LogFacts) -> np.ndarray:
        count = facts.count
        state = np.full(count, -1, dtype=np.int8)  # -1 unknown, 0 cleared, 1 set
        for start in facts.session_starts:  # every session starts with the slot unset
            if start < count:
                state[start] = 0
        latest: dict[int, bool] = {}
        for index, is_set in facts.slots.get(cast(str, value), ()):  # made by parse_value
            latest[index] = is_set  # the last GC_DATA of the key in an element decides
        for index, is_set in latest.items():
            state[index] = is_set
        return _forward_fill(state) == 1


def _forward_fill(state: np.ndarray) -> np.ndarray:
    """Each -1 replaced by the last value >= 0 before it."""
    if not len(state):
        return state
    positions = np.where(state >= 0, np.arange(len(state)), 0)
    np.maximum.accumulate(positions, out=positions)
    return state[positions]


@dataclass(frozen=True)
class TextCondition:
    tag: str = "text_matches"
    negated_tag: str = "not_text_matches"
    meaning: str = (
        "carries recognizer, system or transcription text (type_utt_text asr / system / "
        "transcription, type text_input / text_output, or a GC_ANNOT's :transcription) "
        "in which the regular expression is found (re.search, whitespace collapsed; a pattern "
        "still matching one text after a second is refused)"
    )
    example: str = 'text_matches: "(?i)\\\\bhelp\\\\b"'

    def parse_value(self, raw: object, text: str) -> UserPattern:
        if not isinstance(raw, str) or not raw:
            raise ValueError(f"expected a regular expression in quotes, found {text!r}")
        try:
            return UserPattern(raw)
        except PatternError as error:
            raise ValueError(str(error).replace("bad regular", "invalid regular", 1)) from None

    def needs(self, value: object) -> FactNeeds:
        return FactNeeds(texts=True)

    def positive(self, value: object, facts: LogFacts) -> np.ndarray:
        search = cast(UserPattern, value).search  # made by parse_value
        return _mark(facts.count, [index for index, text in facts.texts if search(clean_text(text))])


CONDITION_KINDS: tuple[ConditionKind, ...] = (
    AttributeCondition(
        "action", "not_action", "names", "a GC_OPERATION or GC_MESSAGE named X", "action: query_flights"
    ),
    IntentCondition(),
    SlotCondition(),
    AttributeCondition(
        "server", "not_server", "servers", "a GC_OPERATION, GC_MESSAGE or GC_EVENT of server S", "server: recognizer"
    ),
    AttributeCondition("event", "not_event", "etypes", "a GC_EVENT of etype E", "event: LOCK"),
    AttributeCondition(
        "data_type",
        "not_data_type",
        "data_types",
        "an element that carries GC_DATA of type T",
        "data_type: audio_input",
    ),
    FlagCondition(
        "error_message",
        "not_error_message",
        "error",
        'an element that carries system text marked type_error_msg="true"',
        "error_message: true",
    ),
    FlagCondition(
        "help_message",
        "not_help_message",
        "help",
        'an element that carries system text marked type_help_msg="true"',
        "help_message: true",
    ),
    AttributeCondition(
        "prompt",
        "not_prompt",
        "prompts",
        'an element with type_prompt P (the colon of ":P" is optional)',
        "prompt: source",
        normalise=True,
    ),
    AttributeCondition(
        "task_completion",
        "not_task_completion",
        "completions",
        "a GC_ANNOT whose type_task_completion (or task_completion) is V",
        'task_completion: "1"',
    ),
    TextCondition(),
)

CONDITIONS_BY_TAG: dict[str, tuple[ConditionKind, bool]] = {}
for _kind in CONDITION_KINDS:
    CONDITIONS_BY_TAG[_kind.tag] = (_kind, False)
    CONDITIONS_BY_TAG[_kind.negated_tag] = (_kind, True)


@dataclass(frozen=True, eq=False)
class Condition:
    """A leaf of a marker: one condition kind with its value, possibly negated."""

    kind: ConditionKind
    value: object
    negated: bool = False
    source: str = ""  # the value as written, for display

    @property
    def tag(self) -> str:
        return self.kind.negated_tag if self.negated else self.kind.tag

    @property
    def key(self) -> tuple[str, object]:
        """Equal for conditions that have the same positive values (evaluated once per scan)."""
        value = self.value.source if isinstance(self.value, UserPattern) else self.value
        return self.kind.tag, value

    def needs(self) -> FactNeeds:
        return self.kind.needs(self.value)

    def conditions(self):
        yield self

    def evaluate(self, context: EvaluationContext) -> np.ndarray:
        values = context.positive(self)
        return ~values if self.negated else values

    def __str__(self) -> str:
        return f"({self.tag}: {self.source})"
