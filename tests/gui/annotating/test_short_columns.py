"""The turn table's short columns are as wide as the text they show, measured without making the cells of
rows the table does not paint (each row's WER alignment among them)."""

from __future__ import annotations

import pytest

from annotator.gui.annotating.turn_table_view import MEASURED_ROWS, SHORT_COLUMNS
from annotator.gui.app import parts_of


@pytest.mark.slow
def test_measuring_the_short_columns_makes_no_row_the_table_does_not_paint(make_window, qtbot, long_log):
    window = make_window()
    assert parts_of(window).navigator.open_path(long_log)
    model, table = parts_of(window).navigator.model, window.table
    qtbot.waitUntil(lambda: table.rowAt(0) == 0 and 0 in model._painted, timeout=60_000)
    rows = model.rowCount()
    far = range(rows - MEASURED_ROWS, rows)
    assert table.rowAt(table.viewport().height() - 1) < far[0]
    assert not any(row in model._painted for row in far), "rows never painted had their cells made"
    header = table.horizontalHeader()
    measured = [header.sectionSize(column) for column in SHORT_COLUMNS]
    model.prepare_rows(far)  # the cells as a paint makes them: the widths measured from them are the same
    model.prepare_rows(range(MEASURED_ROWS))
    table.fit_short_columns()
    assert [header.sectionSize(column) for column in SHORT_COLUMNS] == measured
