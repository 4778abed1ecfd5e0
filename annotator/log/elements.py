"""Read-only views over the elements of a Communicator log.

A view wraps one lxml element and answers questions about it in seconds and
plain strings; it holds no copy of the data, so the tree stays the single
source of truth and views never go stale. Views are cheap (slots, no work in
the constructor): make them freely, compare them by their element.

Here are the session and the turn, the structure of a dialogue; the wrappers of
single elements (operations, messages, events, annotations, GC_DATA, frames,
lists) are in annotator.log.inner_elements and are imported from here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from lxml import etree

from annotator.log.inner_elements import AnnotationView as AnnotationView
from annotator.log.inner_elements import DataView as DataView
from annotator.log.inner_elements import ElementView as ElementView
from annotator.log.inner_elements import EventView as EventView
from annotator.log.inner_elements import FrameView as FrameView
from annotator.log.inner_elements import ListView as ListView
from annotator.log.inner_elements import MessageView as MessageView
from annotator.log.inner_elements import OperationView as OperationView
from annotator.log.inner_elements import PointView as PointView
from annotator.log.inner_elements import TimedView as TimedView
from annotator.log.inner_elements import iter_activities
from annotator.log.inner_elements import view_of as view_of
from annotator.log.times import TimeUnit, parse_number
from annotator.log.turn_facts import ACTIVITY_TAGS as ACTIVITY_TAGS
from annotator.log.turn_facts import EVENT_TAGS, TurnFacts
from annotator.log.turn_facts import TRANSCRIPTION_KEY as TRANSCRIPTION_KEY
from annotator.log.turn_ids import TurnKey, turn_key

if TYPE_CHECKING:
    from annotator.log.document import LogDocument


class Turn(TimedView):
    __slots__ = ("session", "index")
    tag = "GC_TURN"

    def __init__(self, el: etree._Element, unit: TimeUnit, session: Session, index: int):
        super().__init__(el, unit)
        self.session = session
        self.index = index

    @property
    def id(self) -> str:
        return self.el.get("id") or ""

    @property
    def key(self) -> TurnKey | None:
        return turn_key(self.el.get("id"))

    @property
    def activities(self) -> list[ElementView]:
        return list(iter_activities(self.el, self.unit))

    @property
    def operations(self) -> list[OperationView]:
        return [OperationView(c, self.unit) for c in self.el.iterchildren("GC_OPERATION")]

    @property
    def messages(self) -> list[MessageView]:
        return [MessageView(c, self.unit) for c in self.el.iterchildren("GC_MESSAGE")]

    @property
    def events(self) -> list[EventView]:
        return [EventView(c, self.unit) for c in self.el.iterchildren("GC_EVENT")]

    @property
    def annotations(self) -> list[AnnotationView]:
        return [AnnotationView(c, self.unit) for c in self.el.iterchildren("GC_ANNOT")]

    def facts(self) -> TurnFacts:
        """Speaker, texts, audio data, transcription and counts, made once per change of the turn
        (annotator.log.facts_cache): shared, so read them, never change them."""
        return self.session.document.facts_cache.facts(self)

    @property
    def speaker(self) -> str | None:
        """'user' or 'system': type_new_turn, then type_start_utt, then what the turn carries."""
        return self.facts().speaker

    @property
    def asr_data(self) -> list[DataView]:
        return [DataView(el, self.unit) for el in self.facts().asr_data]

    @property
    def system_data(self) -> list[DataView]:
        return [DataView(el, self.unit) for el in self.facts().system_data]

    @property
    def asr_text(self) -> str | None:
        return self.facts().asr_text

    @property
    def system_text(self) -> str | None:
        return self.facts().system_text

    def transcription_annotation(self) -> AnnotationView | None:
        """The GC_ANNOT holding this turn's transcription: inside the turn, or at session level by turnid."""
        for annotation in self.annotations:
            if annotation.transcription_data() is not None:
                return annotation
        return self.session.session_level_transcription(self.key)

    @property
    def transcription(self) -> str | None:
        return self.facts().transcription

    def audio_data(self, direction: str) -> DataView | None:
        """The first GC_DATA of type audio_input or audio_output ('input' / 'output')."""
        if direction in ("input", "output"):
            el = self.facts().audio(direction)
            return None if el is None else DataView(el, self.unit)
        wanted = f"audio_{direction}"  # another direction: the same rule, for what it is worth
        for child in self.el.iterchildren(*ACTIVITY_TAGS):
            for data in child.iter("GC_DATA"):
                if wanted in (data.get("type") or "").split():
                    return DataView(data, self.unit)
        return None


class Session(TimedView):
    __slots__ = ("document", "index", "turns", "_turns_by_key")
    tag = "GC_SESSION"

    def __init__(self, el: etree._Element, unit: TimeUnit, document: LogDocument, index: int):
        super().__init__(el, unit)
        self.document = document
        self.index = index
        self.turns = [Turn(t, unit, self, i) for i, t in enumerate(el.iterchildren("GC_TURN"))]
        self._turns_by_key: dict[TurnKey | None, Turn] = {}  # None: the first turn without an id
        for turn in self.turns:
            self._turns_by_key.setdefault(turn.key, turn)

    @property
    def id(self) -> str:
        return self.el.get("id") or ""

    def turn(self, key: str | TurnKey | None) -> Turn | None:
        """The turn with this id, matching numeric ids numerically ("-01" == "-1")."""
        if isinstance(key, str):
            key = turn_key(key)
        return self._turns_by_key.get(key)

    @property
    def origin(self) -> float | None:
        """The session's zero in the log's own unit: its stime, else the earliest turn start.
        Views that show "seconds from session start" (table, timeline, playback cursor) share it."""
        start = parse_number(self.el.get("stime"))
        if start is not None:
            return start
        starts = [v for v in (parse_number(t.el.get("stime")) for t in self.turns) if v is not None]
        return min(starts) if starts else None

    def since_start(self, raw: str | float | None) -> float | None:
        """Seconds from the session's start to a time written in the log (attribute text or number)."""
        value = parse_number(raw) if isinstance(raw, str) or raw is None else raw
        origin = self.origin
        return None if value is None or origin is None else self.unit.to_seconds(value - origin)

    @property
    def annotations(self) -> list[AnnotationView]:
        return [AnnotationView(c, self.unit) for c in self.el.iterchildren("GC_ANNOT")]

    def session_level_transcription(self, key: TurnKey | None) -> AnnotationView | None:
        """The first session-level GC_ANNOT holding a transcription for the turn with KEY (indexed once
        per session and kept up to date by the facts cache: not a walk over the session's children)."""
        el = self.document.facts_cache.session_level_annotation(self, key)
        return None if el is None else AnnotationView(el, self.unit)

    def task_completion_annotation(self) -> AnnotationView | None:
        for annotation in self.annotations:
            if annotation.task_completion is not None:
                return annotation
        return None

    @property
    def task_completion(self) -> str | None:
        annotation = self.task_completion_annotation()
        return None if annotation is None else annotation.task_completion

    def iter_events(self) -> Iterator[ElementView]:
        """Operations, messages, events and annotations of the session in document order."""
        for el in self.el.iter(*EVENT_TAGS):
            yield view_of(el, self.unit)

    @property
    def user_turns(self) -> list[Turn]:
        return [t for t in self.turns if t.speaker == "user"]

    def turn_facts(self) -> list[TurnFacts]:
        """Turn.facts() of every turn, in order (shared: read them, never change them)."""
        return self.document.facts_cache.session_facts(self)
