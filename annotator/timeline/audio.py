"""The audio lane's segments: where each turn's audio was heard, and whether its file is there.

A turn's audio is what playback plays (the rules of annotator/log/turn_facts.py):
the first GC_DATA of type audio_input (the user's) and the first of type
audio_output (the system's) among the turn's activities, on an operation or a
message. Its segment is when that audio was heard:

1. the turn's utterance of that side, as the log marks it: from the first
   activity whose type_start_utt names the side to the first one from there
   whose type_end_utt names it (often the same element: record_utterance,
   play_audio);
2. else the span of the operation carrying the data (a recorder's operation);
3. else the turn's span (a message carries it, one point in time: the
   standard's filelog message naming the synthesised file).

So the system's audio covers play_audio, not the synthesizer's operation that
names the file while it makes it (a sliver before the audio is heard).

Files are resolved as playback resolves them (AudioResolver): a segment whose
file is missing, or whose path is refused (a folder, outside the log's folder),
keeps the path as written and the path looked for, to say which file is missing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from lxml import etree

from annotator.log.audio_refs import AudioResolver, Located
from annotator.log.text import clean_text
from annotator.log.times import parse_number
from annotator.log.turn_facts import ACTIVITY_TAGS, TurnFacts

SIDE_OF_DIRECTION = {"input": "user", "output": "system"}


class AudioSegment(NamedTuple):  # a tuple: a session of 30k turns makes as many, quickly
    """One side's audio of one turn: the payload of an audio lane bar."""

    turn_index: int | None  # None: the audio of an operation outside any turn (loose logs)
    side: str  # "user" (audio_input) or "system" (audio_output)
    carrier: etree._Element  # the GC_OPERATION or GC_MESSAGE holding the GC_DATA
    written: str  # the path as the log writes it
    folder: str  # the log's folder, which a relative path is read from
    located: Located

    @property
    def looked_for(self) -> str:
        """The written path resolved against the log's folder (where the file should be)."""
        return os.path.normpath(os.path.join(self.folder, self.written))

    @property
    def path(self) -> Path | None:
        """The file playback opens, or None."""
        return self.located.path

    @property
    def problem(self) -> str | None:
        return self.located.problem

    @property
    def refused(self) -> bool:
        return self.located.refused

    @property
    def file_name(self) -> str:
        return os.path.basename(self.written.strip().replace("\\", "/")) or self.written


class UtteranceMarks:
    """The activities of one turn carrying type_start_utt / type_end_utt, in document order."""

    __slots__ = ("marks",)

    def __init__(self) -> None:
        self.marks: list[tuple[etree._Element, str | None, str | None]] = []

    def add(self, el: etree._Element) -> None:
        self.marks.append((el, el.get("type_start_utt"), el.get("type_end_utt")))

    def span(self, side: str) -> tuple[float, float] | None:
        """Raw start and end of the side's first marked utterance, if it is timed."""
        for i, (el, start, _end) in enumerate(self.marks):
            if start != side:
                continue
            begin = _start_of(el)
            finish = next((_end_of(other) for other, _s, end in self.marks[i:] if end == side), None)
            if finish is None:
                finish = _end_of(el)  # no end marked: the start element's own span
            if begin is None or finish is None:
                return None
            return begin, max(begin, finish)
        return None


def _start_of(el: etree._Element) -> float | None:
    value = parse_number(el.get("stime"))
    return value if value is not None else parse_number(el.get("time") or el.get("etime"))


def _end_of(el: etree._Element) -> float | None:
    value = parse_number(el.get("etime"))
    return value if value is not None else parse_number(el.get("time") or el.get("stime"))


def carrier_of(data: etree._Element) -> etree._Element:
    """The operation or message a GC_DATA belongs to (the nearest one above it)."""
    el = data.getparent()
    while el is not None and el.tag not in ACTIVITY_TAGS:
        el = el.getparent()
    if el is not None:
        return el
    parent = data.getparent()
    assert parent is not None, "a GC_DATA of a log has a parent"
    return parent


class PlacedAudio(NamedTuple):
    """A segment and its raw times (the log's unit), before the lane converts them to seconds."""

    segment: AudioSegment
    start: float
    end: float


class AudioPlacer:
    """Makes the segments of a session's turns, resolving files with RESOLVER (of the log's folder)."""

    def __init__(self, resolver: AudioResolver):
        self.resolver = resolver
        self.folder = str(resolver.folder)

    def turn_audio(
        self, turn_index: int, facts: TurnFacts, marks: UtteranceMarks, turn_span: tuple[float, float] | None
    ) -> list[PlacedAudio]:
        placed = []
        for direction in ("input", "output"):
            data = facts.audio(direction)
            if data is None:
                continue
            side = SIDE_OF_DIRECTION[direction]
            carrier = carrier_of(data)
            span = marks.span(side) or _operation_span(carrier) or turn_span
            if span is not None:
                placed.append(PlacedAudio(self._segment(turn_index, side, carrier, data), *span))
        return placed

    def loose_audio(self, activity: etree._Element) -> list[PlacedAudio]:
        """Audio of an operation outside any turn (loose logs): drawn over the operation."""
        span = _operation_span(activity)
        if span is None:
            return []
        placed = []
        for data in activity.iterchildren("GC_DATA"):
            types = (data.get("type") or "").split()
            for direction, side in SIDE_OF_DIRECTION.items():
                if f"audio_{direction}" in types:
                    placed.append(PlacedAudio(self._segment(None, side, activity, data), *span))
        return placed

    def _segment(
        self, turn_index: int | None, side: str, carrier: etree._Element, data: etree._Element
    ) -> AudioSegment:
        written = clean_text(data.text)  # as playback reads it (DataView.text)
        return AudioSegment(turn_index, side, carrier, written, self.folder, self.resolver.locate(written))


def _operation_span(el: etree._Element) -> tuple[float, float] | None:
    if el.tag != "GC_OPERATION":
        return None
    start, end = parse_number(el.get("stime")), parse_number(el.get("etime"))
    if start is None and end is None:
        return None
    start = start if start is not None else end
    end = end if end is not None else start
    assert start is not None and end is not None  # one was known, and stands for the other
    return start, max(start, end)
