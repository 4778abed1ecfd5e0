"""The Compare dock's widget: a line saying what is compared (or why nothing is), the table of
annotators side by side (model.CompareModel) drawn as rich text, and the Save adjudication button."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAbstractTextDocumentLayout, QPainter, QPalette, QShowEvent, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from annotator.gui.compare.model import CompareModel

CELL_MARGIN = 3


class RichTextDelegate(QStyledItemDelegate):
    """Draws a cell's DisplayRole as rich text (the word diff's highlighted spans), wrapped to the column."""

    def _document(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex, width: int | None
    ) -> QTextDocument:
        """The cell's rich text wrapped to WIDTH (None: unwrapped)."""
        document = QTextDocument()
        document.setDefaultFont(option.font)
        document.setDocumentMargin(CELL_MARGIN)
        document.setHtml(index.data() or "")
        if width is not None:
            document.setTextWidth(max(width, 1))
        return document

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        self.initStyleOption(option, index)
        document = self._document(option, index, option.rect.width())
        option.text = ""
        style = option.widget.style() if option.widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        context = QAbstractTextDocumentLayout.PaintContext()
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        context.palette.setColor(QPalette.ColorRole.Text, option.palette.color(role))
        painter.save()
        painter.translate(option.rect.topLeft())
        painter.setClipRect(option.rect.translated(-option.rect.topLeft()))
        document.documentLayout().draw(painter, context)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        """As wide as the text unwrapped (for the columns fitted to their contents), as high as the text
        wrapped to the column's present width."""
        self.initStyleOption(option, index)
        document = self._document(option, index, None)
        width = round(document.idealWidth())
        table = option.widget
        if isinstance(table, QTableView) and table.columnWidth(index.column()) > 0:
            document.setTextWidth(table.columnWidth(index.column()))
        return QSize(width, round(document.size().height()))


class CompareView(QWidget):
    save_requested = Signal()
    row_chosen = Signal(int)  # the row the annotator clicked or moved to

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("compare_view")
        self.model = CompareModel(self)
        self.message = QLabel("Compare: Ctrl+Shift+C loads every annotator's file beside the open log", self)
        self.message.setObjectName("compare_message")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.save_button = QPushButton("Save adjudication", self)
        self.save_button.setToolTip(
            "Fold the adjudicated values into the log itself and record where each came from in LOG.adjudication.csv"
        )
        self.table = QTableView(self)
        self.table.setObjectName("compare_table")
        self.table.setModel(self.model)
        self.table.setItemDelegate(RichTextDelegate(self.table))
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self._refit = QTimer(self)  # rows are fitted once the columns have their widths, not at every step
        self._refit.setSingleShot(True)
        self._refit.timeout.connect(self.table.resizeRowsToContents)
        header.sectionResized.connect(lambda *_: self._refit.start(0))
        top = QHBoxLayout()
        top.addWidget(self.message, 1)
        top.addWidget(self.save_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self.save_button.clicked.connect(self.save_requested)
        self.model.modelReset.connect(self._fit_columns)
        self.model.dataChanged.connect(lambda first, _last: self.table.resizeRowToContents(first.row()))
        self.table.clicked.connect(lambda index: self.row_chosen.emit(index.row()))
        self.show_message(self.message.text())

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._refit.start(0)

    def show_message(self, text: str) -> None:
        """Only TEXT: nothing to compare."""
        self.message.setText(text)
        self.table.setVisible(self.model.rowCount() > 0)
        self.save_button.setVisible(self.model.rowCount() > 0)

    def _fit_columns(self) -> None:
        header = self.table.horizontalHeader()
        if self.model.columnCount() == 0:
            return
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)  # the others share the rest
        self._refit.start(0)

    def select_row(self, row: int | None) -> None:
        if row is None:
            self.table.clearSelection()
            return
        index = self.model.index(row, 0)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    def current_row(self) -> int | None:
        index = self.table.currentIndex()
        return index.row() if index.isValid() else None
