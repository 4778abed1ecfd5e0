"""The session browser's filter: the rows of a SessionListModel whose session the filter box's text matches."""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel, Qt

from annotator.corpus.session_filter import MineTest, SessionQuery
from annotator.gui.corpus.session_list import SessionListModel


class SessionFilter(QSortFilterProxyModel):
    """Keeps the rows whose session the filter text's SessionQuery matches, in the order of the
    SessionListModel, which sorts them itself (see there)."""

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._query = SessionQuery()
        self._mine: MineTest | None = None  # who "mine" is: the corpus's assignment and the annotator

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.sourceModel().sort(column, order)

    def set_filter_text(self, text: str) -> None:
        query = SessionQuery.parse(text)
        if query != self._query:
            self.beginFilterChange()
            self._query = query
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_mine(self, mine: MineTest | None) -> None:
        self.beginFilterChange()
        self._mine = mine
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        source = cast(SessionListModel, self.sourceModel())  # the browser's list, the filter's only source
        summary = source.summary_at(source_row)  # directly, not through data(): this runs for every row
        if summary is None:
            return False
        return self._query.matches(summary, source.display_name(summary.file) if self._query.words else "", self._mine)
