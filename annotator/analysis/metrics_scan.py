"""One pass over a session's elements, gathering what the session metrics need.

SessionPass walks every GC_TURN once: annotator.log.turn_facts reads what
the turn's GC_DATA say (its side, system utterances, parse results,
transcription) and hands over each operation, message and event, from which
this module reads the rest in document order: task and utterance markers,
prompts, virtual and server operations. Attributes are read straight off the
lxml elements (no view objects in the loop); raw time numbers are kept and
only differences converted to seconds, so epoch times lose no precision.
The pass yields every activity on, so that the CSV export formats its events
rows in the same pass. annotator.analysis.metrics turns the gathered facts into
metric values.

Turns are collapsed here: consecutive GC_TURNs of the same side form one
turn for the metrics; GC_TURNs whose side is unknown are skipped over (they
neither form a turn nor separate two turns of the same side).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from lxml import etree

from annotator.log.elements import ACTIVITY_TAGS, Session
from annotator.log.facts_cache import with_session_level
from annotator.log.text import word_count
from annotator.log.times import parse_number
from annotator.log.turn_facts import (
    TurnFacts,
    session_transcriptions,
    turn_transcription,
    walk_turn,
)

RECOGNITION_VIRTUAL = "recognition_duration"
SYNTHESIS_VIRTUAL = "synthesis_duration"
PRESENTATION_VIRTUAL = ("presentation_duration", "output_presentation_duration")
VIRTUAL_TYPES = (RECOGNITION_VIRTUAL, SYNTHESIS_VIRTUAL) + PRESENTATION_VIRTUAL
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


class SessionPass:
    """One walk over a session's elements: every turn's TurnFacts and the metrics' SessionScan.

        walk = SessionPass(session)
        for element, turn_index in walk:  # every GC_OPERATION, GC_MESSAGE, GC_EVENT, in document order
            ...                           # turn_index: of the GC_TURN holding it; None outside turns
        walk.facts, walk.scan             # complete once the iteration has ended

    A caller that reads the activities too (the CSV export's events rows) does
    it inside this pass rather than in a second walk over the tree.
    session_metrics runs a pass of its own otherwise.
    """

    def __init__(self, session: Session, children: Iterable[etree._Element] | None = None):
        """CHILDREN are the session element's children in document order (its iterchildren() by default);
        the streaming export hands them over as the parser completes them, and appends each GC_TURN to
        session.turns before handing it over."""
        self.session = session
        self.children = children
        self.facts: list[TurnFacts] = []  # of session.turns, in order
        self.scan = SessionScan([])
        self._state = "new"  # "walking", "done"

    def run(self) -> SessionPass:
        """Walk the session if no one has; refuse a walk left half done (its facts are partial)."""
        if self._state == "new":
            for _activity in self:
                pass
        if self._state != "done":
            raise RuntimeError("the session pass was left before its end")
        return self

    def __iter__(self) -> Iterator[tuple[etree._Element, int | None]]:
        if self._state != "new":
            raise RuntimeError("a session pass walks once")
        self._state = "walking"
        revision = self.session.document.revision
        scan = self.scan
        walker = _Walker(scan, self.session.unit.to_seconds)
        position = 0  # of the last activity of the turns, among the session's activities, from 1
        turn_index = -1
        children = self.session.el.iterchildren() if self.children is None else self.children
        for child in children:
            if child.tag != "GC_TURN":
                if isinstance(child.tag, str):  # not a comment: activities outside any turn (not valid, but seen)
                    for el in child.iter(*ACTIVITY_TAGS):
                        yield el, None
                continue
            turn_index += 1
            facts = TurnFacts()
            before = position
            marked = []  # markers wait for the turn's side, known at its end
            for el, in_turn in walk_turn(child, facts):
                if in_turn:
                    # The hot loop of the metrics: most elements carry none of these, so the reads are all they cost.
                    position += 1
                    get = el.get
                    start_task, end_task = get("type_start_task"), get("type_end_task")
                    start_utt, end_utt = get("type_start_utt"), get("type_end_utt")
                    if start_task is not None or end_task is not None or start_utt is not None or end_utt is not None:
                        marked.append((el, position, start_task, end_task, start_utt, end_utt))
                    prompt = get("type_prompt")
                    if prompt is not None and prompt.strip():
                        walker.prompt(prompt.strip())
                    if el.tag == "GC_OPERATION":
                        types = get("type")
                        if types and "_duration" in types and walker.virtual(el, types.split()):
                            pass  # a virtual operation is no server's real work
                        else:
                            server = get("server")
                            if server and ("recogni" in server.lower() or "synth" in server.lower()):
                                walker.server_operation(el, server.lower())
                yield el, turn_index
            self.facts.append(facts)
            scan.sides.append(facts.speaker)
            group = _join_group(scan, turn_index, facts.speaker)
            for el, at, start_task, end_task, start_utt, end_utt in marked:
                walker.markers(el, at, turn_index, group, start_task, end_task, start_utt, end_utt)
            _data_facts(scan, facts, before)
        with_session_level(self.session, self.facts)
        self._state = "done"
        cache = self.session.document.facts_cache
        if cache is not None:
            cache.adopt(self.session, self.facts, revision)  # the same facts: no second walk for the views


def _join_group(scan: SessionScan, turn_index: int, side: str | None) -> TurnGroup | None:
    """Put the turn in the current group of its side, or start one; unknown sides are skipped over."""
    if side is None:
        scan.group_of_turn.append(None)
        return None
    groups = scan.groups
    if not groups or groups[-1].side != side:
        groups.append(TurnGroup(side))
    groups[-1].turn_indices.append(turn_index)
    scan.group_of_turn.append(len(groups) - 1)
    return groups[-1]


def _data_facts(scan: SessionScan, facts: TurnFacts, position: int) -> None:
    """System utterances and parse results of one turn whose first activity comes after POSITION."""
    if facts.system_marked:  # else system_data are the text_output fallback, not utterances
        for data, index in zip(facts.system_data, facts.system_data_at):
            words = word_count(data.text)
            scan.system_data += 1
            scan.system_words += words
            scan.system_words_at.append((position + index + 1, words))
            scan.error_messages += _is_true(data.get("type_error_msg"))
            scan.help_messages += _is_true(data.get("type_help_msg"))
    for data in facts.parse_data:
        scan.parse_results += 1
        scan.parse_successes += (data.text or "").strip().lower() in PARSE_TRUE


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

    def prompt(self, prompt: str) -> None:
        self.scan.prompts += 1
        self.scan.reprompts += prompt == self.last_prompt
        self.last_prompt = prompt

    def server_operation(self, el: etree._Element, server: str) -> None:
        """An operation of a recognizer or synthesizer server (SERVER lower-cased), for the fallback durations."""
        if "recogni" in server:
            self.scan.recognizer_operations.add(self.seconds_between(*_times(el)))
        elif "synth" in server:
            self.scan.synthesizer_operations.add(self.seconds_between(*_times(el)))

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

    def virtual(self, el: etree._Element, tokens: list[str]) -> bool:
        """Add a virtual operation's duration to its sums; False when EL is not one."""
        if not any(t in VIRTUAL_TYPES for t in tokens):
            return False
        scan = self.scan
        seconds = self.seconds_between(*_times(el))
        if RECOGNITION_VIRTUAL in tokens:
            scan.recognition_virtual.add(seconds)
        if SYNTHESIS_VIRTUAL in tokens:
            scan.synthesis_virtual.add(seconds)
        if any(t in PRESENTATION_VIRTUAL for t in tokens):
            scan.presentation_virtual.add(seconds)
        return True


def _is_true(value: str | None) -> bool:
    return value is not None and value.strip().lower() == "true"


def transcriptions_by_turn(session: Session) -> dict[int, str]:
    """Turn index -> the turn's transcription, as Turn.transcription finds it (an annotation in the
    turn first, then a session-level one with the turn's id), but with the session-level
    annotations indexed once instead of searched for every turn."""
    session_level = session_transcriptions(session.el)
    found: dict[int, str] = {}
    for turn in session.turns:
        text = turn_transcription(turn.el)
        if text is None:
            text = session_level.get(turn.key)
        if text is not None:
            found[turn.index] = text
    return found
