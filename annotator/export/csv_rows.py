"""The rows of sessions.csv, turns.csv and events.csv for one session.

The columns are fixed here, in this order; extras come after the documented
minimum so that readers selecting by name or by position both keep working.
Times are seconds since the epoch whatever the log's unit; a value that
cannot be computed is an empty cell, never 0; every text cell is
neutralised against spreadsheet formulas.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from annotator.alignment.turns import TurnToAlign, turn_to_align
from annotator.analysis.doubt import session_doubts
from annotator.analysis.metrics import SESSION_METRIC_COLUMNS, SessionMetrics, session_metrics
from annotator.analysis.metrics_scan import SessionPass
from annotator.analysis.nbest_oracle import SessionOracle, TurnOracle, session_oracle, turns_oracle
from annotator.annotation_files.spreadsheet_cells import neutralise_cell
from annotator.export.csv_audio import AudioCells
from annotator.export.csv_cells import (
    RISKY_FIRST,
    csv_line,
    duration_cell,
    number,
    quote,
    seconds_cell,
    text_cell,
    value_cell,
)
from annotator.export.words_rows import FileWords, kept_words
from annotator.log.concepts import reference_concepts
from annotator.log.elements import ACTIVITY_TAGS, Session
from annotator.log.flags import seconds_text, session_reviewer, turn_comment, turn_flags, turn_time_spent
from annotator.log.gc_pause import gc_paused
from annotator.log.text import clean_text
from annotator.log.times import NUMERAL_CHARACTERS, TimeUnit
from annotator.log.turn_facts import TurnFacts
from annotator.log.turn_ids import TurnKey, strip_id

if TYPE_CHECKING:
    from annotator.log.document import LogDocument

_SESSION_BASE = [
    "file",
    "session_id",
    "stime",
    "etime",
    "duration_s",
    "n_turns",
    "n_user_turns",
    "n_system_turns",
    "task_completion",
    "n_transcribed",
    "wer",
    "recognition_s",
    "synthesis_s",
]
# metric columns named as in SESSION_METRIC_COLUMNS; "wer" above is word_error_rate again under its short name
SESSION_METRIC_EXTRAS = [name for name in SESSION_METRIC_COLUMNS if name not in _SESSION_BASE]
# Which of the sessions sharing a session_id (counted over the exported logs in order), and which of
# a session's turns sharing a turn id, from 1: what `annotator fold` needs to read the tables back.
# oracle_wer and nbest_truth_share / nbest_rank_of_truth: what a rescoring of the n-best lists could gain
# (annotator.analysis.nbest_oracle).
# time_spent_s: the annotators' active time on its turns; reviewed ("1" or "0") and by whom (annotator.log.flags)
SESSION_COLUMNS = (
    _SESSION_BASE
    + SESSION_METRIC_EXTRAS
    + ["oracle_wer", "nbest_truth_share", "time_spent_s", "reviewed", "reviewed_by", "session_occurrence"]
)
TURN_COLUMNS = [
    "file",
    "session_id",
    "turn_id",
    "index",
    "speaker",
    "stime",
    "etime",
    "duration_s",
    "n_operations",
    "asr_text",
    "system_text",
    "audio_input",
    "audio_output",
    "transcription",
    "wer",
    "response_latency",
    # extras
    "n_messages",
    "n_events",
    "audio_input_written",
    "audio_output_written",
    "oracle_wer",
    "nbest_rank_of_truth",
    "concepts",
    "concept_error_rate",
    "concept_accuracy",  # the reference concepts, compact, and their score
    "doubt",
    "flags",
    "comment",
    "time_spent_s",  # the annotator's notes (annotator.log.flags)
    "session_occurrence",
    "turn_occurrence",
]
EVENT_COLUMNS = [
    "file",
    "session_id",
    "turn_id",
    "element",
    "name",
    "server",
    "location",
    "tidx",
    "stime",
    "etime",
    "duration_s",
    "type",
    # extra: the element's own turnid attribute, as written
    "turnid",
]
_EVENT_VARIABLE_COMMAS = len(EVENT_COLUMNS) - 4  # commas between the cells after turn_id


# Written where a session's occurrence goes when the rows are made before it is known (a file's rows
# are made apart from the others'); the writer puts the number in. No XML text or file cell holds NUL.
OCCURRENCE_PLACEHOLDER = "\x00"
_EVENT_BATCH = 4096


@dataclass
class SessionRows:
    """A session's sessions.csv line and turns.csv lines (UTF-8), its occurrence left as the placeholder."""

    key: str  # strip_id of the session id: sessions sharing it are numbered across the exported logs
    session_line: bytes
    turn_lines: bytes
    n_turns: int


@dataclass
class FileRows:
    """Everything one log adds to the three files: picklable, so a FileMap may make it anywhere."""

    sessions: list[SessionRows] = field(default_factory=list)
    events: list[bytes] = field(default_factory=list)  # events.csv lines, in blocks
    n_events: int = 0
    # The turns with audio to align, gathered as the sessions are walked; once the file is read, the words
    # the alignment cache holds for them (annotator.export.words_rows) replace them. Turns with words and no
    # audio are only counted: a log whose audio is elsewhere keeps no record per turn.
    word_turns: list[TurnToAlign] = field(default_factory=list)
    turns_without_audio: int = 0
    words: FileWords = field(default_factory=lambda: FileWords([]))

    def find_words(self, cache_file: Path | None) -> None:
        """Look the turns gathered up in the alignment cache at CACHE_FILE (one query for the whole log)."""
        self.words = kept_words(self.word_turns, cache_file)
        self.words.unalignable += self.turns_without_audio
        self.word_turns = []


def add_session_rows(rows: FileRows, file_cell: str, session: Session, walk: SessionPass, audio: AudioCells) -> None:
    """Walk SESSION once (WALK, not yet walked) and add its rows to ROWS: the events rows are made
    while the pass gathers the turns' facts and the metrics, instead of in a second walk."""
    events: list[str] = []

    def append(line: str) -> None:  # a session of 70,000 turns keeps its rows as bytes, not 300,000 strings
        events.append(line)
        if len(events) == _EVENT_BATCH:
            rows.events.append("".join(events).encode("utf-8"))
            events.clear()

    rows.n_events += event_lines(file_cell, session, append, walk)
    for turn, facts in zip(session.turns, walk.facts):
        to_align = turn_to_align(session.id, turn.id, facts, audio.resolver)
        if to_align is not None and to_align.audio is None:
            rows.turns_without_audio += 1
        elif to_align is not None:
            rows.word_turns.append(to_align)
    metrics = session_metrics(session, walk)
    oracles = turns_oracle(walk.facts)
    lines, transcribed = turn_lines(file_cell, session, metrics, audio, walk.facts, OCCURRENCE_PLACEHOLDER, oracles)
    line = session_line(
        file_cell,
        session,
        metrics,
        transcribed,
        OCCURRENCE_PLACEHOLDER,
        session_oracle(oracles),
        sum(turn_time_spent(facts) for facts in walk.facts),
    )
    rows.sessions.append(
        SessionRows(strip_id(session.id), line.encode("utf-8"), "".join(lines).encode("utf-8"), len(lines))
    )
    rows.events.append("".join(events).encode("utf-8"))


def document_rows(doc: LogDocument, file_cell: str, audio: AudioCells, cache_file: Path | None = None) -> FileRows:
    """The rows of a loaded document (its tree as it is in memory, edits included); its words those
    the alignment cache at CACHE_FILE holds."""
    rows = FileRows()
    with gc_paused():
        for session in doc.sessions:
            add_session_rows(rows, file_cell, session, SessionPass(session), audio)
    rows.find_words(cache_file)
    return rows


def _divisor(unit: TimeUnit) -> float:
    return 1000.0 if unit is TimeUnit.MILLISECONDS else 1.0


def _times(el: etree._Element, divisor: float) -> tuple[str, str, str]:
    """stime, etime, duration cells of a session or turn (durations from the raw numbers)."""
    start, end = number(el.get("stime")), number(el.get("etime"))
    duration = None if start is None or end is None else (end - start) / divisor
    return (
        seconds_cell(None if start is None else start / divisor),
        seconds_cell(None if end is None else end / divisor),
        duration_cell(duration),
    )


def session_line(
    file_cell: str,
    session: Session,
    metrics: SessionMetrics,
    n_transcribed: int,
    occurrence: int | str,
    oracle: SessionOracle | None = None,
    time_spent: float | None = None,
) -> str:
    """ORACLE is the session_oracle of its turns, TIME_SPENT the sum of their time spent (both made from
    session.turn_facts() when not given)."""
    if oracle is None:
        oracle = session_oracle(turns_oracle(session.turn_facts()))
    if time_spent is None:
        time_spent = sum(turn_time_spent(facts) for facts in session.turn_facts())
    reviewer = session_reviewer(session.el)
    values = metrics.values
    stime, etime, duration = _times(session.el, _divisor(session.unit))
    cells = [
        file_cell,
        text_cell(session.id),
        stime,
        etime,
        duration,
        value_cell(values.get("n_turns")),
        value_cell(values.get("n_user_turns")),
        value_cell(values.get("n_system_turns")),
        text_cell(session.task_completion),
        str(n_transcribed),
        value_cell(values.get("word_error_rate")),
        value_cell(values.get("recognition_s")),
        value_cell(values.get("synthesis_s")),
    ]
    cells += [value_cell(values.get(name)) for name in SESSION_METRIC_EXTRAS]
    cells += [
        value_cell(oracle.oracle_wer),
        value_cell(oracle.truth_share),
        text_cell(seconds_text(time_spent)),
        "0" if reviewer is None else "1",
        text_cell(reviewer),
        str(occurrence),
    ]
    return csv_line(cells)


def turn_lines(
    file_cell: str,
    session: Session,
    metrics: SessionMetrics,
    audio: AudioCells,
    facts: list[TurnFacts] | None,
    occurrence: int | str,
    oracles: list[TurnOracle | None] | None = None,
) -> tuple[list[str], int]:
    """The session's turns.csv lines and how many user turns are transcribed.

    FACTS are session.turn_facts() (read here when not given); speakers,
    texts and transcriptions are theirs, WER and latencies the metrics', doubt annotator.analysis.doubt's.
    OCCURRENCE is the session's among those sharing its id (or OCCURRENCE_PLACEHOLDER).
    ORACLES are turns_oracle(FACTS) (made here when not given).
    """
    if facts is None:
        facts = session.turn_facts()
    if oracles is None:
        oracles = turns_oracle(facts)
    divisor = _divisor(session.unit)
    session_cell = text_cell(session.id)
    turn_wer, latency, turn_concepts = metrics.turn_wer, metrics.turn_response_latency, metrics.turn_concepts
    doubts = session_doubts(facts)
    lines = []
    transcribed = 0
    keys_seen: Counter[TurnKey | None] = Counter()
    for index, (turn, turn_facts, oracle, doubt) in enumerate(zip(session.turns, facts, oracles, doubts)):
        key = turn.key
        keys_seen[key] += 1
        transcription = turn_facts.transcription
        side = turn_facts.speaker
        if side == "user" and transcription:
            transcribed += 1
        stime, etime, duration = _times(turn.el, divisor)
        audio_input = _written(turn_facts.audio_input)
        audio_output = _written(turn_facts.audio_output)
        concepts = turn_concepts.get(index)  # None: no reference concepts, and then no compact form either
        lines.append(
            csv_line(
                [
                    file_cell,
                    session_cell,
                    _text_cell(turn.id),
                    str(index),
                    side or "",
                    stime,
                    etime,
                    duration,
                    str(turn_facts.n_operations),
                    text_cell(turn_facts.asr_text),
                    text_cell(turn_facts.system_text),
                    text_cell(audio.cell(audio_input)),
                    text_cell(audio.cell(audio_output)),
                    text_cell(transcription),
                    value_cell(turn_wer.get(index)),
                    value_cell(latency.get(index)),
                    str(turn_facts.n_messages),
                    str(turn_facts.n_events),
                    text_cell(audio_input),
                    text_cell(audio_output),
                    "" if oracle is None else value_cell(oracle.oracle_wer),
                    "" if oracle is None or oracle.rank_of_truth is None else str(oracle.rank_of_truth),
                    "" if concepts is None else text_cell(_reference_compact(turn_facts)),
                    value_cell(None if concepts is None else concepts.error_rate),
                    value_cell(None if concepts is None else concepts.accuracy),
                    value_cell(None if doubt is None else doubt.score),
                    " ".join(turn_flags(turn_facts)),
                    text_cell(turn_comment(turn_facts)),
                    text_cell(seconds_text(turn_time_spent(turn_facts))),
                    str(occurrence),
                    "" if key is None else str(keys_seen[key]),
                ]
            )
        )
    return lines, transcribed


def _reference_compact(facts: TurnFacts) -> str:
    """The compact form of the turn's reference concepts, which a turn with concept counts has."""
    concepts = reference_concepts(facts)
    assert concepts is not None
    return concepts.compact()


def _written(data: etree._Element | None) -> str | None:
    """The audio path as written in a GC_DATA (DataView.text), None without one."""
    return None if data is None else clean_text(data.text)


def _operation_times(raw_start: str | None, raw_end: str | None, divisor: float) -> tuple[str, str, str]:
    """stime, etime, duration cells of an operation (the duration from the raw numbers, as the views do).

    event_lines has this inline for the usual case (both times there and finite)."""
    start, end = number(raw_start), number(raw_end)
    duration = None if start is None or end is None else (end - start) / divisor
    return (
        seconds_cell(None if start is None else start / divisor),
        seconds_cell(None if end is None else end / divisor),
        duration_cell(duration),
    )


_NAN = float("nan")

# Names, servers, turn ids... repeat endlessly: neutralise each distinct value once.
_neutralised = functools.lru_cache(maxsize=1 << 16)(neutralise_cell)


def _text_cell(value: str | None) -> str:
    """text_cell for values that repeat (turn ids "-01", "-03"... in every session)."""
    if not value:
        return ""
    return _neutralised(value) if value[0] in RISKY_FIRST else value


def session_activities(session: Session) -> Iterator[tuple[etree._Element, int | None]]:
    """(element, index of its GC_TURN or None) for every operation, message and event of the
    session in document order: what a SessionPass yields, without the pass's work."""
    turn_index = -1
    for child in session.el.iterchildren(tag=etree.Element):
        index = None
        if child.tag == "GC_TURN":
            turn_index += 1
            index = turn_index
        for el in child.iter(*ACTIVITY_TAGS):
            yield el, index


def event_lines(
    file_cell: str,
    session: Session,
    append: Callable[[str], None],
    activities: Iterable[tuple[etree._Element, int | None]] | None = None,
) -> int:
    """Append the events.csv lines of the session's operations, messages and events; return how many.

    ACTIVITIES are session_activities(session) or a SessionPass over the
    session, which gathers the metrics in the same pass (the default is the former).
    The hot loop of the export (a row per element): attributes are read off
    the lxml elements directly and each line is joined by hand; only a line
    holding a separator, quote or line break goes through per-cell quoting.
    """
    divisor = _divisor(session.unit)
    count = 0
    session_head = f"{quote(file_cell)},{quote(text_cell(session.id))},"
    turns = session.turns  # may grow while the activities come (the streaming export appends each turn)
    turn_heads: list[str] = []
    outside_head = session_head + ","  # elements outside any GC_TURN (not valid, but seen): no turn_id
    for el, turn_index in session_activities(session) if activities is None else activities:
        get = el.get
        tag = el.tag
        if tag == "GC_OPERATION":
            raw_start, raw_end = get("stime"), get("etime")
            if raw_start is None or raw_end is None:
                start = end = _NAN
            else:
                try:
                    start, end = float(raw_start), float(raw_end)
                except ValueError:
                    start = end = _NAN
                else:
                    if raw_start.strip(NUMERAL_CHARACTERS) or raw_end.strip(NUMERAL_CHARACTERS):
                        start = _NAN  # float() read more than a decimal numeral ("1_000", "1e3")
            if start - start == 0.0 and end - end == 0.0:  # both there and finite: _operation_times, inline
                duration = duration_cell((end - start) / divisor)
                stime, etime = repr(start / divisor), repr(end / divisor)
                if "e" in stime or "e" in etime:
                    stime, etime = seconds_cell(start / divisor), seconds_cell(end / divisor)
            else:
                stime, etime, duration = _operation_times(raw_start, raw_end, divisor)
            kind = get("type", "")
        else:
            raw_time = get("time")
            if raw_time is None:
                time = _NAN
            else:
                try:
                    time = float(raw_time) / divisor
                except ValueError:
                    time = _NAN
                else:
                    if raw_time.strip(NUMERAL_CHARACTERS):
                        time = _NAN  # float() read more than a decimal numeral
            if time - time == 0.0:  # there and finite; messages and events last no time
                stime = repr(time)
                if "e" in stime:
                    stime = seconds_cell(time)
                duration = "0.0"
            else:
                stime = duration = ""
            etime = stime
            kind = get("etype", "") if tag == "GC_EVENT" else get("type", "")
        name, server, location = get("name", ""), get("server", ""), get("location", "")
        tidx, turnid = get("tidx", ""), get("turnid", "")
        # A one-character test instead of a call per cell; the few risky cells are looked up.
        if name and name[0] in RISKY_FIRST:
            name = _neutralised(name)
        if server and server[0] in RISKY_FIRST:
            server = _neutralised(server)
        if location and location[0] in RISKY_FIRST:
            location = _neutralised(location)
        if tidx and tidx[0] in RISKY_FIRST:
            tidx = _neutralised(tidx)
        if kind and kind[0] in RISKY_FIRST:
            kind = _neutralised(kind)
        if turnid and turnid[0] in RISKY_FIRST:
            turnid = _neutralised(turnid)
        cells = (tag, name, server, location, tidx, stime, etime, duration, kind, turnid)
        variable = ",".join(cells)
        if variable.count(",") != _EVENT_VARIABLE_COMMAS or '"' in variable or "\n" in variable or "\r" in variable:
            variable = ",".join(map(quote, cells))
        if turn_index is None:
            head = outside_head
        else:
            while len(turn_heads) <= turn_index:
                turn_heads.append(session_head + quote(_text_cell(turns[len(turn_heads)].id)) + ",")
            head = turn_heads[turn_index]
        append(head + variable + "\n")
        count += 1
    return count
