"""The Concepts panel in the real window, driven by real keys: the parse of sample 003 turn 6 says
Munich, the caller said Zürich."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QLineEdit

from annotator.gui.annotating.concepts_panel import PATH, VALUE
from annotator.gui.app import parts_of
from annotator.log.concepts import Concepts, parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from tests.support.gui_keys import close_window, focused, press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier
MUNICH = Concepts("give_source", ((":source", "Munich"),))
ZURICH = Concepts("give_source", ((":source", "Zürich"),))


def _at_turn(window, turn_id: str):
    turn = next(t for t in parts_of(window).navigator.session.turns if t.id == turn_id)
    parts_of(window).navigator.select_row(turn.index, focus_editor=True)
    return turn


def _type(qtbot, window, text: str) -> None:
    """One key at a time to whatever has the focus (the first key opens a cell's editor, which then has it);
    a letter beyond ASCII as a keyboard layout sends it: a key event carrying its text (built here, as
    QTest.sendKeyEvent's text argument reaches the widget mis-decoded on PySide6 6.10.0, 'ü' as 'Ã¼')."""
    for character in text:
        if character.isascii():
            type_text(qtbot, window, character)
        else:
            target = focused(window)
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                QApplication.sendEvent(target, QKeyEvent(kind, Key.Key_unknown, Mod.NoModifier, character))


def _reference(window):
    return reference_concepts(parts_of(window).concepts.turn.facts())


def _shown(table) -> list[tuple[str, str]]:
    return [(table.item(row, PATH).text(), table.item(row, VALUE).text()) for row in range(table.rowCount())]


@pytest.mark.slow
def test_ctrl_k_shows_the_parse_and_ctrl_enter_stores_the_corrected_value(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    panel = parts_of(window).concepts
    turn = _at_turn(window, "6")
    assert _shown(panel.parse_table) == [(":source", "Munich")] and panel.reference.rowCount() == 0
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    assert _shown(panel.reference) == [(":source", "Munich")], "the parse, to start from"
    assert reference_concepts(turn.facts()) is None, "shown, not stored"
    assert QApplication.focusWidget() is panel.reference and panel.reference.currentColumn() == VALUE
    _type(qtbot, window, "Zürich")
    assert isinstance(QApplication.focusWidget(), QLineEdit), "typing opened the value's cell"
    assert reference_concepts(turn.facts()) is None, "nothing stored while typing"
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert reference_concepts(turn.facts()) == ZURICH
    assert parsed_concepts(turn.facts()) == MUNICH, "the parse is the log's own, never edited"
    assert parts_of(window).navigator.current_turn().id == "8", "Ctrl+Enter moved on to the next turn to transcribe"
    assert window.editor.text.hasFocus()

    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert reference_concepts(turn.facts()) is None
    assert parts_of(window).navigator.current_turn() is turn, "undo shows the turn it changed"
    assert _shown(panel.reference) == []
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier | Mod.ShiftModifier)
    assert _shown(panel.reference) == [(":source", "Zürich")]

    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert parts_of(window).controller.undo_stack.isClean()
    close_window(window)
    reopened = LogDocument.load(latin1_log)
    saved = next(t for t in reopened.sessions[0].turns if t.id == "6")
    assert reference_concepts(saved.facts()) == ZURICH and parsed_concepts(saved.facts()) == MUNICH
    window = make_window(latin1_log)
    _at_turn(window, "6")
    assert _shown(parts_of(window).concepts.reference) == [(":source", "Zürich")]


@pytest.mark.slow
def test_slots_are_added_named_and_removed_each_one_undo_step(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    panel, stack = parts_of(window).concepts, parts_of(window).controller.undo_stack
    turn = _at_turn(window, "6")
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    press(qtbot, window, Key.Key_Insert)
    assert _shown(panel.reference) == [(":source", "Munich"), (":slot", "")]
    _type(qtbot, window, ":date")  # the new slot's path cell is open
    press(qtbot, window, Key.Key_Tab)  # stores it and opens the value beside it
    _type(qtbot, window, "tomorrow")
    press(qtbot, window, Key.Key_Return)  # the cell's editor stores once the key is handled
    qtbot.waitUntil(
        lambda: (
            reference_concepts(turn.facts()) == Concepts("give_source", ((":source", "Munich"), (":date", "tomorrow")))
        )
    )
    assert stack.count() == 3 and stack.undoText() == "Set concept :date of turn 6"

    panel.reference.setCurrentCell(0, VALUE)
    press(qtbot, window, Key.Key_Delete)
    assert reference_concepts(turn.facts()) == Concepts("give_source", ((":date", "tomorrow"),))
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert reference_concepts(turn.facts()).slots == ((":source", "Munich"), (":date", "tomorrow"))

    press(qtbot, window, Key.Key_N, Mod.ControlModifier | Mod.ShiftModifier)  # the other key for a new slot
    assert _shown(panel.reference)[-1] == (":slot", "")
    press(qtbot, window, Key.Key_Escape)  # gives up naming it: the slot stays as added
    assert QApplication.focusWidget() is panel.reference
    press(qtbot, window, Key.Key_Delete)
    assert len(reference_concepts(turn.facts()).slots) == 2


@pytest.mark.slow
def test_the_frame_is_renamed_and_delete_there_deletes_a_character(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    panel = parts_of(window).concepts
    turn = _at_turn(window, "6")
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    press(qtbot, window, Key.Key_Backtab)  # from the value to the slot's path
    press(qtbot, window, Key.Key_Backtab)  # from the first cell to the frame's name
    assert QApplication.focusWidget() is panel.frame_edit and panel.frame_edit.text() == "give_source"
    press(qtbot, window, Key.Key_End)
    press(qtbot, window, Key.Key_Backspace)
    press(qtbot, window, Key.Key_Home)
    press(qtbot, window, Key.Key_Delete)
    assert panel.frame_edit.text() == "ive_sourc", "Delete in the frame name is the field's own"
    assert panel.reference.rowCount() == 1, "no slot was removed"
    press(qtbot, window, Key.Key_A, Mod.ControlModifier)
    _type(qtbot, window, "give_destination")
    press(qtbot, window, Key.Key_Return)
    assert reference_concepts(turn.facts()) == Concepts("give_destination", ((":source", "Munich"),))
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert reference_concepts(turn.facts()) is None
    assert panel.frame_edit.text() == "give_source", "the parse still shown to start from"


@pytest.mark.slow
def test_a_first_edit_without_ctrl_k_starts_from_the_parse(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    panel = parts_of(window).concepts
    turn = _at_turn(window, "4")
    panel.frame_edit.setFocus()
    _type(qtbot, window, "flight_query_fixed")
    press(qtbot, window, Key.Key_Tab)
    assert reference_concepts(turn.facts()) == Concepts("flight_query_fixed", ((":destination", "São Paulo"),))
    assert parts_of(window).controller.undo_stack.count() == 1


@pytest.mark.slow
def test_escape_goes_back_to_the_transcription_and_delete_there_is_the_editors(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    panel = parts_of(window).concepts
    _at_turn(window, "6")
    type_text(qtbot, window, "leaving from zurich")
    press(qtbot, window, Key.Key_K, Mod.ControlModifier | Mod.ShiftModifier)  # the parse is the reference
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    press(qtbot, window, Key.Key_Escape)
    assert window.editor.text.hasFocus()
    press(qtbot, window, Key.Key_Home)
    press(qtbot, window, Key.Key_Delete)
    assert window.editor.text.toPlainText() == "eaving from zurich"
    assert panel.reference.rowCount() == 1, "Delete outside the panel removes no slot"


@pytest.mark.slow
def test_the_panel_follows_the_selection_and_looking_changes_nothing(qtbot, make_window, latin1_log: Path):
    before = latin1_log.read_bytes()
    window = make_window(latin1_log)
    panel = parts_of(window).concepts
    _at_turn(window, "1")
    seen = []
    for _ in parts_of(window).navigator.session.turns:
        seen.append((panel.turn.id, panel.title.text(), _shown(panel.parse_table), panel.reference.isEnabled()))
        press(qtbot, window, Key.Key_Down, Mod.AltModifier)
    assert seen[5][0] == "6" and seen[5][2] == [(":source", "Munich")] and seen[5][3]
    assert seen[7][2] == [(":source", "Zürich")]
    assert "nothing to annotate" in seen[6][1] and seen[6][2] == [] and not seen[6][3]
    assert parts_of(window).controller.undo_stack.count() == 0 and not parts_of(window).controller.has_unsaved_work
    _at_turn(window, "13")
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)  # on a system turn: says so, changes nothing
    assert "system turn" in window.statusBar().currentMessage()
    assert parts_of(window).controller.undo_stack.count() == 0
    close_window(window)
    assert latin1_log.read_bytes() == before


@pytest.mark.slow
def test_a_turn_without_a_parse_starts_empty(qtbot, make_window, raw_log: Path):
    window = make_window(raw_log)
    panel = parts_of(window).concepts
    turn = next(
        t
        for t in parts_of(window).navigator.session.turns
        if t.speaker == "user" and parsed_concepts(t.facts()) is None
    )
    parts_of(window).navigator.select_row(turn.index, focus_editor=True)
    assert "none in the log" in panel.parse_label.text() and panel.reference.rowCount() == 0
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    assert QApplication.focusWidget() is panel.frame_edit and parts_of(window).controller.undo_stack.count() == 0
    _type(qtbot, window, "help")
    press(qtbot, window, Key.Key_Insert)
    assert reference_concepts(turn.facts()) == Concepts("help", ((":slot", ""),))


@pytest.mark.slow
def test_the_panels_keys_work_in_the_panel_only(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    turn = _at_turn(window, "6")
    window.table.setFocus()
    press(qtbot, window, Key.Key_F2)
    _type(qtbot, window, "typed in the cell")
    press(qtbot, window, Key.Key_Escape)  # the turn table's cell gives up its edit, as before
    qtbot.waitUntil(lambda: window.table.delegate.open_editor is None)
    for key in (Key.Key_Insert, Key.Key_Delete, Key.Key_Escape):
        press(qtbot, window, key)
    assert turn.transcription is None and reference_concepts(turn.facts()) is None
    assert parts_of(window).controller.undo_stack.count() == 0


@pytest.mark.slow
def test_the_turn_table_and_the_session_metrics_show_concept_accuracy(
    qtbot, make_window, latin1_log: Path, monkeypatch
):
    from annotator.analysis import metrics_live
    from annotator.gui.annotating import turn_table
    from annotator.gui.annotating.turn_table import Column
    from tests.support.pane_readouts import metric_text

    window = make_window(latin1_log)
    metrics, model = parts_of(window).metrics, parts_of(window).navigator.model
    turn = _at_turn(window, "6")
    cell = model.index(turn.index, Column.CONCEPTS)
    assert cell.data() == "" and metric_text(metrics, "concept_accuracy") == "n/a"
    press(qtbot, window, Key.Key_K, Mod.ControlModifier | Mod.ShiftModifier)  # the reference is the parse: all right
    qtbot.waitUntil(lambda: metric_text(metrics, "concept_accuracy") == "100.0 %")
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    assert cell.data() == "100.0 %" and metric_text(metrics, "concept_sentence_accuracy") == "100.0 %"

    scored: list[str] = []
    for module in (metrics_live, turn_table):
        counts_of = module.cached_turn_concept_counts
        monkeypatch.setattr(
            module, "cached_turn_concept_counts", lambda t, counts_of=counts_of: scored.append(t.id) or counts_of(t)
        )
    _type(qtbot, window, "Zürich")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)  # the parse's :source is now wrong
    qtbot.waitUntil(lambda: metric_text(metrics, "concept_accuracy") == "50.0 %")
    assert metric_text(metrics, "concept_error_rate") == "50.0 %"
    assert metric_text(metrics, "concept_sentence_accuracy") == "0.0 %"
    assert cell.data() == "50.0 %" and "1 substituted" in cell.data(Qt.ItemDataRole.ToolTipRole)
    window.table.viewport().repaint()
    assert set(scored) == {"6"}, "only the changed turn was scored again"
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    qtbot.waitUntil(lambda: metric_text(metrics, "concept_accuracy") == "100.0 %")


@pytest.mark.slow
def test_a_frame_nested_to_the_loaders_limit_is_shown(qtbot, make_window, tmp_path: Path):
    """2,048 elements deep: the panel's flattening walks it without recursion, one slot with its whole path."""
    from tests.support.hostile_shapes import LOADER_DEPTH_LIMIT, deep_frame_log, deep_frame_path

    path = tmp_path / "deep-hublog.xml"
    path.write_text(deep_frame_log(LOADER_DEPTH_LIMIT), encoding="utf-8")
    window = make_window(path)
    panel = parts_of(window).concepts
    _at_turn(window, "2")
    expected = [(deep_frame_path(LOADER_DEPTH_LIMIT), "deep value")]
    qtbot.waitUntil(lambda: _shown(panel.parse_table) == expected)
    assert _shown(panel.reference) == expected
