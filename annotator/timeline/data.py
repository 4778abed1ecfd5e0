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

import numpy as np
from lxml import etree
from numpy.typing import ArrayLike, NDArray

from annotator.analysis.doubt import cached_session_doubts, doubt_step
from annotator.log.audio_refs import AudioResolver
from annotator.log.elements import ACTIVITY_TAGS, Session, Turn, view_of
from annotator.log.text import SHOWN_ID_CHARS, shorten
from annotator.log.times import NUMERAL_CHARACTERS, TimeUnit, parse_number
from annotator.timeline.audio import AudioPlacer, AudioSegment, PlacedAudio, UtteranceMarks
from annotator.timeline.intervals import Intervals

AUDIO_LANE = "audio segments"  # not "audio": that is also the name of a hub server
NO_SERVER = "(no server)"

# Kinds of bars
OPERATION, VIRTUAL_OPERATION, AUDIO_INPUT, AUDIO_OUTPUT, AUDIO_MISSING = 0, 1, 2, 3, 4
# Kinds of ticks
MESSAGE, EVENT, MARKER = 0, 1, 2
# Kinds of turns
UNKNOWN_SPEAKER, SYSTEM_TURN, USER_TRANSCRIBED, USER_UNTRANSCRIBED = 0, 1, 2, 3

VIRTUAL_TYPES = ("recognition_duration", "synthesis_duration")  # durations the log records, not calls
_NOT_NUMERAL = re.compile(f"[^{re.escape(NUMERAL_CHARACTERS)}]")


def element_name(el: object) -> str:
    if isinstance(el, etree._Element):
        return el.get("name") or el.get("etype") or el.tag
    return str(el)


@dataclass(frozen=True, eq=False)
class Lane:
    name: str
    bars: Intervals = field(default_factory=Intervals.empty)  # payload: the lxml element, or an AudioSegment
    ticks: Intervals = field(default_factory=Intervals.empty)  # payload: the lxml element or a marker object


@dataclass(frozen=True, eq=False)
class TimelineData:
    session: Session | None
    extent: float  # seconds from the session start to its last known time
    turns: Intervals  # payload: turn index; kinds: UNKNOWN_SPEAKER...; see restyle_turns
    lanes: list[Lane]  # the audio lane first (when there is audio), then servers by first appearance
    untimed: int = 0  # activities skipped because they carry no usable time
    speakers: list[str | None] = field(default_factory=list)  # by turn index: "user", "system" or None
    doubts: Intervals = field(default_factory=Intervals.empty)  # the user turns' spans; kinds: doubt_step

    @classmethod
    def empty(cls) -> TimelineData:
        return cls(None, 0.0, Intervals.empty(), [])

    @property
    def audio_lane(self) -> Lane | None:
        return self.lanes[0] if self.lanes and self.lanes[0].name == AUDIO_LANE else None

    @property
    def unit(self) -> TimeUnit:
        return self.session.unit if self.session is not None else TimeUnit.SECONDS

    def view_of(self, payload: object) -> object:
        """What element_clicked carries: a view for lxml elements (an audio segment's operation or
        message), the object itself for markers."""
        if isinstance(payload, AudioSegment):
            payload = payload.carrier
        if isinstance(payload, etree._Element):
            return view_of(payload, self.unit)
        return payload


class _RawLane:
    """Attribute strings as read, converted to numbers in bulk afterwards."""

    __slots__ = ("bar_els", "bar_starts", "bar_ends", "bar_types", "tick_els", "tick_times", "tick_kinds")
    bar_els: list[etree._Element]
    bar_starts: list[str | None]
    bar_ends: list[str | None]
    bar_types: list[str | None]
    tick_els: list[etree._Element]
    tick_times: list[str | None]
    tick_kinds: list[int]

    def __init__(self) -> None:
        for name in self.__slots__:
            setattr(self, name, [])


def build_timeline(session: Session | None, resolver: AudioResolver | None = None) -> TimelineData:
    """SESSION's lanes, turns and audio segments; RESOLVER finds the audio files (one of the log's folder whose
    walk is made already, such as the opening worker's; else one of its own)."""
    if session is None:
        return TimelineData.empty()
    raw_lanes: dict[str, _RawLane] = {}
    marked = []  # activities carrying type_start_utt / type_end_utt: where utterances were heard
    for el in session.el.iter(*ACTIVITY_TAGS):
        get = el.get
        if get("type_start_utt") is not None or get("type_end_utt") is not None:
            marked.append(el)
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

    # Per turn: its speaker and audio (the walk Turn.speaker does), its utterance marks, and
    # where its audio was heard.
    marks: dict[etree._Element, UtteranceMarks] = {}
    for el in marked:
        parent = el.getparent()
        assert parent is not None  # an activity below the session
        marks.setdefault(parent, UtteranceMarks()).add(el)
    placer = AudioPlacer(resolver or AudioResolver(session.document.folder))
    audio: list[PlacedAudio] = []
    speakers: list[str | None] = []
    turn_spans: list[tuple[int, float, float]] = []
    for turn in session.turns:
        facts = turn.facts()
        speakers.append(facts.speaker)
        span = _turn_span(turn)
        if span is not None:
            turn_spans.append((turn.index, *span))
        if facts.audio_input is not None or facts.audio_output is not None:
            audio += placer.turn_audio(turn.index, facts, marks.get(turn.el) or UtteranceMarks(), span)
    for operation in session.el.iterchildren("GC_OPERATION"):  # loose logs: operations right in the session
        audio += placer.loose_audio(operation)

    numbers = {name: _lane_numbers(raw) for name, raw in raw_lanes.items()}
    origin = session.origin
    if origin is None:
        found = [n[0].min() for n in numbers.values() if len(n[0])] + [
            n[2].min() for n in numbers.values() if len(n[2])
        ]
        origin = float(min(found)) if found else 0.0
    unit = session.unit

    def seconds(raw: ArrayLike) -> NDArray[np.float64]:
        return unit.to_seconds(np.asarray(raw, dtype=np.float64) - origin)

    lanes = []
    audio_lane = _audio_lane(audio, seconds)
    if len(audio_lane.bars):
        lanes.append(audio_lane)
    untimed = 0
    for name, raw in raw_lanes.items():
        starts, ends, times, kept_bars, kept_ticks = numbers[name]
        untimed += len(raw.bar_els) - len(kept_bars) + len(raw.tick_els) - len(kept_ticks)
        kinds = [VIRTUAL_OPERATION if _is_virtual(raw.bar_types[i]) else OPERATION for i in kept_bars]
        tick_kinds = [raw.tick_kinds[i] for i in kept_ticks]
        lanes.append(
            Lane(
                shorten(name, SHOWN_ID_CHARS),
                Intervals.build(
                    seconds(starts), seconds(ends), [raw.bar_els[i] for i in kept_bars], kinds, label_of=element_name
                ),
                Intervals.build(
                    seconds(times),
                    seconds(times),
                    [raw.tick_els[i] for i in kept_ticks],
                    tick_kinds,
                    label_of=element_name,
                ),
            )
        )
    turn_intervals = _turn_intervals(session, turn_spans, speakers, seconds)
    bounds = [b for lane in lanes for b in (lane.bars.bounds(), lane.ticks.bounds())] + [turn_intervals.bounds()]
    extent = max([b[1] for b in bounds if b is not None] + [0.0])
    session_end = parse_number(session.get("etime"))
    if session_end is not None:
        extent = max(extent, float(unit.to_seconds(session_end - origin)))
    return TimelineData(
        session, extent, turn_intervals, lanes, untimed, speakers, _doubt_intervals(session, turn_intervals)
    )


def _lane_numbers(raw: _RawLane) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[int], list[int]]:
    """Raw start, end and tick times of a lane, dropping the untimed (an operation missing one end is a point)."""
    starts, ends = _floats(raw.bar_starts), _floats(raw.bar_ends)
    starts = np.where(np.isfinite(starts), starts, ends)
    ends = np.where(np.isfinite(ends), ends, starts)
    timed = np.isfinite(starts)
    times = _floats(raw.tick_times)
    timed_ticks = np.isfinite(times)
    return (
        starts[timed],
        ends[timed],
        times[timed_ticks],
        np.flatnonzero(timed).tolist(),
        np.flatnonzero(timed_ticks).tolist(),
    )


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
    return types is not None and "_duration" in types and any(t in VIRTUAL_TYPES for t in types.split())


def _audio_lane(placed: list[PlacedAudio], seconds) -> Lane:
    segments = [p.segment for p in placed]
    kinds = [AUDIO_MISSING if s.path is None else AUDIO_INPUT if s.side == "user" else AUDIO_OUTPUT for s in segments]
    # "user · file.wav", "user missing · file.wav": narrow segments show what is before " · "
    # (see the lane item's label fitting)
    labels = [f"{s.side}{' missing' if s.path is None else ''} · {s.file_name or 'audio'}" for s in segments]
    return Lane(
        AUDIO_LANE,
        Intervals.build(
            seconds([p.start for p in placed]), seconds([p.end for p in placed]), segments, kinds, labels=labels
        ),
    )


def _turn_intervals(
    session: Session, spans: list[tuple[int, float, float]], speakers: list[str | None], seconds
) -> Intervals:
    indexes = [index for index, _, _ in spans]
    starts_s, ends_s = seconds([start for _, start, _ in spans]), seconds([end for _, _, end in spans])
    labels = [f"{session.turns[i].id} · {end - start:.1f} s" for i, start, end in zip(indexes, starts_s, ends_s)]
    turns = Intervals.build(starts_s, ends_s, indexes, labels=labels)
    restyle_turns(session, turns, speakers)
    return turns


def _doubt_intervals(session: Session, turns: Intervals) -> Intervals:
    """The spans of the turns that have a doubt score, each of the kind of its step on the ramp."""
    doubts = cached_session_doubts(session)
    kept = [position for position, index in enumerate(turns.payloads) if doubts[index] is not None]
    return Intervals.build(
        turns.starts[kept],
        turns.ends[kept],
        [turns.payloads[p] for p in kept],
        [doubt_step(doubts[turns.payloads[p]].score) for p in kept],
    )


def _turn_span(turn: Turn) -> tuple[float, float] | None:
    """The turn's own stime/etime, else the span of the times inside it."""
    start, end = parse_number(turn.get("stime")), parse_number(turn.get("etime"))
    if start is not None and end is not None:
        return start, end
    inner = [start, end]
    for el in turn.el.iter(*ACTIVITY_TAGS):
        inner += map(parse_number, (el.get("stime"), el.get("etime"), el.get("time")))
    known = [v for v in inner if v is not None]
    return (min(known), max(known)) if known else None


def restyle_turns(
    session: Session, turns: Intervals, speakers: list[str | None], positions: list[int] | None = None
) -> None:
    """Recompute in place the kind of each turn (or of those at POSITIONS in TURNS): its speaker
    (SPEAKERS, by turn index), and whether a user turn is transcribed (the turn's cached facts)."""
    for position in range(len(turns.payloads)) if positions is None else positions:
        index = turns.payloads[position]
        speaker = speakers[index]
        if speaker == "system":
            kind = SYSTEM_TURN
        elif speaker == "user":
            kind = USER_TRANSCRIBED if session.turns[index].transcription is not None else USER_UNTRANSCRIBED
        else:
            kind = UNKNOWN_SPEAKER
        turns.kinds[position] = kind
