"""What Compare shows and records, without Qt: every annotator's work on the open log (their
`X-human-NAME.xml` files beside it), decided field by field by the adjudication rule, and where each
value of the document now comes from.

A field is a turn's transcription or concepts, or a session's task completion, that some annotator
gave. The annotators disagree on it when the rule (agreement.adjudication, the WER normalisation for
transcriptions) does not call it agreed. Its source, for the sidecar: `agreed` (the annotators'
common value, taken when saving unless the adjudicator changed it), `take:NAME` (the value of the
annotator taken with Alt+letter, still in the document), `edited` (changed otherwise since Compare
loaded) or `left` (a disagreement nobody resolved: the document keeps its value). A field no annotator
gave that the adjudicator changed since Compare loaded is recorded too, as `edited` with nobody's values:
Save adjudication writes it into the log like any other.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from annotator.agreement.adjudication import (
    AGREED,
    CONCEPTS,
    LEFT,
    TASK_COMPLETION,
    TRANSCRIPTION,
    Decision,
    Value,
    adjudicate,
    value_text,
)
from annotator.agreement.sources import AnnotatorWork, WorkSpec, gather, read_file_work
from annotator.annotation_files.annotation_set import SessionRef, TurnRef
from annotator.log.concepts import reference_concepts
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.text import normalize_words
from annotator.team.files import human_files_beside
from annotator.team.work import places_of

EDITED = "edited"
TAKE_PREFIX = "take:"
FieldKey = tuple[int, int | None, str]  # (session index, turn index or None for the session, field)


def load_works(log_path: Path) -> list[AnnotatorWork]:
    """Every annotator's work beside the log, in the order of their names; raises AnnotatorError for a file
    that cannot be read (naming it and the place)."""
    specs = [WorkSpec(name, (path,)) for name, path in human_files_beside(log_path).items()]
    return gather(specs, lambda paths: [read_file_work(path) for path in paths])


def current_value(document: LogDocument, key: FieldKey) -> Value | None:
    session_index, _turn_index, field = key
    session = document.sessions[session_index]
    if field == TASK_COMPLETION:
        return session.task_completion
    turn = field_turn(session, key)
    return turn.transcription if field == TRANSCRIPTION else reference_concepts(turn.facts())


def field_turn(session: Session, key: FieldKey) -> Turn:
    """The turn of SESSION whose field KEY is (a transcription or concepts: a turn's field names its turn)."""
    turn_index = key[1]
    assert turn_index is not None, "a session's field has no turn"
    return session.turns[turn_index]


def same_value(field: str, one: Value | None, other: Value | None) -> bool:
    """Equal as the rule compares them: transcriptions after the WER normalisation, the rest as they are."""
    if field == TRANSCRIPTION and one is not None and other is not None:
        return normalize_words(value_text(one)) == normalize_words(value_text(other))
    return one == other


class Comparison:
    """The annotators' work on one open document, and the adjudicator's choices so far."""

    def __init__(self, document: LogDocument, works: list[AnnotatorWork]):
        self.document = document
        self.works = works
        self.names = [work.name for work in works]
        places = places_of(document)
        self.refs: dict[tuple[int, int | None], SessionRef | TurnRef] = {place: ref for ref, place in places.items()}
        self.decisions: dict[FieldKey, Decision] = {}
        for decision in adjudicate(works, None, document.sessions).decisions:
            place = places.get(decision.session if decision.turn is None else decision.turn)
            if place is not None:  # work on a session or turn this log lacks cannot be shown nor folded
                self.decisions[(*place, decision.field)] = decision
        self.initial = {key: current_value(document, key) for key in self.decisions}
        self.taken: dict[FieldKey, str] = {}
        # the fields no annotator gave that changed since loading, with their value then as text (concepts
        # compact): noted on each change, as reading every field of a large log when loading would be slow
        self.before_change: dict[FieldKey, str | None] = {}

    def fields_of(self, session: Session, turn: Turn | None) -> dict[str, Decision]:
        """The decided fields of TURN (None: of the session), by field name."""
        turn_index = None if turn is None else turn.index
        fields = (TASK_COMPLETION,) if turn is None else (TRANSCRIPTION, CONCEPTS)
        return {
            field: self.decisions[key]
            for field in fields
            if (key := (session.index, turn_index, field)) in self.decisions
        }

    def given(self, key: FieldKey) -> dict[str, Value]:
        decision = self.decisions.get(key)
        return dict(decision.given) if decision is not None else {}

    def disagrees(self, key: FieldKey) -> bool:
        decision = self.decisions.get(key)
        return decision is not None and decision.source != AGREED

    def note_change(self, change: AnnotationChange) -> None:
        """Keep the value before the first change of a field no annotator gave."""
        if change.kind not in (TRANSCRIPTION, CONCEPTS, TASK_COMPLETION):
            return
        key = (change.session.index, None if change.turn is None else change.turn.index, change.kind)
        if key not in self.decisions:
            self.before_change.setdefault(key, change.old)

    def note_taken(self, key: FieldKey, name: str) -> None:
        self.taken[key] = name

    def source(self, key: FieldKey) -> str:
        decision = self.decisions[key]
        field, now = key[2], current_value(self.document, key)
        name = self.taken.get(key)
        if name is not None and same_value(field, now, self.given(key).get(name)):
            return TAKE_PREFIX + name
        if decision.source == AGREED and same_value(field, now, decision.value):
            return AGREED
        if not same_value(field, now, self.initial[key]):
            return EDITED
        return AGREED if decision.source == AGREED else LEFT

    def agreed_to_take(self) -> list[tuple[FieldKey, Value | None]]:
        """The agreed values the document does not hold yet and nobody changed: taken when saving."""
        return [
            (key, decision.value)
            for key, decision in self.decisions.items()
            if self.source(key) == AGREED and not same_value(key[2], current_value(self.document, key), decision.value)
        ]

    def record(self) -> list[Decision]:
        """Every field some annotator gave, and every other field changed since Compare loaded, as the
        sidecar records it: the value the document holds and where it came from (no value for a field
        left), in log order."""
        recorded = []
        for key in sorted((*self.decisions, *self.before_change), key=_log_order):
            now = current_value(self.document, key)
            decision = self.decisions.get(key)
            if decision is not None:
                source = self.source(key)
            elif (None if now is None else value_text(now)) != self.before_change[key]:
                decision, source = self._given_by_nobody(key), EDITED
            else:
                continue  # changed, then changed back
            value = None if source == LEFT else now
            recorded.append(dataclasses.replace(decision, value=value, source=source))
        return recorded

    def _given_by_nobody(self, key: FieldKey) -> Decision:
        ref = self.refs[key[0], key[1]]
        if isinstance(ref, SessionRef):
            return Decision(ref, None, "", key[2], (), None, EDITED)
        turn_id = field_turn(self.document.sessions[key[0]], key).id
        return Decision(ref.session, ref, turn_id, key[2], (), None, EDITED)


def _log_order(key: FieldKey) -> tuple[int, float, int]:
    session_index, turn_index, field = key
    order = (TRANSCRIPTION, CONCEPTS, TASK_COMPLETION)
    return session_index, float("inf") if turn_index is None else turn_index, order.index(field)


@dataclass(frozen=True)
class Row:
    """One row of the Compare table: a user turn, or (TURN None) the session's task completion."""

    session: Session
    turn: Turn | None

    def keys(self) -> tuple[FieldKey, ...]:
        if self.turn is None:
            return ((self.session.index, None, TASK_COMPLETION),)
        return tuple((self.session.index, self.turn.index, field) for field in (TRANSCRIPTION, CONCEPTS))


def rows_of(session: Session) -> list[Row]:
    """The user turns of SESSION in log order, then its task completion."""
    return [Row(session, turn) for turn in session.user_turns] + [Row(session, None)]
