"""A table whose first column stays in view while the other columns scroll sideways.

A second view of the same model and selection lies over the table's left edge and shows that
column only (Qt's "frozen column" pattern): rows, selection, sorting and activation stay one,
and the columns scrolled sideways pass under it as under a spreadsheet's frozen pane.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QFrame, QHeaderView, QTableView, QWidget

PINNED = 0  # the column kept in view


class PinnedColumnTable(QTableView):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.pinned: QTableView | None = None
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)

    def pin_first_column(self) -> QTableView:
        """Keep the first column in view; call once the model is set and the table is configured
        (the pinned view takes on its look)."""
        pinned = QTableView(self)
        pinned.setObjectName(f"{self.objectName()}_pinned")
        pinned.setModel(self.model())
        pinned.setSelectionModel(self.selectionModel())
        pinned.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        pinned.setFocusProxy(self)  # a click on a file name gives the keyboard to the table (Enter opens it)
        pinned.setFrameShape(QFrame.Shape.NoFrame)
        pinned.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        pinned.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        pinned.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)  # both views move alike
        pinned.setSelectionBehavior(self.selectionBehavior())
        pinned.setSelectionMode(self.selectionMode())
        pinned.setEditTriggers(self.editTriggers())
        pinned.setAlternatingRowColors(self.alternatingRowColors())
        pinned.setWordWrap(self.wordWrap())
        pinned.setTextElideMode(self.textElideMode())
        pinned.verticalHeader().hide()
        pinned.verticalHeader().setDefaultSectionSize(self.verticalHeader().defaultSectionSize())
        header = pinned.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        header.setSortIndicatorShown(self.horizontalHeader().isSortIndicatorShown())
        header.setSortIndicator(
            self.horizontalHeader().sortIndicatorSection(), self.horizontalHeader().sortIndicatorOrder()
        )
        header.sectionClicked.connect(self._sort_by)
        self.horizontalHeader().sortIndicatorChanged.connect(self._show_sort_indicator)
        self.horizontalHeader().sectionResized.connect(self._on_section_resized)
        self.verticalScrollBar().valueChanged.connect(pinned.verticalScrollBar().setValue)
        pinned.verticalScrollBar().valueChanged.connect(self.verticalScrollBar().setValue)
        model = self.model()
        for signal in (model.modelReset, model.columnsInserted, model.layoutChanged):
            signal.connect(self._show_only_the_pinned_column)
        pinned.activated.connect(self.activated)
        pinned.doubleClicked.connect(self.doubleClicked)
        self.viewport().stackUnder(pinned)
        self.pinned = pinned
        self._show_only_the_pinned_column()
        return pinned

    def scrollTo(
        self,
        index: QModelIndex | QPersistentModelIndex,
        hint: QAbstractItemView.ScrollHint = QAbstractItemView.ScrollHint.EnsureVisible,
    ) -> None:
        """The pinned column is always in view: reaching one of its cells scrolls up or down only."""
        sideways = self.horizontalScrollBar().value()
        super().scrollTo(index, hint)
        if index.column() == PINNED and self.pinned is not None:
            self.horizontalScrollBar().setValue(sideways)

    def updateGeometries(self) -> None:
        super().updateGeometries()
        self._place_pinned()

    def _place_pinned(self) -> None:
        if self.pinned is not None:
            width = self.verticalHeader().width() if self.verticalHeader().isVisible() else 0
            self.pinned.setGeometry(
                self.frameWidth() + width,
                self.frameWidth(),
                self.columnWidth(PINNED),
                self.viewport().height() + self.horizontalHeader().height(),
            )

    def _pinned_view(self) -> QTableView:
        """The pinned view, for the slots pin_first_column connects (it sets the view first)."""
        assert self.pinned is not None, "connected by pin_first_column only"
        return self.pinned

    def _show_only_the_pinned_column(self, *_args: object) -> None:
        pinned = self._pinned_view()
        for column in range(self.model().columnCount()):
            pinned.setColumnHidden(column, column != PINNED)
        pinned.setColumnWidth(PINNED, self.columnWidth(PINNED))
        self._place_pinned()

    def _on_section_resized(self, column: int, _old: int, size: int) -> None:
        if column == PINNED:
            self._pinned_view().setColumnWidth(PINNED, size)
            self._place_pinned()

    def _show_sort_indicator(self, column: int, order: Qt.SortOrder) -> None:
        self._pinned_view().horizontalHeader().setSortIndicator(column, order)

    def _sort_by(self, column: int) -> None:
        header = self.horizontalHeader()
        again = header.sortIndicatorSection() == column and header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
        self.sortByColumn(column, Qt.SortOrder.DescendingOrder if again else Qt.SortOrder.AscendingOrder)
