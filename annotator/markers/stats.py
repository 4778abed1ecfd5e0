"""Rasa's marker statistics: the per-session and the overall table, written exactly as Rasa writes them.

Both tables have the columns sender_id, session_idx, marker, statistic, value.
The statistics of the numbers of preceding user turns are count, mean,
median, min and max ("count(number of preceding user turns)"...); missing
ones (no hit) are nan. Markers are sorted by name. Values: integers as
integers, other numbers rounded to 3 decimals (numpy's rounding, printed
as numpy prints them: 2.0, 0.333, 33.333), missing as nan.

Per session: for each marker, for each statistic in alphabetical order
(count, max, mean, median, min), a row per session in processing order.
Overall (sender_id "all", session_idx nan): total_number_of_sessions (marker
"-"), then for each marker the number and percentage of sessions where it
applied at least once, then for each marker its statistics over all sessions
in the order count, mean, median, min, max. Log and marker names are
neutralised for spreadsheets (annotator.annotation_files.spreadsheet_cells), as in every CSV
of the tool; the table's own "-" and "all" are written as Rasa writes them.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

import numpy as np

from annotator.annotation_files.spreadsheet_cells import neutralise_cell
from annotator.markers.extract import SessionMarkers

STATS_COLUMNS = ("sender_id", "session_idx", "marker", "statistic", "value")
NO_MARKER = "-"
ALL_SENDERS = "all"
ALL_SESSIONS = np.nan
TOTAL_SESSIONS = "total_number_of_sessions"
SESSIONS_APPLIED = "number_of_sessions_where_marker_applied_at_least_once"
PERCENTAGE_APPLIED = "percentage_of_sessions_where_marker_applied_at_least_once"
PER_SESSION_SUFFIX = "-per-session.csv"
OVERALL_SUFFIX = "-overall.csv"


# A count is an int; numpy's mean and median are numpy floats; nan and min/max of ints otherwise.
Statistic = int | float | np.floating[Any]


def compute_statistics(values: list[int]) -> dict[str, Statistic]:
    """count, mean, median, min, max of VALUES; nan for all but count when there are none."""
    return {
        "count": len(values),
        "mean": np.mean(values) if values else np.nan,
        "median": np.median(values) if values else np.nan,
        "min": min(values) if values else np.nan,
        "max": max(values) if values else np.nan,
    }


def statistic_name(name: str) -> str:
    return f"{name}(number of preceding user turns)"


def format_value(value: Statistic) -> str:
    if isinstance(value, int):
        return str(value)
    if np.isnan(value):
        return str(np.nan)
    return str(np.round(value, 3))


class MarkerStatistics:
    """Collects sessions' results, then writes Rasa's two statistics tables."""

    def __init__(self, marker_names: Iterable[str]):
        self.marker_names = sorted(marker_names)
        self.sessions: list[tuple[str, int]] = []
        self.per_session: dict[str, dict[str, list[Statistic]]] = {
            name: {stat: [] for stat in sorted(compute_statistics([]))} for name in self.marker_names
        }
        self.collected: dict[str, list[int]] = {name: [] for name in self.marker_names}
        self.sessions_applied: dict[str, int] = {name: 0 for name in self.marker_names}

    def process(self, result: SessionMarkers) -> None:
        self.sessions.append((result.sender_id, result.session_idx))
        for name in self.marker_names:
            preceding = result.preceding_user_turns(name)
            for stat, value in compute_statistics(preceding).items():
                self.per_session[name][stat].append(value)
            self.collected[name] += preceding
            if preceding:
                self.sessions_applied[name] += 1

    @classmethod
    def of(cls, marker_names: Iterable[str], results: Iterable[SessionMarkers]) -> MarkerStatistics:
        statistics = cls(marker_names)
        for result in results:
            statistics.process(result)
        return statistics

    def per_session_csv(self) -> str:
        rows = []
        for name in self.marker_names:
            marker = neutralise_cell(name)
            for stat, values in self.per_session[name].items():
                for (sender, session), value in zip(self.sessions, values):
                    rows.append((neutralise_cell(sender), session, marker, statistic_name(stat), value))
        return _table(rows)

    def overall_csv(self) -> str:
        total = len(self.sessions)
        rows: list[tuple[str, float, str, str, Statistic]] = [
            (ALL_SENDERS, ALL_SESSIONS, NO_MARKER, TOTAL_SESSIONS, total)
        ]
        names = self.marker_names if total else []  # like Rasa, which learns the markers from the first session
        for name in names:
            applied = self.sessions_applied[name]
            marker = neutralise_cell(name)
            rows.append((ALL_SENDERS, ALL_SESSIONS, marker, SESSIONS_APPLIED, applied))
            rows.append(
                (ALL_SENDERS, ALL_SESSIONS, marker, PERCENTAGE_APPLIED, applied / total * 100 if total else 100.0)
            )
        for name in names:
            for stat, value in compute_statistics(self.collected[name]).items():
                rows.append((ALL_SENDERS, ALL_SESSIONS, neutralise_cell(name), statistic_name(stat), value))
        return _table(rows)


def _table(rows: list[tuple]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(STATS_COLUMNS)
    for sender, session, marker, statistic, value in rows:
        writer.writerow((sender, str(session), marker, statistic, format_value(value)))
    return buffer.getvalue()
