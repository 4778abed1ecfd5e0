"""The session list of a corpus: one row per SessionSummary (see annotator.corpus.scan).

Rows arrive in batches while a scan runs (append_summaries) and one is
replaced when the annotator saves a log (update_session). SessionFilter
narrows the rows by the filter language of annotator.corpus.session_filter.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterable
from itertools import groupby
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont, QIcon

from annotator.analysis.validation import Severity
from annotator.clock import clock_text
from annotator.corpus.scan import SessionSummary
from annotator.gui.colours import doubt_colour, severity_icon
from annotator.gui.corpus.session_notes import FLAGGED, NOTE_HEADERS, REVIEWED, TIME_SPENT, note_sort_key, note_text
from annotator.gui.theme import theme_colour
from annotator.gui.widgets.roles import SORT_ROLE, SUMMARY_ROLE

Role = Qt.ItemDataRole
_NO_PARENT = QModelIndex()  # the root, as Qt passes it

TASK_WORDS = {"1": "completed", "0": "not completed", None: "not set"}


class Column(enum.IntEnum):
    FILE = 0
    SESSION = 1
    TURNS = 2
    DURATION = 3
    TRANSCRIBED = 4
    TASK = 5
    FINDINGS = 6
    ANNOTATORS = 7
    DOUBT = 8
    REVIEWED = 9
    FLAGGED = 10
    TIME_SPENT = 11


_NOTES = {Column.REVIEWED: REVIEWED, Column.FLAGGED: FLAGGED, Column.TIME_SPENT: TIME_SPENT}


HEADERS = {
    Column.FILE: ("File", "The log file, relative to the scanned folder"),
    Column.SESSION: ("Session", "The GC_SESSION id"),
    Column.TURNS: ("Turns", "Number of GC_TURNs"),
    Column.DURATION: ("Duration", "Length of the session (mm:ss)"),
    Column.TRANSCRIBED: ("Transcribed", "User turns transcribed / user turns"),
    Column.TASK: ("Task", "Task completion annotated on the session (type_task_completion)"),
    Column.FINDINGS: ("Findings", "Validation errors and warnings (DTD quirks are not counted)"),
    Column.ANNOTATORS: (
        "Annotators",
        "How many annotators hold work on the session in their own file (team mode); the names in the tooltip",
    ),
    Column.DOUBT: (
        "Doubt",
        "The doubt of the session's most doubtful user turn still to transcribe (0 to 1; "
        "sorted, the most doubtful session first)",
    ),
    **{column: NOTE_HEADERS[name] for column, name in _NOTES.items()},
}
NUMBER_COLUMNS = (Column.TURNS, Column.DURATION, Column.TRANSCRIBED, Column.DOUBT, Column.FLAGGED, Column.TIME_SPENT)


def row_key(file: Path, session_index: int) -> tuple[str, int]:
    """What identifies a row, however the file's path was spelled."""
    return os.path.normcase(os.path.abspath(file)), session_index


def duration_text(seconds: float | None) -> str:
    return "?" if seconds is None else clock_text(seconds)


class SessionListModel(QAbstractTableModel):
    """The rows, kept sorted here (sort()): Qt's proxy would call data() from C++ for each of the
    n log n comparisons, seconds of a stalled window for a corpus of thousands of sessions, and
    again for every batch of rows arriving. A new row is put in its place by a binary search."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[SessionSummary] = []
        self._keys: list[tuple] = []  # each row's _key, in the order of the rows
        self._summary_of: dict[tuple[str, int], SessionSummary] = {}  # by row_key
        self._sort_column, self._descending = int(Column.FILE), False
        self._unreadable = 0
        self._root: Path | None = None
        self._names: dict[Path, str] = {}  # display_name per file: a sort compares names thousands of times
        self.marker_names: list[str] = []  # one extra column each, after the fixed ones
        self._open: tuple[str, int] | None = None  # row_key of the session open in the window
        self._italic = QFont()
        self._italic.setItalic(True)
        self._bold = QFont()
        self._bold.setBold(True)

    # --- rows ----------------------------------------------------------------
    def clear(self, root: Path | None = None) -> None:
        """Drop every row; file names are then shown relative to ROOT (a folder)."""
        self.beginResetModel()
        self._rows, self._keys, self._summary_of, self._unreadable = [], [], {}, 0
        self._root, self._names = root, {}
        self.endResetModel()

    def append_summaries(self, summaries: Iterable[SessionSummary]) -> None:
        """Add rows, each where the sort puts it; a summary of a session already listed replaces its row.
        The new rows that go between the same two listed rows are inserted at once: a batch of a scan
        in file order is one insertion, not one per row, for the filter and the views to take in."""
        new: dict[tuple[str, int], SessionSummary] = {}
        for summary in summaries:
            key = row_key(summary.file, summary.session_index)
            if key in self._summary_of:
                self.update_session(summary)
            else:
                new[key] = summary
        ordered = sorted(
            ((self._key(summary), summary) for summary in new.values()),
            key=lambda pair: pair[0],
            reverse=self._descending,
        )
        placed = [(self._position(key), key, summary) for key, summary in ordered]  # in the rows as listed now
        inserted = 0
        for place, group in groupby(placed, key=lambda item: item[0]):
            run = list(group)
            row = place + inserted
            self.beginInsertRows(_NO_PARENT, row, row + len(run) - 1)
            self._rows[row:row] = [summary for _, _, summary in run]
            self._keys[row:row] = [key for _, key, _ in run]
            for _, _, summary in run:
                self._summary_of[row_key(summary.file, summary.session_index)] = summary
                self._unreadable += summary.problem is not None
            self.endInsertRows()
            inserted += len(run)

    def update_session(self, summary: SessionSummary) -> None:
        """Replace the row of SUMMARY's session (same file and position in it), or add it; it moves
        to where the sort puts it, staying selected if it was."""
        key = row_key(summary.file, summary.session_index)
        old = self._summary_of.get(key)
        if old is None:
            self.append_summaries([summary])
            return
        row, sort_key = self._position(self._key(old)), self._key(summary)
        place = self._position(sort_key)  # in the rows as they are, the old one still at ROW
        moves = place not in (row, row + 1) and self.beginMoveRows(_NO_PARENT, row, row, _NO_PARENT, place)
        del self._rows[row], self._keys[row]
        row = place - 1 if moves and place > row else (place if moves else row)
        self._rows.insert(row, summary)
        self._keys.insert(row, sort_key)
        self._summary_of[key] = summary
        self._unreadable += (summary.problem is not None) - (old.problem is not None)
        if moves:
            self.endMoveRows()
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        self._sort_column = column if 0 <= column < self.columnCount() else int(Column.FILE)
        self._descending = order == Qt.SortOrder.DescendingOrder
        keys = [self._key(summary) for summary in self._rows]
        order_of = sorted(range(len(keys)), key=keys.__getitem__, reverse=self._descending)
        new_row = {old: new for new, old in enumerate(order_of)}
        self._rows = [self._rows[old] for old in order_of]
        self._keys = [keys[old] for old in order_of]
        kept = self.persistentIndexList()
        self.changePersistentIndexList(kept, [self.index(new_row[index.row()], index.column()) for index in kept])
        self.layoutChanged.emit()

    def _key(self, summary: SessionSummary) -> tuple:
        """What the rows are sorted by: the sort column's value, then file and session (unique)."""
        return (
            self.sort_key(summary, self._sort_column),
            self._sort_key(summary, Column.FILE),
            row_key(summary.file, summary.session_index),
        )

    def _position(self, key: tuple) -> int:
        """The row of KEY, or where it would go, in the rows as sorted."""
        keys, low, high = self._keys, 0, len(self._keys)
        while low < high:
            middle = (low + high) // 2
            if (keys[middle] > key) if self._descending else (keys[middle] < key):
                low = middle + 1
            else:
                high = middle
        return low

    def summary_at(self, row: int) -> SessionSummary | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, file: Path, session_index: int) -> int | None:
        """The row of FILE's session at SESSION_INDEX (its position: ids may repeat), or None."""
        return self._row_of_key(row_key(file, session_index))

    def _row_of_key(self, key: tuple[str, int]) -> int | None:
        summary = self._summary_of.get(key)
        return None if summary is None else self._position(self._key(summary))

    def set_open_session(self, file: Path | None, session_index: int = 0) -> None:
        """The session open in the window, whose row is shown in bold (None: none)."""
        rows = [self.open_row()]
        self._open = row_key(file, session_index) if file is not None else None
        for row in rows + [self.open_row()]:
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1), [Role.FontRole])

    def open_row(self) -> int | None:
        return self._row_of_key(self._open) if self._open is not None else None

    def unreadable_count(self) -> int:
        return self._unreadable

    @property
    def summaries(self) -> list[SessionSummary]:
        return list(self._rows)

    def display_name(self, file: Path) -> str:
        name = self._names.get(file)
        if name is None:
            name = self._names[file] = self._relative_name(file)
        return name

    def _relative_name(self, file: Path) -> str:
        if self._root is not None:
            try:
                return Path(os.path.relpath(file, self._root)).as_posix()
            except ValueError:  # another drive on Windows
                pass
        return file.name

    # --- QAbstractTableModel -------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(Column) + len(self.marker_names)

    def set_marker_names(self, names: list[str]) -> None:
        """Show one column per marker (its hits per session; the rows must carry marker_counts)."""
        self.beginResetModel()
        self.marker_names = list(names)
        self.endResetModel()
        order = Qt.SortOrder.DescendingOrder if self._descending else Qt.SortOrder.AscendingOrder
        self.sort(self._sort_column, order)  # by a marker column that may be gone

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Role.DisplayRole) -> object:
        texts: dict[int, str]  # by role
        if orientation == Qt.Orientation.Horizontal and len(Column) <= section < self.columnCount():
            name = self.marker_names[section - len(Column)]
            texts = {
                Role.DisplayRole: name.removeprefix("marker_"),
                Role.ToolTipRole: f"Marker {name}: how often it applied in the session",
            }
            return texts.get(role)
        if orientation != Qt.Orientation.Horizontal or section not in HEADERS:
            return None
        title, tip = HEADERS[Column(section)]
        texts = {Role.DisplayRole: title, Role.ToolTipRole: tip}
        return texts.get(role)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Role.DisplayRole) -> object:
        summary = self.summary_at(index.row()) if index.isValid() else None
        if summary is None:
            return None
        if role == SUMMARY_ROLE:
            return summary
        if index.column() >= len(Column):
            return self._marker_data(summary, self.marker_names[index.column() - len(Column)], role)
        column = Column(index.column())
        if role == Role.DisplayRole:
            return self._display(summary, column)
        if role == SORT_ROLE:
            return self.sort_key(summary, column)
        if role == Role.ToolTipRole:
            return self._tooltip(summary, column)
        if role == Role.TextAlignmentRole and column in NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if summary.problem is not None:
            return self._unreadable_style(column, role)
        if role == Role.DecorationRole and column == Column.FINDINGS:
            return self._findings_icon(summary)
        if role == Role.BackgroundRole and column == Column.TRANSCRIBED and summary.n_untranscribed:
            return theme_colour("untranscribed_background")
        if role == Role.BackgroundRole and column == Column.DOUBT and summary.doubt is not None:
            return doubt_colour(summary.doubt)
        if role == Role.ForegroundRole:
            if column == Column.TRANSCRIBED and summary.n_untranscribed:
                return theme_colour("untranscribed_text")
            if column == Column.DURATION and summary.duration_s is not None and summary.duration_s < 0:
                return theme_colour("warning_text")
            if (column == Column.TASK and summary.task_completion is None) or (
                column == Column.FINDINGS and not summary.findings_text
            ):
                return theme_colour("greyed_text")
        if role == Role.FontRole:
            return self._font(summary, column)
        return None

    def _font(self, summary: SessionSummary, column: Column) -> QFont | None:
        italic = column == Column.TASK and summary.task_completion is None
        if row_key(summary.file, summary.session_index) != self._open:
            return self._italic if italic else None
        font = QFont(self._bold)
        font.setItalic(italic)
        return font

    def _display(self, summary: SessionSummary, column: Column) -> str:
        if column == Column.FILE:
            return self.display_name(summary.file)
        if summary.problem is not None:
            return {Column.FINDINGS: "unreadable"}.get(column, "")
        if column == Column.SESSION:
            return summary.session_id
        if column == Column.TURNS:
            return str(summary.n_turns)
        if column == Column.DURATION:
            return duration_text(summary.duration_s)
        if column == Column.TRANSCRIBED:
            return f"{summary.n_transcribed} / {summary.n_user_turns}"
        if column == Column.TASK:
            return TASK_WORDS.get(summary.task_completion, repr(summary.task_completion))
        if column == Column.ANNOTATORS:
            return summary.annotators_text
        if column == Column.DOUBT:
            return "" if summary.doubt is None else f"{summary.doubt:.2f}"
        if column in _NOTES:
            return note_text(summary, _NOTES[column])
        return summary.findings_text or ("DTD quirks only" if summary.n_quirks else "none")

    def sort_key(self, summary: SessionSummary, column: int) -> str | float:
        """What column COLUMN sorts SUMMARY by."""
        if column >= len(Column):
            count = summary.marker_count(self.marker_names[column - len(Column)])
            return float(-1 if count is None else count)
        return self._sort_key(summary, Column(column))

    def _sort_key(self, summary: SessionSummary, column: Column) -> str | float:
        """Only strings and floats, which Qt compares itself (no Python call per comparison)."""
        last = float("inf")  # unknown values and unreadable logs sort last
        if column == Column.FILE:
            return f"{self.display_name(summary.file).lower()}\0{summary.session_index:09d}"
        if column == Column.FINDINGS:  # most problems first, an unreadable log before all
            return -last if summary.problem is not None else -float(summary.n_errors * 10**6 + summary.n_warnings)
        if column == Column.SESSION:
            return "\uffff" if summary.problem is not None else summary.session_id.lower()
        if column == Column.TASK:
            order: dict[str | None, str] = {"1": "a", "0": "b"}  # completed, not completed, then the rest
            return "d" if summary.problem is not None else order.get(summary.task_completion, "c")
        if summary.problem is not None:
            return last
        if column == Column.ANNOTATORS:  # most annotators first, disagreeing before agreeing
            return -float(len(summary.annotators) * 2 + summary.disagreeing)
        if column == Column.TURNS:
            return float(summary.n_turns)
        if column == Column.DURATION:
            return last if summary.duration_s is None else float(summary.duration_s)
        if column == Column.DOUBT:  # the most doubtful first
            return last if summary.doubt is None else -summary.doubt
        if column in _NOTES:
            return note_sort_key(summary, _NOTES[column])
        # TRANSCRIBED: least done first
        return summary.n_transcribed / summary.n_user_turns if summary.n_user_turns else last

    @staticmethod
    def _tooltip(summary: SessionSummary, column: Column) -> str:
        if summary.problem is not None:
            return summary.problem
        if column == Column.FILE:
            return str(summary.file)
        if column == Column.TRANSCRIBED and summary.n_untranscribed:
            return f"{summary.n_untranscribed} user turn(s) still to transcribe"
        if column == Column.ANNOTATORS and summary.annotators:
            differ = "; they disagree on a transcription or the task completion" if summary.disagreeing else ""
            return f"Annotated by {', '.join(summary.annotators)}{differ}"
        if column == Column.DOUBT:
            return (
                "no user turn left to transcribe"
                if summary.doubt is None
                else f"its most doubtful user turn still to transcribe: doubt {summary.doubt:.2f}"
            )
        if column == Column.FINDINGS and summary.n_quirks:
            return f"{summary.findings_text or 'no problems'}; {summary.n_quirks} DTD quirk(s), which are harmless"
        return ""

    @staticmethod
    def _marker_data(summary: SessionSummary, name: str, role: int) -> object:
        count = summary.marker_count(name)
        if role == Role.DisplayRole:
            return "" if count is None else (f"✓ {count}" if count else "–")
        if role == Role.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Role.ToolTipRole and count is not None:
            return f"{name} applied {count} time(s)" if count else f"{name} did not apply"
        return None

    @staticmethod
    def _unreadable_style(column: Column, role: int) -> QColor | QIcon | None:
        if role == Role.ForegroundRole:
            return theme_colour("unreadable_text")
        if role == Role.DecorationRole and column == Column.FINDINGS:
            return severity_icon(Severity.ERROR)
        return None

    @staticmethod
    def _findings_icon(summary: SessionSummary) -> QIcon | None:
        if summary.n_errors:
            return severity_icon(Severity.ERROR)
        if summary.n_warnings:
            return severity_icon(Severity.WARNING)
        return None
