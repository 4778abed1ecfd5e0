"""The keyboard's one rule (docs/keyboard.md) in the real window, with real key events: typing on a system
turn lands in the user turn Ctrl+Enter would choose (the status bar names it), the turn table never
searches, a focused check box keeps its Space, keys typed during a load arrive whole, a log opens on its
first user turn, and the keyboard dialog never binds a key that types."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from annotator.gui.keyboard import NO_USER_TURN_LEFT, TYPING_HERE
from annotator.gui.settings import AppSettings
from annotator.log.document import LogDocument
from tests.support.background_open import DuringLoad
from tests.support.gui_keys import press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier


def click_row(qtbot, window, row: int) -> None:
    """A real click on ROW of the turn table."""
    index = parts_of(window).navigator.model.index(row, 0)
    window.table.scrollTo(index)
    qtbot.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, pos=window.table.visualRect(index).center())
    assert parts_of(window).navigator.current_turn().index == row


def transcriptions(path: Path) -> list[list[str | None]]:
    return [[turn.transcription for turn in session.turns] for session in LogDocument.load(path).sessions]


def two_system_first_sessions(corpus: Path) -> Path:
    """A log of sample sessions 002 and 001, both opening with the system's greeting."""
    first = etree.parse(str(corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"))
    second = etree.parse(str(corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml")).getroot()[0]
    for data in second.iter("GC_DATA"):
        if data.get("type_utt_text") == "transcription":
            data.getparent().remove(data)  # nothing transcribed yet
    first.getroot().append(second)
    target = corpus / "travel-20261121-002" / "greetings-hublog.xml"
    first.write(str(target), encoding="UTF-8", xml_declaration=True)
    return target


@pytest.mark.slow
def test_typing_on_the_greeting_lands_whole_in_the_next_user_turn_and_the_status_bar_names_it(main_window, qtbot):
    window = main_window
    click_row(qtbot, window, 0)  # the greeting, the focus in the table
    assert parts_of(window).navigator.current_turn().speaker == "system"
    type_text(qtbot, window, "the caller")  # the t was the table's keyboard search: it jumped to a row starting with t
    turn = parts_of(window).navigator.current_turn()
    assert turn.id == "02" and window.editor.text.toPlainText() == "the caller"
    assert window.statusBar().currentMessage() == TYPING_HERE.format(turn="02")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert turn.transcription == "the caller"


def test_with_no_user_turn_left_the_status_bar_says_so_and_nothing_changes(main_window, qtbot):
    window = main_window
    for text in ("one", "two", "three", "four", "five"):  # every user turn of the session
        type_text(qtbot, window, text)
        press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    click_row(qtbot, window, 0)
    before = [turn.transcription for turn in parts_of(window).navigator.session.turns]
    type_text(qtbot, window, "six")
    assert parts_of(window).navigator.current_turn().index == 0
    assert [turn.transcription for turn in parts_of(window).navigator.session.turns] == before
    assert window.statusBar().currentMessage() == NO_USER_TURN_LEFT.format(session="travel:20261121:002")


def test_a_log_opens_on_its_first_user_turn_and_so_does_the_next_session(make_window, corpus, qtbot):
    log = two_system_first_sessions(corpus)
    window = make_window(log)
    assert parts_of(window).navigator.current_turn().id == "02" and QApplication.focusWidget() is window.editor.text
    type_text(qtbot, window, "hello there")
    press(qtbot, window, Key.Key_PageDown, Mod.ControlModifier)
    assert parts_of(window).navigator.session.index == 1 and parts_of(window).navigator.current_turn().speaker == "user"
    type_text(qtbot, window, "the second session words")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    press(qtbot, window, Key.Key_PageUp, Mod.ControlModifier)
    assert parts_of(window).navigator.current_turn().id == "04"  # 02 holds the typing, stored as the session was left
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    stored = transcriptions(log)
    assert stored[0][1] == "hello there" and "the second session words" in stored[1]


@pytest.mark.slow
def test_space_ticks_the_regex_box_of_the_find_bar_and_of_the_corpus_search(main_window, qtbot):
    window = main_window
    press(qtbot, window, Key.Key_F, Mod.ControlModifier)
    boxes = [parts_of(window).find.bar.regex]
    press(qtbot, window, Key.Key_F, Mod.ControlModifier | Mod.ShiftModifier)
    boxes.append(parts_of(window).corpus_search.results.regex)
    for box in boxes:
        box.setFocus(Qt.FocusReason.TabFocusReason)
        assert not box.isChecked()
        QTest.keyClick(box, Key.Key_Space)
        assert box.isChecked() and QApplication.focusWidget() is box
    assert window.editor.text.toPlainText() == ""


@pytest.mark.slow
def test_keys_typed_during_a_load_arrive_whole_and_a_space_on_the_progress_does_not_cancel(make_window, qtbot, big_log):
    window = make_window()

    def type_during_load(dialog) -> None:
        window.activateWindow()  # the progress dialog took the activation: the annotator clicks back
        window.table.setFocus()
        qtbot.keyClicks(window.table, "the caller")
        dialog.activateWindow()
        QApplication.processEvents()
        QTest.keyClick(dialog.focusWidget() or dialog, Key.Key_Space)  # on its Cancel button, say

    during = DuringLoad(window, type_during_load)
    assert parts_of(window).navigator.open_path(big_log)
    assert during.seen and parts_of(window).controller.document.path == big_log, "the open was not cancelled"
    turn = parts_of(window).navigator.current_turn()  # every user turn of the sample is transcribed: its first one
    assert turn.id == "2" and window.editor.text.toPlainText() == f"{turn.transcription}the caller "


@pytest.mark.slow
def test_the_keyboard_dialog_refuses_keys_that_type_and_escape_cancels_a_recording(main_window, qtbot):
    window = main_window
    press(qtbot, window, Key.Key_F1)
    dialog = parts_of(window).preferences.keys_dialog
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog)
    dialog.select("previous_user_turn")
    before = dict(dialog.pending)
    for key, modifiers in [
        (Key.Key_W, Mod.NoModifier),
        (Key.Key_W, Mod.ShiftModifier),
        (Key.Key_5, Mod.NoModifier),
        (Key.Key_Comma, Mod.NoModifier),
        (Key.Key_Space, Mod.NoModifier),
        (Key.Key_Backspace, Mod.NoModifier),
        (Key.Key_Delete, Mod.NoModifier),
    ]:
        dialog.recorder.setFocus()
        QTest.keyClick(dialog.recorder, key, modifiers)
        dialog.set_recorded_key()  # as the recording's end does
        assert dialog.pending == before, key
        assert "cannot be a shortcut" in dialog.conflict_text()
    for key in (Key.Key_F9, Key.Key_PageDown):
        dialog.recorder.setFocus()
        QTest.keyClick(dialog.recorder, key, Mod.AltModifier if key == Key.Key_PageDown else Mod.NoModifier)
        dialog.set_recorded_key()
    assert dialog.pending["previous_user_turn"] == ("Alt+PgDown",)
    dialog.recorder.setFocus()
    QTest.keyClick(dialog.recorder, Key.Key_Escape)  # cancels the recording
    assert dialog.isVisible() and dialog.recorder.keySequence().isEmpty()
    QTest.keyClick(QApplication.focusWidget(), Key.Key_Escape)  # closes the dialog
    assert not dialog.isVisible()


def test_a_stored_key_that_types_is_ignored_and_named_once(make_window, raw_log, qtbot):
    AppSettings().shortcut_overrides = json.dumps({"previous_user_turn": ["W"], "play_pause": ["F9"]})
    window = make_window()
    message = window.statusBar().currentMessage()
    assert "W for \u201cPrevious user turn\u201d" in message and "F9" not in message
    assert [key.toString() for key in window.action_table.previous_user_turn.shortcuts()] == ["Ctrl+Up"]
    assert [key.toString() for key in window.action_table.play_pause.shortcuts()] == ["F9"]
    assert parts_of(window).navigator.open_path(raw_log)
    type_text(qtbot, window, "wow")
    assert window.editor.text.toPlainText() == "wow" and parts_of(window).navigator.current_turn().id == "02"
