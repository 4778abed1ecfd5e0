"""The Search results dock: a query over the whole corpus, its progress, and one row per hit
(file, session, turn, field, the context with the hit marked «so»). Activating a row (a click or
Enter) asks to open that turn; gui/search/corpus_search.py runs the search and answers."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from annotator.analysis.search import Hit, Query

HIT_ROLE = Qt.ItemDataRole.UserRole + 1  # the row's Hit
COLUMNS = ("File", "Session", "Turn", "Field", "Context")


def marked_context(hit: Hit) -> str:
    before, match, after = hit.context()
    return f"{before}«{match}»{after}"


class SearchResults(QWidget):
    search_requested = Signal()  # Enter in the query box or the Search button
    cancel_requested = Signal()
    hit_activated = Signal(object)  # Hit

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("search_results")
        self.text = QLineEdit(self)
        self.text.setObjectName("corpus_search_text")
        self.text.setPlaceholderText("Find in every log of the corpus (Enter searches)")
        self.text.setClearButtonEnabled(True)
        self.regex = QCheckBox("Regex", self)
        self.case = QCheckBox("Match case", self)
        self.search_button = QPushButton("Search", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar(self)
        self.progress.setTextVisible(True)
        self.progress.hide()
        self.summary = QLabel(self)
        self.summary.setObjectName("corpus_search_summary")
        self.model = QStandardItemModel(0, len(COLUMNS), self)
        self.model.setHorizontalHeaderLabels(list(COLUMNS))
        self.table = QTableView(self)
        self.table.setObjectName("search_hits")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        query_row = QHBoxLayout()
        for widget in (self.text, self.regex, self.case, self.search_button, self.cancel_button):
            query_row.addWidget(widget, 1 if widget is self.text else 0)
        status_row = QHBoxLayout()
        status_row.addWidget(self.progress, 1)
        status_row.addWidget(self.summary, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(query_row)
        layout.addLayout(status_row)
        layout.addWidget(self.table, 1)
        self.text.returnPressed.connect(self.search_requested)
        self.search_button.clicked.connect(self.search_requested)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.table.activated.connect(lambda index: self.hit_activated.emit(index.siblingAtColumn(0).data(HIT_ROLE)))
        self.table.clicked.connect(lambda index: self.hit_activated.emit(index.siblingAtColumn(0).data(HIT_ROLE)))

    def query(self) -> Query:
        return Query(self.text.text(), regex=self.regex.isChecked(), case_sensitive=self.case.isChecked())

    def start(self) -> None:
        self.model.removeRows(0, self.model.rowCount())
        self.summary.setText("")
        self.progress.setRange(0, 0)
        self.progress.show()
        self.cancel_button.setEnabled(True)
        self.search_button.setEnabled(False)

    def set_progress(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)
        self.progress.setFormat(f"{done} of {total} logs")

    def add_hits(self, hits: list[Hit], root: Path | None) -> None:
        for hit in hits:
            path = hit.file
            assert path is not None, "a corpus search's hits name their log"
            file = str(path.relative_to(root)) if root is not None and path.is_relative_to(root) else str(path)
            cells = [
                QStandardItem(text) for text in (file, hit.session_id, hit.turn_id, hit.field, marked_context(hit))
            ]
            cells[0].setData(hit, HIT_ROLE)
            cells[0].setToolTip(str(hit.file))
            self.model.appendRow(cells)

    def finish(self, summary: str) -> None:
        self.progress.hide()
        self.cancel_button.setEnabled(False)
        self.search_button.setEnabled(True)
        self.summary.setText(summary)

    def hit_count(self) -> int:
        return self.model.rowCount()

    def open(self) -> None:
        self.text.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.text.selectAll()
