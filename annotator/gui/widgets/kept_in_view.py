"""Rows arriving in a sorted list stay out of the annotator's way: what they look at does not move."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QPersistentModelIndex
from PySide6.QtWidgets import QTableView


@contextmanager
def kept_in_view(table: QTableView) -> Iterator[None]:
    """Around a change of TABLE's rows: rows sorted in above the current row (or, with none in view,
    above the top row) would push it down the table; the table scrolls by as much, so it stays put."""
    viewport = table.viewport().rect()
    current = table.currentIndex()
    anchor = (
        current
        if current.isValid() and viewport.intersects(table.visualRect(current))
        else table.indexAt(viewport.topLeft())
    )
    kept = QPersistentModelIndex(anchor)
    before = table.visualRect(anchor).top()
    yield
    if not anchor.isValid() or not kept.isValid():
        return
    moved = table.visualRect(kept).top() - before
    if moved:
        bar = table.verticalScrollBar()
        bar.setValue(bar.value() + moved)
