"""The Details tree follows the selected turn by rewriting its rows in place (a move repaints the rows whose
text changed, not the whole tree), and shows exactly what a tree built afresh for that turn shows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont

from annotator.gui.app import parts_of
from annotator.gui.panes.detail_panel import DetailPanel
from tests.support.gui_keys import press

Key = Qt.Key
ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.FontRole,
    Qt.ItemDataRole.ForegroundRole,
)


def shown(value) -> object:
    if isinstance(value, QFont):
        return value.toString()
    if isinstance(value, QBrush):
        return value.color().name()
    return value


def dump(item, depth=0) -> list:
    """Every row under ITEM as the annotator sees it: cells, tooltips, font, colour, open or closed."""
    rows = []
    for index in range(item.childCount()):
        child = item.child(index)
        cells = tuple(tuple(shown(child.data(column, role)) for role in ROLES) for column in range(2))
        rows.append((depth, cells, child.isExpanded()))
        rows.extend(dump(child, depth + 1))
    return rows


def fresh_dump(qtbot, turn) -> list:
    panel = DetailPanel()
    qtbot.addWidget(panel)
    panel.show_turn(turn)
    return dump(panel.invisibleRootItem())


@pytest.mark.slow
def test_moving_between_turns_rewrites_the_rows_in_place_and_shows_what_a_fresh_tree_shows(main_window, qtbot):
    window = main_window
    detail = parts_of(window).detail
    parts_of(window).navigator.select_row(0)  # the first turn: every move below goes one row down
    window.table.setFocus()
    top = detail.topLevelItem(0)
    for _ in range(len(parts_of(window).navigator.session.turns) - 1):
        detail.topLevelItem(0).child(0).setSelected(True)  # a row the annotator clicked: a fresh tree has none
        press(qtbot, window, Key.Key_Down)
        turn = parts_of(window).navigator.current_turn()
        assert detail.topLevelItem(0).text(0) == f"GC_TURN {turn.id}"
        assert detail.topLevelItem(0) is top  # the same rows, rewritten: not a tree cleared and built again
        assert dump(detail.invisibleRootItem()) == fresh_dump(qtbot, turn)
        assert not detail.selectedItems()
    press(qtbot, window, Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert dump(detail.invisibleRootItem()) == fresh_dump(qtbot, parts_of(window).navigator.current_turn())


@pytest.mark.slow
def test_an_element_shown_after_a_turn_replaces_every_row(main_window, qtbot):
    window = main_window
    detail = parts_of(window).detail
    turn = parts_of(window).navigator.current_turn()
    operation = turn.activities[0]
    detail.show_element(operation)
    panel = DetailPanel()
    qtbot.addWidget(panel)
    panel.show_element(operation)
    assert dump(detail.invisibleRootItem()) == dump(panel.invisibleRootItem())
    detail.show_element(None)
    assert detail.topLevelItemCount() == 0


@pytest.mark.slow
def test_a_move_paints_the_tree_once(main_window, qtbot):
    """The rows a move rewrote are laid out before the window paints: left to Qt's 0 ms timer, the tree was
    laid out after the paint and painted a second time at every move."""
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication

    class Paints(QObject):
        count = 0

        def eventFilter(self, _watched, event) -> bool:
            self.count += event.type() == QEvent.Type.Paint
            return False

    window = main_window
    viewport = parts_of(window).detail.viewport()
    paints = Paints(window)
    viewport.installEventFilter(paints)
    moves = len(parts_of(window).navigator.session.turns) - 1

    def move(key, modifier=Qt.KeyboardModifier.NoModifier) -> tuple[int, object]:
        window.table.setFocus()
        before, size = paints.count, viewport.size()
        qtbot.keyClick(window.table, key, modifier)
        for _ in range(5):
            QApplication.processEvents()
        return paints.count - before, viewport.size() == size

    for _ in range(moves):  # the docks take the width of the widest turn's panes once: a paint of its own
        move(Key.Key_Down)
    move(Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert [move(Key.Key_Down) for _ in range(moves)] == [(1, True)] * moves
