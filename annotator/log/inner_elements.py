"""The wrappers of single elements of a Communicator log: the base every wrapper shares
(attributes, line, times in seconds, GC_DATA below it) and the wrappers of what sessions
and turns hold: operations, messages, events, annotations, GC_DATA, frames and lists.

Each wraps one lxml element and holds no copy of its data (see annotator.log.elements,
which adds the session and turn wrappers and through which the others are imported).
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml import etree

from annotator.log.text import clean_text
from annotator.log.times import TimeUnit, parse_number
from annotator.log.turn_facts import ACTIVITY_TAGS, transcription_data
from annotator.log.turn_ids import TurnKey, turn_key
from annotator.reading.attributes import attributes_of
from annotator.reading.lxml_types import attribute_dict, source_line


class ElementView:
    __slots__ = ("el", "unit")
    tag = ""

    def __init__(self, el: etree._Element, unit: TimeUnit):
        self.el = el
        self.unit = unit

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ElementView) and other.el is self.el

    def __hash__(self) -> int:
        return hash(self.el)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} line {self.line} {attribute_dict(self.el)}>"

    def get(self, name: str) -> str | None:
        return self.el.get(name)

    @property
    def line(self) -> int | None:
        return source_line(self.el)

    @property
    def attributes(self) -> dict[str, str]:
        return attributes_of(self.el)

    @property
    def turnid(self) -> str | None:
        return self.el.get("turnid")

    @property
    def turn_key(self) -> TurnKey | None:
        return turn_key(self.el.get("turnid"))

    def seconds(self, name: str) -> float | None:
        value = parse_number(self.el.get(name))
        return None if value is None else self.unit.to_seconds(value)

    @property
    def data(self) -> list[DataView]:
        return [DataView(child, self.unit) for child in self.el.iterchildren("GC_DATA")]

    def iter_all_data(self) -> Iterator[DataView]:
        """Every GC_DATA below this element, frames and lists included."""
        for child in self.el.iter("GC_DATA"):
            if child is not self.el:
                yield DataView(child, self.unit)


class TimedView(ElementView):
    """An element with stime and etime (session, turn, operation)."""

    __slots__ = ()

    @property
    def stime(self) -> float | None:
        return self.seconds("stime")

    @property
    def etime(self) -> float | None:
        return self.seconds("etime")

    @property
    def duration(self) -> float | None:
        # Subtract the raw numbers first: epoch seconds as floats lose the milliseconds' precision.
        start, end = parse_number(self.el.get("stime")), parse_number(self.el.get("etime"))
        return None if start is None or end is None else self.unit.to_seconds(end - start)


class PointView(ElementView):
    """An element with a single `time` (message, event): stime == etime."""

    __slots__ = ()

    @property
    def time(self) -> float | None:
        return self.seconds("time")

    stime = time
    etime = time

    @property
    def duration(self) -> float | None:
        return None if self.time is None else 0.0


class ActivityMixin:
    """What operations, messages and events share."""

    __slots__ = ()
    el: etree._Element  # an ElementView's, which every class using the mixin also is

    @property
    def name(self) -> str | None:
        return self.el.get("name")

    @property
    def server(self) -> str | None:
        return self.el.get("server")

    @property
    def location(self) -> str | None:
        return self.el.get("location")

    @property
    def tidx(self) -> str | None:
        return self.el.get("tidx")

    @property
    def types(self) -> list[str]:
        return (self.el.get("type") or "").split()


class OperationView(ActivityMixin, TimedView):
    __slots__ = ()
    tag = "GC_OPERATION"

    @property
    def is_virtual(self) -> bool:
        return any(t in ("recognition_duration", "synthesis_duration") for t in self.types)


class MessageView(ActivityMixin, PointView):
    __slots__ = ()
    tag = "GC_MESSAGE"

    @property
    def direction(self) -> str | None:
        return self.el.get("direction")


class EventView(ActivityMixin, PointView):
    __slots__ = ()
    tag = "GC_EVENT"

    @property
    def etype(self) -> str | None:
        return self.el.get("etype")


class AnnotationView(ElementView):
    __slots__ = ()
    tag = "GC_ANNOT"

    stime = etime = duration = property(lambda self: None)

    @property
    def task_completion(self) -> str | None:
        # The DTD's form; MITRE's human-annotation files write task_completion.
        value = self.el.get("type_task_completion")
        return value if value is not None else self.el.get("task_completion")

    def transcription_data(self) -> DataView | None:
        data = transcription_data(self.el)
        return None if data is None else DataView(data, self.unit)

    @property
    def transcription(self) -> str | None:
        data = self.transcription_data()
        return None if data is None else data.text


class DataView(ElementView):
    __slots__ = ()
    tag = "GC_DATA"

    @property
    def key(self) -> str | None:
        return self.el.get("key")

    @property
    def types(self) -> list[str]:
        return (self.el.get("type") or "").split()

    def has_type(self, name: str) -> bool:
        return name in self.types

    @property
    def mime_type(self) -> str | None:
        return self.el.get("mime_type")

    @property
    def text(self) -> str:
        """The element's own text (not that of nested frames or lists), whitespace collapsed."""
        return clean_text(self.el.text)

    @property
    def children(self) -> list[ElementView]:
        return [view_of(child, self.unit) for child in self.el if isinstance(child.tag, str)]

    @property
    def frames(self) -> list[FrameView]:
        return [FrameView(child, self.unit) for child in self.el.iterchildren("GC_FRAME")]


class FrameView(ElementView):
    __slots__ = ()
    tag = "GC_FRAME"

    @property
    def name(self) -> str | None:
        return self.el.get("name")


class ListView(ElementView):
    __slots__ = ()
    tag = "GC_LIST"

    @property
    def name(self) -> str | None:
        return self.el.get("name")


_VIEW_CLASSES = {
    cls.tag: cls for cls in (OperationView, MessageView, EventView, AnnotationView, DataView, FrameView, ListView)
}


def view_of(el: etree._Element, unit: TimeUnit) -> ElementView:
    """The view class that fits an element's tag (plain ElementView for unknown tags)."""
    return _VIEW_CLASSES.get(el.tag, ElementView)(el, unit)


def iter_activities(el: etree._Element, unit: TimeUnit) -> Iterator[ElementView]:
    """Operations, messages and events directly under EL, in document order."""
    for child in el.iterchildren(*ACTIVITY_TAGS):
        yield _VIEW_CLASSES[child.tag](child, unit)
