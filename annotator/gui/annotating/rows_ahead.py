"""The turn table's rows made before they scroll into view.

A page down brings a page of rows the table has never painted: each row's cells are made (RowPainter) during
the paint the annotator waits for. Once a scroll has been painted, two pages above and two below what is
shown (a page down from a row in mid-view scrolls by up to two) are made on a 0 ms timer, which runs after the window's paint (Qt delivers posted events, the paint
among them, before timers), so the next scroll's paint reads cells already made. The model keeps them per row
and drops a row's when its turn changes (TurnTableModel.on_annotation_changed).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QTableView


class RowsAhead(QObject):
    """Makes the rows PAGES pages above and below TABLE's visible ones after each of its scrolls."""

    PAGES = 2

    def __init__(self, table: QTableView):
        super().__init__(table)
        self.table = table
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.make_rows)
        # Not connect(self._timer.start): PySide picks start(int) and makes the signal's value the interval,
        # so the rows were made a scroll position's worth of milliseconds later (seconds down a long session).
        scroll_bar = table.verticalScrollBar()
        scroll_bar.valueChanged.connect(self._soon)
        scroll_bar.rangeChanged.connect(self._soon)  # the view grew or shrank: other rows are next

    def _soon(self, *_: int) -> None:
        self._timer.start()

    def rows(self) -> range:
        """The rows shown, and PAGES pages of them on either side."""
        table, model = self.table, self.table.model()
        count = model.rowCount() if model is not None else 0
        first = table.rowAt(0)
        if count == 0 or first < 0:
            return range(0)
        last = table.rowAt(table.viewport().height() - 1)
        last = count - 1 if last < 0 else last
        page = (last - first + 1) * self.PAGES
        return range(max(0, first - page), min(count, last + page + 1))

    def make_rows(self) -> None:
        model = self.table.model()
        prepare = getattr(model, "prepare_rows", None)
        if prepare is not None:
            prepare(self.rows())
