"""The doubt strip: the turn table's row header in the colour of each user turn's doubt, its reasons on hover."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QToolTip

from annotator.gui.app import parts_of
from annotator.gui.colours import doubt_colour, doubt_ramp

Role = Qt.ItemDataRole


def test_each_user_row_has_the_colour_of_its_doubt_and_system_rows_none(main_window):
    model = parts_of(main_window).navigator.model
    colours = [model.headerData(row, Qt.Orientation.Vertical, Role.BackgroundRole) for row in range(model.rowCount())]
    assert colours[0::2] == [None] * 5  # system turns 01, 03...
    # 02 0.09, 04 0.83 (error message, failed parse), 06 0.68, 08 0.31, 10 0.35
    assert colours[1::2] == [doubt_ramp()[0], doubt_ramp()[4], doubt_ramp()[3], doubt_ramp()[1], doubt_ramp()[1]]
    assert [doubt_colour(score) for score in (0.0, 0.19, 0.2, 0.5, 0.99, 1.0)] == [
        doubt_ramp()[0],
        doubt_ramp()[0],
        doubt_ramp()[1],
        doubt_ramp()[2],
        doubt_ramp()[4],
        doubt_ramp()[4],
    ]


@pytest.mark.slow
def test_the_strip_is_painted_beside_the_rows(main_window, qtbot):
    table = main_window.table
    header = table.verticalHeader()
    assert header.isVisible() and header.width() == 10
    image = table.grab().toImage()
    for row, expected in ((3, doubt_ramp()[4]), (1, doubt_ramp()[0])):
        y = header.sectionViewportPosition(row) + header.sectionSize(row) // 2 + header.y()
        assert image.pixelColor(header.x() + 4, y).name() == expected.name()


@pytest.mark.slow
def test_hovering_the_strip_tells_the_score_and_its_reasons(main_window, qtbot):
    header = main_window.table.verticalHeader()
    y = header.sectionViewportPosition(3) + header.sectionSize(3) // 2
    point = QPoint(4, y)
    QApplication.sendEvent(
        header.viewport(), QHelpEvent(QHelpEvent.Type.ToolTip, point, header.viewport().mapToGlobal(point))
    )
    qtbot.waitUntil(QToolTip.isVisible)
    text = QToolTip.text()
    assert "Doubt 0.83" in text and "the system answered with an error or help message" in text
    assert "the parse failed" in text
    QToolTip.hideText()


def test_the_timeline_draws_the_strip_over_each_user_turn_and_tells_its_doubt(qtbot, raw_log):
    from annotator.gui.timeline.timeline_doubt import STRIP_CENTRE
    from tests.support.timeline_view import show_timeline

    view = show_timeline(qtbot, raw_log)
    strip = view.doubt_strip.bars
    users = [i for i, speaker in enumerate(view.timeline.speakers) if speaker == "user"]
    assert strip.payloads == users == [1, 3, 5, 7, 9]
    assert strip.kinds.tolist() == [0, 4, 3, 1, 1]  # the steps of 0.09, 0.83, 0.68, 0.31, 0.35
    at = (strip.starts[1] + strip.ends[1]) / 2  # turn 04
    view.fit()
    QApplication.processEvents()
    point = view.plot.mapFromScene(view.scene_point(at, STRIP_CENTRE))
    image = view.plot.viewport().grab().toImage()
    assert image.pixelColor(point).name() == doubt_ramp()[4].name()
    text = view.tooltip_at(view.scene_point(at, STRIP_CENTRE))
    assert text.startswith("turn 04") and "Doubt 0.83: the system answered with an error or help message" in text
