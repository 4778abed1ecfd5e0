"""How the app's read-only lists look and behave: the findings and the sessions of a corpus."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableView


def set_up_list_table(table: QTableView) -> None:
    """One row at a time is chosen, nothing is edited in place, rows alternate and never wrap,
    and the rows are as high as a line of text with a little air."""
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setAlternatingRowColors(True)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.setSortingEnabled(True)
    table.horizontalHeader().setHighlightSections(False)
