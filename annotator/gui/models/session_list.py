"""The session list of a corpus: one row per SessionSummary (see annotator.corpus.scan).

Rows arrive in batches while a scan runs (append_summaries) and one is
replaced when the annotator saves a log (update_session). SessionFilter
narrows the rows by the filter language of annotator.corpus.session_filter.
"""

from __future__ import annotations

import enum
import os
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QSortFilterProxyModel, Qt
from PySide6.QtGui import QColor, QFont

from annotator.analysis.validation import Severity
from annotator.corpus.scan import SessionSummary
from annotator.corpus.session_filter import SessionQuery
from annotator.gui.colours import GREYED_TEXT, UNTRANSCRIBED_BACKGROUND, UNTRANSCRIBED_TEXT, WARNING_TEXT
from annotator.gui.models.findings import severity_icon
from annotator.gui.models.roles import SORT_ROLE, SUMMARY_ROLE
from annotator.log.clock import clock_text

Role = Qt.ItemDataRole
_NO_PARENT = QModelIndex()  # the root, as Qt passes it

UNREADABLE_TEXT = QColor("#b02420")
TASK_WORDS = {"1": "completed", "0": "not completed", None: "not set"}


class Column(enum.IntEnum):
    FILE = 0
    SESSION = 1
    TURNS = 2
    DURATION = 3
    TRANSCRIBED = 4
    TASK = 5
    FINDINGS = 6


HEADERS = {
    Column.FILE: ("File", "The log file, relative to the scanned folder"),
    Column.SESSION: ("Session", "The GC_SESSION id"),
    Column.TURNS: ("Turns", "Number of GC_TURNs"),
    Column.DURATION: ("Duration", "Length of the session (mm:ss)"),
    Column.TRANSCRIBED: ("Transcribed", "User turns transcribed / user turns"),
    Column.TASK: ("Task", "Task completion annotated on the session (type_task_completion)"),
    Column.FINDINGS: ("Findings", "Validation errors and warnings (DTD quirks are not counted)"),
}
NUMBER_COLUMNS = (Column.TURNS, Column.DURATION, Column.TRANSCRIBED)


def row_key(file: Path, session_index: int) -> tuple[str, int]:
    """What identifies a row, however the file's path was spelled."""
    return os.path.normcase(os.path.abspath(file)), session_index


def duration_text(seconds: float | None) -> str:
    return "?" if seconds is None else clock_text(seconds)


class SessionListModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._rows: list[SessionSummary] = []
        self._row_of: dict[tuple[str, int], int] = {}
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
        self._rows, self._row_of, self._root, self._names = [], {}, root, {}
        self.endResetModel()

    def append_summaries(self, summaries: Iterable[SessionSummary]) -> None:
        """Add rows at the end; a summary of a session already listed replaces its row instead."""
        fresh: list[SessionSummary] = []
        for summary in summaries:
            if row_key(summary.file, summary.session_index) in self._row_of:
                self.update_session(summary)
            else:
                fresh.append(summary)
        if not fresh:
            return
        first = len(self._rows)
        self.beginInsertRows(QModelIndex(), first, first + len(fresh) - 1)
        for row, summary in enumerate(fresh, start=first):
            self._rows.append(summary)
            self._row_of.setdefault(row_key(summary.file, summary.session_index), row)
        self.endInsertRows()

    def update_session(self, summary: SessionSummary) -> None:
        """Replace the row of SUMMARY's session (same file and position in it), or add it."""
        row = self._row_of.get(row_key(summary.file, summary.session_index))
        if row is None:
            self.append_summaries([summary])
            return
        self._rows[row] = summary
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    def summary_at(self, row: int) -> SessionSummary | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def row_of(self, file: Path, session_index: int) -> int | None:
        """The row of FILE's session at SESSION_INDEX (its position: ids may repeat), or None."""
        return self._row_of.get(row_key(file, session_index))

    def set_open_session(self, file: Path | None, session_index: int = 0) -> None:
        """The session open in the window, whose row is shown in bold (None: none)."""
        rows = [self.open_row()]
        self._open = row_key(file, session_index) if file is not None else None
        for row in rows + [self.open_row()]:
            if row is not None:
                self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1), [Role.FontRole])

    def open_row(self) -> int | None:
        return self._row_of.get(self._open) if self._open is not None else None

    def unreadable_count(self) -> int:
        return sum(1 for summary in self._rows if summary.problem is not None)

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
    def rowCount(self, parent: QModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(Column) + len(self.marker_names)

    def set_marker_names(self, names: list[str]) -> None:
        """Show one column per marker (its hits per session; the rows must carry marker_counts)."""
        self.beginResetModel()
        self.marker_names = list(names)
        self.endResetModel()

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Role.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and len(Column) <= section < self.columnCount():
            name = self.marker_names[section - len(Column)]
            return {Role.DisplayRole: name.removeprefix("marker_"),
                    Role.ToolTipRole: f"Marker {name}: how often it applied in the session"}.get(role)
        if orientation != Qt.Orientation.Horizontal or section not in HEADERS:
            return None
        title, tip = HEADERS[Column(section)]
        return {Role.DisplayRole: title, Role.ToolTipRole: tip}.get(role)

    def data(self, index: QModelIndex, role: int = Role.DisplayRole):
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
            return self._sort_key(summary, column)
        if role == Role.ToolTipRole:
            return self._tooltip(summary, column)
        if role == Role.TextAlignmentRole and column in NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if summary.problem is not None:
            return self._unreadable_style(column, role)
        if role == Role.DecorationRole and column == Column.FINDINGS:
            return self._findings_icon(summary)
        if role == Role.BackgroundRole and column == Column.TRANSCRIBED and summary.n_untranscribed:
            return UNTRANSCRIBED_BACKGROUND
        if role == Role.ForegroundRole:
            if column == Column.TRANSCRIBED and summary.n_untranscribed:
                return UNTRANSCRIBED_TEXT
            if column == Column.DURATION and summary.duration_s is not None and summary.duration_s < 0:
                return WARNING_TEXT
            if (column == Column.TASK and summary.task_completion is None) or (
                    column == Column.FINDINGS and not summary.findings_text):
                return GREYED_TEXT
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
        return summary.findings_text or ("DTD quirks only" if summary.n_quirks else "none")

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
            return "d" if summary.problem is not None else {"1": "a", "0": "b"}.get(summary.task_completion, "c")
        if summary.problem is not None:
            return last
        if column == Column.TURNS:
            return float(summary.n_turns)
        if column == Column.DURATION:
            return last if summary.duration_s is None else float(summary.duration_s)
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
        if column == Column.FINDINGS and summary.n_quirks:
            return f"{summary.findings_text or 'no problems'}; {summary.n_quirks} DTD quirk(s), which are harmless"
        return ""

    @staticmethod
    def _marker_data(summary: SessionSummary, name: str, role: int):
        count = summary.marker_count(name)
        if role == Role.DisplayRole:
            return "" if count is None else (f"✓ {count}" if count else "–")
        if role == SORT_ROLE:
            return float(-1 if count is None else count)
        if role == Role.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Role.ToolTipRole and count is not None:
            return f"{name} applied {count} time(s)" if count else f"{name} did not apply"
        return None

    @staticmethod
    def _unreadable_style(column: Column, role: int):
        if role == Role.ForegroundRole:
            return UNREADABLE_TEXT
        if role == Role.DecorationRole and column == Column.FINDINGS:
            return severity_icon(Severity.ERROR)
        return None

    @staticmethod
    def _findings_icon(summary: SessionSummary):
        if summary.n_errors:
            return severity_icon(Severity.ERROR)
        if summary.n_warnings:
            return severity_icon(Severity.WARNING)
        return None


class SessionFilter(QSortFilterProxyModel):
    """Keeps the rows whose session the filter text's SessionQuery matches."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._query = SessionQuery()
        self.setSortRole(SORT_ROLE)

    def set_filter_text(self, text: str) -> None:
        query = SessionQuery.parse(text)
        if query != self._query:
            self.beginFilterChange()
            self._query = query
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex) -> bool:
        source: SessionListModel = self.sourceModel()
        summary = source.summary_at(source_row)  # directly, not through data(): this runs for every row
        if summary is None:
            return False
        return self._query.matches(summary, source.display_name(summary.file) if self._query.words else "")
