"""The session browser's columns about the annotators' notes: review, flagged turns, active time spent."""

from __future__ import annotations

from annotator.clock import clock_text
from annotator.corpus.scan import SessionSummary

REVIEWED, FLAGGED, TIME_SPENT = "reviewed", "flagged", "time_spent"
NOTE_HEADERS = {
    REVIEWED: ("Reviewed", "Who marked the session reviewed (Ctrl+Shift+R); empty: not reviewed"),
    FLAGGED: ("Flagged", "User turns flagged inaudible, cross-talk, truncated, non-native or noise"),
    TIME_SPENT: (
        "Time spent",
        "Active time the annotators spent on the session's turns (mm:ss; pauses over 2 minutes are not counted)",
    ),
}


def note_text(summary: SessionSummary, name: str) -> str:
    if name == REVIEWED:
        return "" if summary.reviewer is None else (summary.reviewer or "yes")
    if name == FLAGGED:
        return str(summary.n_flagged) if summary.n_flagged else ""
    return clock_text(summary.time_spent_s) if summary.time_spent_s else ""


def note_sort_key(summary: SessionSummary, name: str) -> str | float:
    """Reviewed ones by reviewer, then the unreviewed; the most flagged and the longest worked on first."""
    if name == REVIEWED:
        return "\uffff" if summary.reviewer is None else summary.reviewer.lower()
    return -float(summary.n_flagged if name == FLAGGED else summary.time_spent_s)
