"""Moving between turns keeps the turn table's height: the editor below it grows to the longest n-best
list it has shown and does not shrink back on a system turn or a shorter list (the table would change
height, and be laid out and repainted whole, at every move)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.conftest import press


def test_the_table_keeps_its_height_while_the_selection_moves(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    navigator, table, editor = window.navigator, window.table, window.editor
    turns = navigator.session.turns
    lengths = {turn.index: len(turn.facts().hypothesis_data) for turn in turns if turn.speaker == "user"}
    longest = max(lengths, key=lengths.get)
    assert lengths[longest] > min(lengths.values()) and any(turn.speaker == "system" for turn in turns)
    navigator.select_row(longest)
    table.setFocus()
    QApplication.processEvents()
    height, editor_height = table.height(), editor.height()
    seen = set()
    for key in (Qt.Key.Key_Up,) * longest + (Qt.Key.Key_Down,) * (len(turns) - 1):
        press(qtbot, window, key)
        QApplication.processEvents()
        seen.add(navigator.current_turn().speaker)
        assert (table.height(), editor.height()) == (height, editor_height), navigator.current_turn().id
    assert seen == {"user", "system"} and navigator.current_turn() is turns[-1]


def test_the_text_box_keeps_its_width_on_a_system_turn(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    navigator, editor = window.navigator, window.editor
    turns = navigator.session.turns
    user = next(turn for turn in turns if turn.speaker == "user")
    system = next(turn for turn in turns if turn.speaker == "system")
    navigator.select_row(user.index)
    QApplication.processEvents()
    width = editor.text.width()
    assert editor.nbest.isVisible()
    navigator.select_row(system.index)
    QApplication.processEvents()
    assert not editor.nbest.isVisible() and editor.text.width() == width
