"""The rows of sessions.csv, turns.csv and events.csv for one session.

The columns are fixed here, in this order; extras come after the documented
minimum so that readers selecting by name or by position both keep working.
Times are seconds since the epoch whatever the log's unit; a value that
cannot be computed is an empty cell, never 0; every text cell is
neutralised against spreadsheet formulas.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from lxml import etree

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
from annotator.export.csv_turn_scan import scan_turn
from annotator.log.metrics import SESSION_METRIC_COLUMNS, SessionMetrics
from annotator.log.metrics_scan import transcriptions_by_turn
from annotator.log.spreadsheet_cells import neutralise_cell
from annotator.log.times import TimeUnit
from annotator.log.views import ACTIVITY_TAGS, Session

_SESSION_BASE = ["file", "session_id", "stime", "etime", "duration_s", "n_turns", "n_user_turns", "n_system_turns",
                 "task_completion", "n_transcribed", "wer", "recognition_s", "synthesis_s"]
# metric columns named as in SESSION_METRIC_COLUMNS; "wer" above is word_error_rate again under its short name
SESSION_METRIC_EXTRAS = [name for name in SESSION_METRIC_COLUMNS if name not in _SESSION_BASE]
SESSION_COLUMNS = _SESSION_BASE + SESSION_METRIC_EXTRAS
TURN_COLUMNS = ["file", "session_id", "turn_id", "index", "speaker", "stime", "etime", "duration_s", "n_operations",
                "asr_text", "system_text", "audio_input", "audio_output", "transcription", "wer", "response_latency",
                # extras
                "n_messages", "n_events", "audio_input_written", "audio_output_written"]
EVENT_COLUMNS = ["file", "session_id", "turn_id", "element", "name", "server", "location", "tidx", "stime", "etime",
                 "duration_s", "type",
                 # extra: the element's own turnid attribute, as written
                 "turnid"]
_EVENT_VARIABLE_COMMAS = len(EVENT_COLUMNS) - 4  # commas between the cells after turn_id


def _divisor(unit: TimeUnit) -> float:
    return 1000.0 if unit is TimeUnit.MILLISECONDS else 1.0


def _times(el: etree._Element, divisor: float) -> tuple[str, str, str]:
    """stime, etime, duration cells of a session or turn (durations from the raw numbers)."""
    start, end = number(el.get("stime")), number(el.get("etime"))
    duration = None if start is None or end is None else (end - start) / divisor
    return (seconds_cell(None if start is None else start / divisor),
            seconds_cell(None if end is None else end / divisor), duration_cell(duration))


def session_line(file_cell: str, session: Session, metrics: SessionMetrics, n_transcribed: int) -> str:
    values = metrics.values
    stime, etime, duration = _times(session.el, _divisor(session.unit))
    cells = [file_cell, text_cell(session.id), stime, etime, duration,
             value_cell(values.get("n_turns")), value_cell(values.get("n_user_turns")),
             value_cell(values.get("n_system_turns")), text_cell(session.task_completion), str(n_transcribed),
             value_cell(values.get("word_error_rate")), value_cell(values.get("recognition_s")),
             value_cell(values.get("synthesis_s"))]
    cells += [value_cell(values.get(name)) for name in SESSION_METRIC_EXTRAS]
    return csv_line(cells)


def speakers(session: Session, metrics: SessionMetrics) -> list[str | None]:
    """Each GC_TURN's side as the metrics saw it (Turn.speaker; None when unknown)."""
    sides: list[str | None] = [None] * len(session.turns)
    for side, indices in metrics.turn_groups:
        for index in indices:
            sides[index] = side
    return sides


def turn_lines(file_cell: str, session: Session, metrics: SessionMetrics, audio: AudioCells) -> tuple[list[str], int]:
    """The session's turns.csv lines and how many user turns are transcribed."""
    divisor = _divisor(session.unit)
    session_cell = text_cell(session.id)
    transcriptions = transcriptions_by_turn(session)
    sides = speakers(session, metrics)
    turn_wer, latency = metrics.turn_wer, metrics.turn_response_latency
    lines = []
    transcribed = 0
    for index, turn in enumerate(session.turns):
        facts = scan_turn(turn.el)
        transcription = transcriptions.get(index)
        side = sides[index]
        if side == "user" and transcription:
            transcribed += 1
        stime, etime, duration = _times(turn.el, divisor)
        lines.append(csv_line([
            file_cell, session_cell, text_cell(turn.id), str(index), side or "", stime, etime, duration,
            str(facts.n_operations), text_cell(facts.asr_text), text_cell(facts.system_text),
            text_cell(audio.cell(facts.audio_input)), text_cell(audio.cell(facts.audio_output)),
            text_cell(transcription), value_cell(turn_wer.get(index)), value_cell(latency.get(index)),
            str(facts.n_messages), str(facts.n_events), text_cell(facts.audio_input), text_cell(facts.audio_output),
        ]))
    return lines, transcribed


def _operation_times(raw_start: str | None, raw_end: str | None, divisor: float) -> tuple[str, str, str]:
    """stime, etime, duration cells of an operation (the duration from the raw numbers, as the views do)."""
    try:
        start, end = float(raw_start), float(raw_end)
    except (TypeError, ValueError):
        start = end = None
    if start is None or start - start != 0.0 or end - end != 0.0:  # one missing, or not finite
        start, end = number(raw_start), number(raw_end)
        duration = None if start is None or end is None else (end - start) / divisor
        return (seconds_cell(None if start is None else start / divisor),
                seconds_cell(None if end is None else end / divisor), duration_cell(duration))
    if divisor == 1.0:
        cells = (repr(start), repr(end), repr(round(end - start, 6)))
    else:
        cells = (repr(start / divisor), repr(end / divisor), repr(round((end - start) / divisor, 6)))
    if "e" in cells[0] or "e" in cells[1] or "e" in cells[2]:
        return (seconds_cell(start / divisor), seconds_cell(end / divisor), duration_cell((end - start) / divisor))
    return cells


def _point_time(raw: str | None, divisor: float) -> tuple[str, str]:
    """time and duration cells of a message or event (which last no time)."""
    time = number(raw)
    if time is None:
        return "", ""
    return seconds_cell(time / divisor if divisor != 1.0 else time), "0.0"


# Names, servers, turn ids... repeat endlessly: neutralise each distinct value once.
_neutralised = functools.lru_cache(maxsize=1 << 16)(neutralise_cell)


def event_lines(file_cell: str, session: Session, append: Callable[[str], None]) -> int:
    """Append the events.csv lines of the session's operations, messages and events; return how many.

    The hot loop of the export (a row per element): attributes are read off
    the lxml elements directly and each line is joined by hand; only a line
    holding a separator, quote or line break goes through per-cell quoting.
    """
    divisor = _divisor(session.unit)
    count = 0
    session_head = f"{quote(file_cell)},{quote(text_cell(session.id))},"
    for child in session.el.iterchildren(tag=etree.Element):
        # Elements outside any GC_TURN (not valid, but seen) get an empty turn_id.
        head = session_head + (quote(text_cell(child.get("id"))) if child.tag == "GC_TURN" else "") + ","
        for el in child.iter(*ACTIVITY_TAGS):
            get = el.attrib.get
            tag = el.tag
            if tag == "GC_OPERATION":
                stime, etime, duration = _operation_times(get("stime"), get("etime"), divisor)
                kind = get("type", "")
            else:
                stime, duration = _point_time(get("time"), divisor)
                etime = stime
                kind = get("etype", "") if tag == "GC_EVENT" else get("type", "")
            name, server, location = get("name", ""), get("server", ""), get("location", "")
            tidx, turnid = get("tidx", ""), get("turnid", "")
            # A one-character test instead of a call per cell; the few risky cells are looked up.
            if name[:1] in RISKY_FIRST:
                name = _neutralised(name)
            if server[:1] in RISKY_FIRST:
                server = _neutralised(server)
            if location[:1] in RISKY_FIRST:
                location = _neutralised(location)
            if tidx[:1] in RISKY_FIRST:
                tidx = _neutralised(tidx)
            if kind[:1] in RISKY_FIRST:
                kind = _neutralised(kind)
            if turnid[:1] in RISKY_FIRST:
                turnid = _neutralised(turnid)
            cells = (tag, name, server, location, tidx, stime, etime, duration, kind, turnid)
            variable = ",".join(cells)
            if variable.count(",") != _EVENT_VARIABLE_COMMAS or '"' in variable or "\n" in variable \
                    or "\r" in variable:
                variable = ",".join(map(quote, cells))
            append(head + variable + "\n")
            count += 1
    return count
