"""One pass over a session's elements, gathering what the session metrics need.

The pass walks every GC_TURN's operations, messages and events in document
order, reading attributes straight off the lxml elements (no view objects in
the loop), and their GC_DATA at any depth. It keeps raw time numbers and
converts only differences to seconds, so epoch times lose no precision.
annotator.log.metrics turns the gathered facts into metric values.

Turns are collapsed here: consecutive GC_TURNs of the same side form one
turn for the metrics; GC_TURNs whose side is unknown are skipped over (they
neither form a turn nor separate two turns of the same side).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lxml import etree

from annotator.log.text import word_count
from annotator.log.times import parse_number
from annotator.log.views import ACTIVITY_TAGS, Session

RECOGNITION_VIRTUAL = "recognition_duration"
SYNTHESIS_VIRTUAL = "synthesis_duration"
PRESENTATION_VIRTUAL = ("presentation_duration", "output_presentation_duration")
VIRTUAL_TYPES = (RECOGNITION_VIRTUAL, SYNTHESIS_VIRTUAL) + PRESENTATION_VIRTUAL
PARSE_KEY = ":input_parse_successful"
PARSE_TYPE = "input_parse_successful"
PARSE_TRUE = ("true", "1", "yes")


@dataclass
class TurnGroup:
    """Consecutive GC_TURNs of one side: one turn for the metrics."""

    side: str
    turn_indices: list[int] = field(default_factory=list)
    first_system_start: float | None = None  # raw time of the group's first type_start_utt="system"
    last_system_end: float | None = None  # raw time of its last type_end_utt="system"


@dataclass
class Marker:
    """An element carrying type_start_task or type_end_task."""

    position: int  # among the session's activities, in document order, from 1
    turn_index: int
    value: str
    line: int | None
    raw_time: float | None  # stime for a start, etime for an end (time for messages and events)


@dataclass
class DurationSum:
    total: float = 0.0  # seconds
    count: int = 0
    untimed: int = 0  # matching elements without usable times

    def add(self, seconds: float | None) -> None:
        if seconds is None:
            self.untimed += 1
        else:
            self.total += seconds
            self.count += 1

    @property
    def found(self) -> int:
        return self.count + self.untimed


@dataclass
class SessionScan:
    """What one pass over a session found (times in seconds unless said otherwise)."""

    sides: list[str | None]
    groups: list[TurnGroup] = field(default_factory=list)
    group_of_turn: list[int | None] = field(default_factory=list)
    start_task: Marker | None = None  # the first one
    end_task: Marker | None = None  # the last one
    start_task_count: int = 0
    end_task_count: int = 0
    user_utterance_ends: int = 0
    latencies: list[tuple[int, float]] = field(default_factory=list)  # (turn index of the user end, seconds)
    system_utterance_starts: int = 0
    system_utterance_ends: int = 0
    system_utterances: list[float] = field(default_factory=list)
    prompts: int = 0
    reprompts: int = 0
    recognition_virtual: DurationSum = field(default_factory=DurationSum)
    synthesis_virtual: DurationSum = field(default_factory=DurationSum)
    presentation_virtual: DurationSum = field(default_factory=DurationSum)
    recognizer_operations: DurationSum = field(default_factory=DurationSum)
    synthesizer_operations: DurationSum = field(default_factory=DurationSum)
    system_data: int = 0  # GC_DATA with type_utt_text="system"
    system_words: int = 0
    system_words_at: list[tuple[int, int]] = field(default_factory=list)  # (activity position, words)
    error_messages: int = 0
    help_messages: int = 0
    parse_results: int = 0
    parse_successes: int = 0


def collapse(sides: list[str | None]) -> tuple[list[TurnGroup], list[int | None]]:
    """Group consecutive same-side turns; unknown sides are skipped over."""
    groups: list[TurnGroup] = []
    group_of_turn: list[int | None] = []
    for index, side in enumerate(sides):
        if side is None:
            group_of_turn.append(None)
            continue
        if not groups or groups[-1].side != side:
            groups.append(TurnGroup(side))
        groups[-1].turn_indices.append(index)
        group_of_turn.append(len(groups) - 1)
    return groups, group_of_turn


def scan_session(session: Session, sides: list[str | None]) -> SessionScan:
    """Walk SESSION once; SIDES[i] is the side of session.turns[i] (Turn.speaker)."""
    scan = SessionScan(sides)
    scan.groups, scan.group_of_turn = collapse(sides)
    _Walker(scan, session.unit.to_seconds).walk(session)
    return scan


def _times(el: etree._Element) -> tuple[float | None, float | None]:
    """Raw (start, end) of an element: stime/etime, or `time` for both on messages and events."""
    if el.tag == "GC_OPERATION":
        return parse_number(el.get("stime")), parse_number(el.get("etime"))
    time = parse_number(el.get("time"))
    return time, time


class _Walker:
    def __init__(self, scan: SessionScan, to_seconds):
        self.scan = scan
        self.to_seconds = to_seconds
        self.open_system_start: float | None = None  # raw stime of an unpaired type_start_utt="system"
        self.pending_user_ends: list[tuple[int, float | None]] = []  # (turn index, raw etime)
        self.last_prompt: str | None = None

    def seconds_between(self, start: float | None, end: float | None) -> float | None:
        return None if start is None or end is None else self.to_seconds(end - start)

    def walk(self, session: Session) -> None:
        position = 0
        for turn in session.turns:
            group_index = self.scan.group_of_turn[turn.index]
            group = None if group_index is None else self.scan.groups[group_index]
            for el in turn.el.iterchildren(*ACTIVITY_TAGS):
                position += 1
                self.activity(el, position, turn.index, group)

    def activity(self, el: etree._Element, position: int, turn_index: int, group: TurnGroup | None) -> None:
        scan = self.scan
        get = el.get
        start_task, end_task = get("type_start_task"), get("type_end_task")
        start_utt, end_utt = get("type_start_utt"), get("type_end_utt")
        if start_task is not None or end_task is not None or start_utt is not None or end_utt is not None:
            self.markers(el, position, turn_index, group, start_task, end_task, start_utt, end_utt)
        prompt = get("type_prompt")
        if prompt is not None and prompt.strip():
            prompt = prompt.strip()
            scan.prompts += 1
            scan.reprompts += prompt == self.last_prompt
            self.last_prompt = prompt
        if el.tag == "GC_OPERATION":
            self.operation(el)
        for data in el.iter("GC_DATA"):
            self.data(data, position)

    def markers(self, el, position, turn_index, group, start_task, end_task, start_utt, end_utt) -> None:
        scan = self.scan
        start, end = _times(el)
        if start_task is not None:
            scan.start_task_count += 1
            if scan.start_task is None:
                scan.start_task = Marker(position, turn_index, start_task.strip(), el.sourceline, start)
        if end_task is not None:
            scan.end_task_count += 1
            scan.end_task = Marker(position, turn_index, end_task.strip(), el.sourceline, end)
        # A start of the system answers every user end before it ("the NEXT element"), so it is
        # handled before this element's own end of a user utterance.
        if start_utt == "system":
            scan.system_utterance_starts += 1
            for user_turn, user_end in self.pending_user_ends:
                latency = self.seconds_between(user_end, start)
                if latency is not None:
                    scan.latencies.append((user_turn, latency))
            self.pending_user_ends.clear()
            # A second start before any end leaves the first utterance without an end: it is dropped.
            self.open_system_start = start
            if group is not None and group.first_system_start is None:
                group.first_system_start = start
        if end_utt == "system":
            scan.system_utterance_ends += 1
            duration = self.seconds_between(self.open_system_start, end)
            if duration is not None:
                scan.system_utterances.append(duration)
            self.open_system_start = None
            if group is not None and end is not None:
                group.last_system_end = end
        if end_utt == "user":
            scan.user_utterance_ends += 1
            self.pending_user_ends.append((turn_index, end))

    def operation(self, el: etree._Element) -> None:
        scan = self.scan
        types = el.get("type")
        if types and "_duration" in types:
            tokens = types.split()
            if any(t in VIRTUAL_TYPES for t in tokens):
                seconds = self.seconds_between(*_times(el))
                if RECOGNITION_VIRTUAL in tokens:
                    scan.recognition_virtual.add(seconds)
                if SYNTHESIS_VIRTUAL in tokens:
                    scan.synthesis_virtual.add(seconds)
                if any(t in PRESENTATION_VIRTUAL for t in tokens):
                    scan.presentation_virtual.add(seconds)
                return  # a virtual operation is no server's real work
        server = (el.get("server") or "").lower()
        if "recogni" in server:
            scan.recognizer_operations.add(self.seconds_between(*_times(el)))
        elif "synth" in server:
            scan.synthesizer_operations.add(self.seconds_between(*_times(el)))

    def data(self, data: etree._Element, position: int) -> None:
        scan = self.scan
        get = data.get
        if get("type_utt_text") == "system":
            words = word_count(data.text)
            scan.system_data += 1
            scan.system_words += words
            scan.system_words_at.append((position, words))
            scan.error_messages += _is_true(get("type_error_msg"))
            scan.help_messages += _is_true(get("type_help_msg"))
        types = get("type")
        if get("key") == PARSE_KEY or (types and PARSE_TYPE in types.split()):
            scan.parse_results += 1
            scan.parse_successes += (data.text or "").strip().lower() in PARSE_TRUE


def _is_true(value: str | None) -> bool:
    return value is not None and value.strip().lower() == "true"


def transcriptions_by_turn(session: Session) -> dict[int, str]:
    """Turn index -> the turn's transcription, as Turn.transcription finds it (an annotation in the
    turn first, then a session-level one with the turn's id), but with the session-level
    annotations indexed once instead of searched for every turn."""
    session_level: dict = {}
    for annotation in session.annotations:
        data = annotation.transcription_data()
        if data is not None:
            session_level.setdefault(annotation.turn_key, data.text)
    found: dict[int, str] = {}
    for turn in session.turns:
        text = None
        for annotation in turn.annotations:
            data = annotation.transcription_data()
            if data is not None:
                text = data.text
                break
        if text is None:
            text = session_level.get(turn.key)
        if text is not None:
            found[turn.index] = text
    return found
