"""The findings table: one row per validation Finding (severity, line, message).

Quirks (where the standard's DTD contradicts its own prose) are shown grey;
FindingsFilter hides them unless asked. The model holds the list it is given
and never changes a finding.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt

from annotator.analysis.validation import Finding, Severity
from annotator.gui.colours import severity_icon
from annotator.gui.theme import theme_colour
from annotator.gui.widgets.roles import FINDING_ROLE, SORT_ROLE

Role = Qt.ItemDataRole
_NO_PARENT = QModelIndex()  # the root, as Qt passes it


class Column(enum.IntEnum):
    SEVERITY = 0
    LINE = 1
    MESSAGE = 2


HEADERS = {
    Column.SEVERITY: ("Severity", "error: the log is broken; warning: suspicious; quirk: only the DTD's own mistake"),
    Column.LINE: ("Line", "Line of the element in the log file"),
    Column.MESSAGE: ("Finding", "What is wrong; activate the row to select the element it is about"),
}


def count_text(findings: Iterable[Finding], with_quirks: bool = False) -> str:
    """'2 errors, 1 warning' (and quirks when asked); '' when there is nothing to say."""
    counts = {severity: 0 for severity in Severity}
    for finding in findings:
        counts[finding.severity] += finding.count  # a row may stand for findings not listed
    shown = [Severity.ERROR, Severity.WARNING, Severity.INFO] + ([Severity.QUIRK] if with_quirks else [])
    words = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.QUIRK: "DTD quirk"}
    parts = [f"{counts[s]} {words[s]}{'s' if counts[s] != 1 else ''}" for s in shown if counts[s]]
    return ", ".join(parts)


class FindingsModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._findings: list[Finding] = []

    def set_findings(self, findings: Iterable[Finding]) -> None:
        self.beginResetModel()
        self._findings = list(findings)
        self.endResetModel()

    @property
    def findings(self) -> list[Finding]:
        return list(self._findings)

    def finding_at(self, row: int) -> Finding | None:
        return self._findings[row] if 0 <= row < len(self._findings) else None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(self._findings)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _NO_PARENT) -> int:
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Role.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or section not in HEADERS:
            return None
        title, tip = HEADERS[Column(section)]
        texts: dict[int, str] = {Role.DisplayRole: title, Role.ToolTipRole: tip}
        return texts.get(role)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Role.DisplayRole) -> object:
        finding = self.finding_at(index.row()) if index.isValid() else None
        if finding is None:
            return None
        column = Column(index.column())
        if role == FINDING_ROLE:
            return finding
        if role == Role.DisplayRole:
            return self._display(finding, column)
        if role == SORT_ROLE:
            return self._sort_key(finding, column)
        if role == Role.DecorationRole and column == Column.SEVERITY:
            return severity_icon(finding.severity)
        if role == Role.ForegroundRole and finding.severity is Severity.QUIRK:
            return theme_colour("greyed_text")
        if role == Role.ToolTipRole:
            return str(finding)
        if role == Role.TextAlignmentRole and column == Column.LINE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    @staticmethod
    def _display(finding: Finding, column: Column) -> str:
        if column == Column.SEVERITY:
            return "DTD quirk" if finding.severity is Severity.QUIRK else finding.severity.word
        if column == Column.LINE:
            return "" if finding.line is None else str(finding.line)
        return finding.message

    @staticmethod
    def _sort_key(finding: Finding, column: Column) -> float | str:
        """Floats and strings only, which Qt compares itself (Python ints beyond 32 bits do not sort)."""
        line = float(finding.line or 0)
        if column == Column.SEVERITY:
            return -finding.severity.value * 1e12 + line  # worst first, then in file order
        if column == Column.LINE:
            return line
        return finding.message.lower()


class FindingsFilter(QSortFilterProxyModel):
    """Hides DTD quirks unless show_quirks; sorts by SORT_ROLE (file order until a header is clicked)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._show_quirks = False
        self.setSortRole(SORT_ROLE)

    @property
    def show_quirks(self) -> bool:
        return self._show_quirks

    def set_show_quirks(self, show: bool) -> None:
        if show != self._show_quirks:
            self.beginFilterChange()
            self._show_quirks = show
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        finding = self.sourceModel().index(source_row, 0, source_parent).data(FINDING_ROLE)
        return finding is not None and (self._show_quirks or finding.severity is not Severity.QUIRK)
