"""Moving between turns keeps the turn table's height: the editor below it grows to what the turns it has
shown need and does not shrink back on a system turn or a shorter list (the table would change height, and be
laid out and repainted whole, at every move); a long n-best list scrolls rather than grow it."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.annotating.nbest_pane import ALTERNATIVE_KEYS
from annotator.gui.app import parts_of
from annotator.log.turn_facts import HYPOTHESIS_TYPE, NBEST_KEY_PREFIX
from tests.support.gui_keys import press


@pytest.mark.slow
def test_the_table_keeps_its_height_while_the_selection_moves(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    navigator, table, editor = parts_of(window).navigator, window.table, window.editor
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
    navigator, editor = parts_of(window).navigator, window.editor
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


def test_a_long_n_best_list_scrolls_rather_than_grow_the_editor(qtbot, make_window, latin1_log: Path):
    """The second session is the first one again without its n-best lists: the first session's longest list
    scrolls beside the text box, so the editor is no higher for it than for a session without lists (the turn
    table above keeps its rows)."""
    tree = etree.parse(str(latin1_log))
    first = tree.getroot().find("GC_SESSION")
    listed = next(first.iter("GC_LIST"))  # the first n-best list, made the longest the keys reach
    for rank in range(len(listed), ALTERNATIVE_KEYS):
        etree.SubElement(
            listed, "GC_DATA", key=f"{NBEST_KEY_PREFIX}{rank}]", type=HYPOTHESIS_TYPE, dtype="string"
        ).text = f"alternative {rank}"
    second = copy.deepcopy(first)
    second.set("id", first.get("id") + ":copy")
    for data in list(second.iter("GC_DATA")):
        key, types = data.get("key") or "", (data.get("type") or "").split()
        if key.startswith(NBEST_KEY_PREFIX) or HYPOTHESIS_TYPE in types:
            data.getparent().remove(data)
    first.addnext(second)
    tree.write(str(latin1_log), encoding=tree.docinfo.encoding, xml_declaration=True)
    window = make_window(latin1_log)
    navigator, editor = parts_of(window).navigator, window.editor
    turns = navigator.session.turns
    longest = max(
        (turn for turn in turns if turn.speaker == "user"), key=lambda turn: len(turn.facts().hypothesis_data)
    )
    navigator.select_row(longest.index)
    QApplication.processEvents()
    grown = editor.minimumHeight()
    area = editor.nbest_area
    assert area.verticalScrollBar().maximum() > 0 and area.height() <= editor.text.height(), "the list scrolls"
    press(qtbot, window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    QApplication.processEvents()
    assert navigator.session.id == first.get("id") + ":copy"
    navigator.select_row(longest.index)
    QApplication.processEvents()
    assert navigator.current_turn().facts().hypothesis_data == []
    assert editor.minimumHeight() == grown
