"""Run markers over logs: hits for the app, rows for `annotator markers`.

    markers = load_markers("markers.yml")
    hits = apply_markers(markers, doc)           # MarkerHit per reported event
    results = extract_markers(markers, paths)    # SessionMarkers per session, for the CSV and statistics

A log is scanned once (facts.py) and every marker evaluated on whole arrays
of events (operators.py). Event indices are file-level: the position of the
element among all GC_OPERATION, GC_MESSAGE, GC_EVENT and GC_ANNOT elements
of the log in document order. The number of preceding user turns of an event
is the number of elements with type_new_turn="user" before it in its session.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from annotator.annotation_files.spreadsheet_cells import neutralise_cell
from annotator.file_name_text import name_text
from annotator.log.times import parse_number
from annotator.markers.facts import LogFacts, scan_log
from annotator.markers.operators import EvaluationContext
from annotator.progress import Progress
from annotator.user_patterns import PatternTooSlow

if TYPE_CHECKING:
    from lxml import etree

    from annotator.log.document import LogDocument
    from annotator.log.elements import Session
    from annotator.markers.language import MarkerSet

EXTRACTED_COLUMNS = ("sender_id", "session_idx", "marker", "event_idx", "num_preceding_user_turns")


@dataclass(frozen=True, slots=True)
class MarkerHit:
    """One event at which a marker is reported."""

    marker: str
    session_index: int
    event_index: int  # among all events of the log file
    element: etree._Element
    num_preceding_user_turns: int
    session: Session = field(repr=False)

    @property
    def seconds(self) -> float | None:
        """The element's start (stime, or time for messages and events) from the session's stime, to the µs."""
        raw = self.element.get("stime")
        if raw is None:
            raw = self.element.get("time")
        start, origin = parse_number(raw), parse_number(self.session.el.get("stime"))
        if start is None or origin is None:
            return None
        # Subtract the raw numbers first; epoch seconds as floats carry noise below the microsecond.
        return round(self.session.unit.to_seconds(start - origin), 6)


@dataclass
class SessionMarkers:
    """The rows of one session: per marker (in definition order), (event_idx, preceding user turns)."""

    sender_id: str
    session_idx: int
    events: dict[str, list[tuple[int, int]]]

    def preceding_user_turns(self, marker: str) -> list[int]:
        return [preceding for _, preceding in self.events[marker]]


@dataclass
class LogEvaluation:
    """Where each marker is reported in one log, with the scan it was computed from."""

    facts: LogFacts
    reported: dict[str, np.ndarray]  # marker -> ascending file-level event indices
    sessions: dict[str, np.ndarray]  # marker -> session index of each reported event
    preceding: dict[str, np.ndarray]  # marker -> preceding user turns of each reported event


def evaluate_log(markers: MarkerSet, doc: LogDocument) -> LogEvaluation:
    """Every marker over DOC; PatternTooSlow naming the log for a text_matches pattern past its time limit."""
    try:
        return _evaluate_log(markers, doc)
    except PatternTooSlow as error:
        raise PatternTooSlow(f"{doc.path}: {error}") from None


def _evaluate_log(markers: MarkerSet, doc: LogDocument) -> LogEvaluation:
    facts = scan_log(doc, markers.needs)
    context = EvaluationContext(facts.count, facts.session_starts, lambda c: c.kind.positive(c.value, facts))
    evaluation = LogEvaluation(facts, {}, {}, {})
    for marker in markers:
        positions = marker.reported_events(context)
        evaluation.reported[marker.name] = positions
        evaluation.sessions[marker.name] = context.session_of(positions)
    user_starts = _user_turn_starts(evaluation, context)
    for name, positions in evaluation.reported.items():
        session_starts = context.session_starts[evaluation.sessions[name]]
        evaluation.preceding[name] = np.searchsorted(user_starts, positions) - np.searchsorted(
            user_starts, session_starts
        )
    return evaluation


def _user_turn_starts(evaluation: LogEvaluation, context: EvaluationContext) -> np.ndarray:
    """The events with type_new_turn="user", read in each session with hits up to its last hit."""
    last_hit: dict[int, int] = {}
    for name, positions in evaluation.reported.items():
        for session, position in zip(evaluation.sessions[name].tolist(), positions.tolist()):
            if position > last_hit.get(session, -1):
                last_hit[session] = position
    starts: list[int] = []
    for session in sorted(last_hit):
        starts += evaluation.facts.user_turn_starts(int(context.session_starts[session]), last_hit[session])
    return np.asarray(starts, dtype=np.int64)


def apply_markers(markers: MarkerSet, doc: LogDocument) -> list[MarkerHit]:
    """Every reported event of every marker, by session, then marker (definition order), then event."""
    evaluation = evaluate_log(markers, doc)
    events = evaluation.facts.events
    hits = []
    for name, positions in evaluation.reported.items():
        sessions, preceding = evaluation.sessions[name], evaluation.preceding[name]
        for position, session, before in zip(positions.tolist(), sessions.tolist(), preceding.tolist()):
            hits.append(MarkerHit(name, session, position, events[position], before, doc.sessions[session]))
    order = {name: rank for rank, name in enumerate(markers.names)}
    hits.sort(key=lambda hit: (hit.session_index, order[hit.marker], hit.event_index))
    return hits


def hits_per_session(hits: Iterable[MarkerHit]) -> dict[int, dict[str, int]]:
    """Session index -> marker -> number of reported events (for the session browser's columns)."""
    counts: dict[int, dict[str, int]] = {}
    for hit in hits:
        per_marker = counts.setdefault(hit.session_index, {})
        per_marker[hit.marker] = per_marker.get(hit.marker, 0) + 1
    return counts


def session_markers(evaluation: LogEvaluation, sender_id: str) -> list[SessionMarkers]:
    """One SessionMarkers per session of the log, sessions without hits included."""
    count = len(evaluation.facts.session_starts)
    results = [SessionMarkers(sender_id, index, {}) for index in range(count)]
    for name, positions in evaluation.reported.items():
        sessions = evaluation.sessions[name]
        bounds = np.searchsorted(sessions, np.arange(count + 1)).tolist()
        rows = list(zip(positions.tolist(), evaluation.preceding[name].tolist()))
        for index, result in enumerate(results):
            result.events[name] = rows[bounds[index] : bounds[index + 1]]
    return results


def sender_id(path: Path) -> str:
    """Rasa's sender_id for a log: its file name without the extension, as name_text writes names."""
    return name_text(Path(path).stem)


def extract_markers(
    markers: MarkerSet, paths: Sequence[Path], progress: Progress | None = None
) -> list[SessionMarkers]:
    """Load each log in turn (one in memory at a time) and collect its sessions' rows."""
    results: list[SessionMarkers] = []
    for path in progress(paths, total=len(paths)) if progress else paths:
        results += log_markers(markers, path)
    return results


def log_markers(markers: MarkerSet, path: Path) -> list[SessionMarkers]:
    """The rows of each session of the log at PATH: the per-file work of a corpus, picklable with
    its results, so that it can run in other processes (annotator.corpus.parallel)."""
    from annotator.log.document import LogDocument

    return session_markers(evaluate_log(markers, LogDocument.load(path)), sender_id(path))


def extracted_markers_csv(results: Iterable[SessionMarkers]) -> str:
    """Rasa's extracted-markers table: a row per reported event, by session, marker, event.

    The log's name and the marker's are neutralised for spreadsheets, as in every CSV of the tool."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(EXTRACTED_COLUMNS)
    for result in results:
        sender = neutralise_cell(result.sender_id)
        for name, rows in result.events.items():
            marker = neutralise_cell(name)
            for event_idx, preceding in rows:
                writer.writerow((sender, result.session_idx, marker, event_idx, preceding))
    return buffer.getvalue()
