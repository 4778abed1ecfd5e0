"""The n-best pane under the editor and Alt+1 ... Alt+9, in the real window with real key events."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.annotating.nbest_pane import NO_LIST_TEXT, TRUTH_MARK
from annotator.gui.app import parts_of
from annotator.gui.preferences.keys_dialog import ShortcutsDialog
from tests.support.gui_keys import press, type_text
from tests.support.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log

Key, Mod = Qt.Key, Qt.KeyboardModifier
DIGITS = {rank: getattr(Key, f"Key_{rank}") for rank in range(1, 10)}


def row_of(window, turn_id: str) -> int:
    return next(t.index for t in parts_of(window).navigator.session.turns if t.id == turn_id)


def status(window) -> str:
    return window.statusBar().currentMessage()


def user_turn_with_list(turn_id: str, start: float, heard: str, listed: str) -> str:
    """A user turn whose recognize operation holds LISTED (the n-best GC_DATA) beside the recognizer's text."""
    return (
        f'<GC_TURN id="{turn_id}" stime="{start}" etime="{start + 2}">'
        + operation(
            turn_id,
            start,
            start + 1,
            "record",
            "audio",
            'type_new_turn="user"',
            data(":utterance_file", f"u{turn_id}.wav", 'type="audio_input"'),
        )
        + operation(
            turn_id,
            start + 1,
            start + 1.5,
            "recognize",
            "recognizer",
            "",
            data(":input_string", heard, 'type="text_input" type_utt_text="asr"') + listed,
        )
        + "</GC_TURN>"
    )


def at_turn_6(make_window, latin1_log: Path):
    window = make_window(latin1_log)
    parts_of(window).navigator.select_row(row_of(window, "6"), focus_editor=True)
    assert QApplication.focusWidget() is window.editor.text
    return window


def test_the_pane_lists_the_turns_alternatives_with_rank_text_and_score(make_window, latin1_log):
    window = at_turn_6(make_window, latin1_log)
    pane = window.editor.nbest
    assert pane.isVisible()
    shown = pane.text()
    for line in (
        "Alt+1",
        "leaving from munich",
        "-652.982",
        "Alt+2",
        "leaving from zürich",
        "Alt+3",
        "leaving from köln",
    ):
        assert line in shown
    assert "Alt+4" not in shown and TRUTH_MARK not in shown


def test_alt_2_fills_the_editor_and_ctrl_z_restores_the_text_before(make_window, latin1_log, qtbot):
    window = at_turn_6(make_window, latin1_log)
    type_text(qtbot, window, "leaving")
    press(qtbot, window, Key.Key_2, Mod.AltModifier)
    assert window.editor.text.toPlainText() == "leaving from zürich"
    assert QApplication.focusWidget() is window.editor.text
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert window.editor.text.toPlainText() == "leaving"
    press(qtbot, window, Key.Key_1, Mod.AltModifier)
    assert window.editor.text.toPlainText() == "leaving from munich"
    press(qtbot, window, Key.Key_I, Mod.ControlModifier)  # Ctrl+I stays the recognizer's text
    assert window.editor.text.toPlainText() == "leaving from munich"


def test_alt_2_then_ctrl_enter_stores_the_alternative_and_the_pane_marks_it(make_window, latin1_log, qtbot):
    window = at_turn_6(make_window, latin1_log)
    press(qtbot, window, Key.Key_2, Mod.AltModifier)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    turn = parts_of(window).navigator.session.turns[row_of(window, "6")]
    assert turn.transcription == "leaving from zürich"
    parts_of(window).navigator.select_row(turn.index, focus_editor=True)
    assert f"leaving from zürich <b>{TRUTH_MARK}</b>" in window.editor.nbest.text()
    # What the pane's edge cuts in a narrow window or at a large zoom is whole in its tooltip, the heading too.
    tip = window.editor.nbest.toolTip().splitlines()
    assert tip[:2] == ["N-best list: each alternative and its score", "Alt+k puts alternative k in the editor"]
    second = [line for line in tip if line.startswith("Alt+2: ")]
    assert len(second) == 1 and second[0].startswith("Alt+2: leaving from zürich") and second[0].endswith(TRUTH_MARK)


def test_alt_5_where_only_3_exist_changes_nothing_and_says_why(make_window, latin1_log, qtbot):
    window = at_turn_6(make_window, latin1_log)
    type_text(qtbot, window, "leaving from")
    press(qtbot, window, Key.Key_5, Mod.AltModifier)
    assert window.editor.text.toPlainText() == "leaving from"
    assert status(window) == "Alt+5: the n-best list of turn 6 has 3 alternatives, no alternative 5"


def test_a_turn_without_a_list_says_so_and_the_keys_say_why(make_window, tmp_path, qtbot):
    path = write_log(
        tmp_path / "plain.xml",
        log_text([session("s1", [system_turn("1", 1000, "Where to?"), user_turn("2", 1005, "to boston")])]),
    )
    window = make_window(path)
    parts_of(window).navigator.select_row(1, focus_editor=True)
    pane = window.editor.nbest
    assert pane.isVisible() and NO_LIST_TEXT in pane.text()
    for rank in (1, 9):
        press(qtbot, window, DIGITS[rank], Mod.AltModifier)
        assert window.editor.text.toPlainText() == ""
        assert status(window) == f"Alt+{rank}: no n-best list in the log for turn 2"


def test_on_a_system_turn_the_pane_is_hidden_and_the_keys_say_why(make_window, latin1_log, qtbot):
    window = make_window(latin1_log)
    parts_of(window).navigator.select_row(row_of(window, "5"), focus_editor=True)
    assert window.editor.nbest.isHidden()
    press(qtbot, window, Key.Key_2, Mod.AltModifier)
    assert status(window) == "Alt+2: turn 5 is a system turn, with no n-best list"


def test_a_flat_list_in_shuffled_key_order_fills_by_rank(make_window, tmp_path, qtbot):
    body = (
        data(":nbest_list[2]", "to austin", 'type="text_input_hypothesis" score="-30"')
        + data(":nbest_list[0]", "to boston", 'type="text_input_hypothesis" score="-10"')
        + data(":nbest_list[1]", "to houston", 'type="text_input_hypothesis" score="-20"')
    )
    path = write_log(
        tmp_path / "flat.xml",
        log_text(
            [session("s1", [system_turn("1", 1000, "Where to?"), user_turn_with_list("2", 1005, "to boston", body)])]
        ),
    )
    window = make_window(path)
    parts_of(window).navigator.select_row(1, focus_editor=True)
    assert [(a.rank, a.text, a.score) for a in window.editor.nbest.alternatives] == [
        (1, "to boston", -10.0),
        (2, "to houston", -20.0),
        (3, "to austin", -30.0),
    ]
    press(qtbot, window, Key.Key_3, Mod.AltModifier)
    assert window.editor.text.toPlainText() == "to austin"


def test_the_keys_are_in_the_menu_and_the_keyboard_help(make_window):
    window = make_window()
    listed = ShortcutsDialog(window).listed_keys()
    for rank in range(1, 10):
        action = getattr(window.action_table, f"alternative_{rank}")
        assert action.shortcut().toString() == f"Alt+{rank}"
        assert action in window.menus.annotate.actions()
        assert f"Alt+{rank}" in listed
