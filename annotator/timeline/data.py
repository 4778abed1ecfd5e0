"""What the timeline draws, as arrays: turns, audio segments and one lane per server.

Qt-free. Built by iterating the session's lxml elements directly (a session
can hold 200k operations; a view object each would be slow and useless),
reading only the attributes needed to place them; names are read later, for
the few bars labelled or hovered. x is seconds from the session start; the
raw numbers are subtracted before the unit conversion, because epoch times as
floats would otherwise lose their milliseconds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import PurePath

import numpy as np
from lxml import etree

from annotator.log.times import NUMERAL_CHARACTERS, TimeUnit, parse_number
from annotator.log.views import ACTIVITY_TAGS, Session, Turn, view_of
from annotator.timeline.intervals import Intervals

AUDIO_LANE = "audio segments"  # not "audio": that is also the name of a hub server
NO_SERVER = "(no server)"

# Kinds of bars
OPERATION, VIRTUAL_OPERATION, AUDIO_INPUT, AUDIO_OUTPUT = 0, 1, 2, 3
# Kinds of ticks
MESSAGE, EVENT, MARKER = 0, 1, 2
# Kinds of turns
UNKNOWN_SPEAKER, SYSTEM_TURN, USER_TRANSCRIBED, USER_UNTRANSCRIBED = 0, 1, 2, 3

_VIRTUAL_TYPES = ("recognition_duration", "synthesis_duration")
_NOT_NUMERAL = re.compile(f"[^{re.escape(NUMERAL_CHARACTERS)}]")
# Operations sit in turns (the DTD) or, in loose logs, directly in the session; spelling
# the two paths out is several times faster than searching every descendant.
_AUDIO_TEST = "[contains(@type, 'audio_input') or contains(@type, 'audio_output')]"
_AUDIO_XPATH = f"GC_TURN/GC_OPERATION/GC_DATA{_AUDIO_TEST} | GC_OPERATION/GC_DATA{_AUDIO_TEST}"


def element_name(el: object) -> str:
    if isinstance(el, etree._Element):
        return el.get("name") or el.get("etype") or el.tag
    return str(el)


@dataclass(frozen=True, eq=False)
class Lane:
    name: str
    bars: Intervals = field(default_factory=Intervals.empty)  # payload: the lxml element
    ticks: Intervals = field(default_factory=Intervals.empty)  # payload: the lxml element or a marker object


@dataclass(frozen=True, eq=False)
class TimelineData:
    session: Session | None
    extent: float  # seconds from the session start to its last known time
    turns: Intervals  # payload: turn index; kinds: UNKNOWN_SPEAKER...; see restyle_turns
    lanes: list[Lane]  # the audio lane first (when there is audio), then servers by first appearance
    untimed: int = 0  # activities skipped because they carry no usable time

    @classmethod
    def empty(cls) -> TimelineData:
        return cls(None, 0.0, Intervals.empty(), [])

    @property
    def unit(self) -> TimeUnit:
        return self.session.unit if self.session is not None else TimeUnit.SECONDS

    def view_of(self, payload: object) -> object:
        """What element_clicked carries: a view for lxml elements, the object itself for markers."""
        if isinstance(payload, etree._Element):
            return view_of(payload, self.unit)
        return payload


class _RawLane:
    """Attribute strings as read, converted to numbers in bulk afterwards."""

    __slots__ = ("bar_els", "bar_starts", "bar_ends", "bar_types", "tick_els", "tick_times", "tick_kinds")

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, [])


def build_timeline(session: Session | None) -> TimelineData:
    if session is None:
        return TimelineData.empty()
    raw_lanes: dict[str, _RawLane] = {}
    for el in session.el.iter(*ACTIVITY_TAGS):
        get = el.get
        server = get("server") or NO_SERVER
        lane = raw_lanes.get(server)
        if lane is None:
            lane = raw_lanes[server] = _RawLane()
        if el.tag == "GC_OPERATION":
            lane.bar_els.append(el)
            lane.bar_starts.append(get("stime"))
            lane.bar_ends.append(get("etime"))
            lane.bar_types.append(get("type"))
        else:
            lane.tick_els.append(el)
            lane.tick_times.append(get("time"))
            lane.tick_kinds.append(MESSAGE if el.tag == "GC_MESSAGE" else EVENT)

    numbers = {name: _lane_numbers(raw) for name, raw in raw_lanes.items()}
    origin = session.origin
    if origin is None:
        found = [n[0].min() for n in numbers.values() if len(n[0])] + [n[2].min() for n in numbers.values() if len(n[2])]
        origin = float(min(found)) if found else 0.0
    unit = session.unit

    def seconds(raw) -> np.ndarray:
        return unit.to_seconds(np.asarray(raw, dtype=np.float64) - origin)

    lanes = []
    audio = _audio_lane(session, seconds)
    if len(audio.bars):
        lanes.append(audio)
    untimed = 0
    for name, raw in raw_lanes.items():
        starts, ends, times, kept_bars, kept_ticks = numbers[name]
        untimed += len(raw.bar_els) - len(kept_bars) + len(raw.tick_els) - len(kept_ticks)
        kinds = [VIRTUAL_OPERATION if _is_virtual(raw.bar_types[i]) else OPERATION for i in kept_bars]
        tick_kinds = [raw.tick_kinds[i] for i in kept_ticks]
        lanes.append(Lane(
            name,
            Intervals.build(seconds(starts), seconds(ends), [raw.bar_els[i] for i in kept_bars], kinds,
                            label_of=element_name),
            Intervals.build(seconds(times), seconds(times), [raw.tick_els[i] for i in kept_ticks], tick_kinds,
                            label_of=element_name),
        ))
    turns = _turn_intervals(session, seconds)
    bounds = [b for lane in lanes for b in (lane.bars.bounds(), lane.ticks.bounds())] + [turns.bounds()]
    extent = max([b[1] for b in bounds if b is not None] + [0.0])
    session_end = parse_number(session.get("etime"))
    if session_end is not None:
        extent = max(extent, float(unit.to_seconds(session_end - origin)))
    return TimelineData(session, extent, turns, lanes, untimed)


def _lane_numbers(raw: _RawLane) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int], list[int]]:
    """Raw start, end and tick times of a lane, dropping the untimed (an operation missing one end is a point)."""
    starts, ends = _floats(raw.bar_starts), _floats(raw.bar_ends)
    starts = np.where(np.isfinite(starts), starts, ends)
    ends = np.where(np.isfinite(ends), ends, starts)
    timed = np.isfinite(starts)
    times = _floats(raw.tick_times)
    timed_ticks = np.isfinite(times)
    return (starts[timed], ends[timed], times[timed_ticks],
            np.flatnonzero(timed).tolist(), np.flatnonzero(timed_ticks).tolist())


def _floats(texts: list[str | None]) -> np.ndarray:
    """Attribute strings as floats, NaN where absent or not a time (annotator.log.times.parse_number)."""
    present = [t for t in texts if t is not None]
    try:
        if _NOT_NUMERAL.search("".join(present)):
            raise ValueError("numpy would read more than decimal numerals (1e3, nan, 1_000)")
        values = np.array(["nan" if t is None else t for t in texts], dtype=np.float64)
    except ValueError:  # some value is not a numeral: one at a time
        values = np.array([np.nan if v is None else v for v in map(parse_number, texts)], dtype=np.float64)
    values[~np.isfinite(values)] = np.nan
    return values


def _is_virtual(types: str | None) -> bool:
    return types is not None and "_duration" in types and any(t in _VIRTUAL_TYPES for t in types.split())


def _audio_lane(session: Session, seconds) -> Lane:
    starts, ends, labels, elements, kinds = [], [], [], [], []
    for data in session.el.xpath(_AUDIO_XPATH):
        types = (data.get("type") or "").split()
        if "audio_input" in types:
            kind = AUDIO_INPUT
        elif "audio_output" in types:
            kind = AUDIO_OUTPUT
        else:
            continue  # "contains" also matched a longer type name
        operation = data.getparent()
        start, end = parse_number(operation.get("stime")), parse_number(operation.get("etime"))
        if start is None or end is None:
            continue
        starts.append(start)
        ends.append(end)
        # "user · file.wav": narrow segments show just "user" (see the lane item's label fitting)
        who = "user" if kind == AUDIO_INPUT else "system"
        labels.append(f"{who} · {_file_name(data.text) or operation.get('name') or 'audio'}")
        elements.append(operation)
        kinds.append(kind)
    return Lane(AUDIO_LANE, Intervals.build(seconds(starts), seconds(ends), elements, kinds, labels=labels))


def _file_name(text: str | None) -> str:
    return PurePath((text or "").strip().replace("\\", "/")).name


def _turn_intervals(session: Session, seconds) -> Intervals:
    starts, ends, indexes = [], [], []
    for turn in session.turns:
        span = _turn_span(turn)
        if span is None:
            continue
        starts.append(span[0])
        ends.append(span[1])
        indexes.append(turn.index)
    starts_s, ends_s = seconds(starts), seconds(ends)
    labels = [f"{session.turns[i].id} · {end - start:.1f} s" for i, start, end in zip(indexes, starts_s, ends_s)]
    turns = Intervals.build(starts_s, ends_s, indexes, labels=labels)
    restyle_turns(session, turns)
    return turns


def _turn_span(turn: Turn) -> tuple[float, float] | None:
    """The turn's own stime/etime, else the span of the times inside it."""
    start, end = parse_number(turn.get("stime")), parse_number(turn.get("etime"))
    if start is not None and end is not None:
        return start, end
    inner = [start, end]
    for el in turn.el.iter(*ACTIVITY_TAGS):
        inner += map(parse_number, (el.get("stime"), el.get("etime"), el.get("time")))
    inner = [v for v in inner if v is not None]
    return (min(inner), max(inner)) if inner else None


def restyle_turns(session: Session, turns: Intervals) -> None:
    """Recompute each turn's kind in place: speaker, and whether a user turn is transcribed."""
    transcribed_at_session_level = {
        a.turn_key for a in session.annotations if a.transcription_data() is not None
    }
    for position, index in enumerate(turns.payloads):
        turn = session.turns[index]
        speaker = turn.speaker
        if speaker == "system":
            kind = SYSTEM_TURN
        elif speaker == "user":
            # The same lookup as Turn.transcription_annotation, without rescanning the
            # session's annotations for every turn (quadratic on long sessions).
            own = any(a.transcription_data() is not None for a in turn.annotations)
            kind = USER_TRANSCRIBED if own or turn.key in transcribed_at_session_level else USER_UNTRANSCRIBED
        else:
            kind = UNKNOWN_SPEAKER
        turns.kinds[position] = kind
