"""Ctrl+Enter once the shown session has no user turn left to transcribe: on to the next session that has
one, in the log, then in the corpus (the Sessions list's order), in log order or the most doubtful first.

The logs are built here: sessions of one system and one user turn each, the user turn of "s3" with a
failed parse (a doubtful turn: annotator.analysis.doubt), and a last session "s4" with no user turn.
Auto-play is off: the built logs have no audio.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from tests.support.gui_keys import press, type_text
from tests.support.session_browser import current_summary
from tests.support.xml_builders import (
    FAILED_PARSE,
    log_text,
    session,
    system_turn,
    user_turn,
    write_log,
)

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _log(path: Path, heard: dict[str, str]) -> Path:
    sessions = [
        session(
            name,
            [
                system_turn("1", 1000 + 100 * n, "where to?"),
                user_turn("2", 1010 + 100 * n, text, extra=FAILED_PARSE if name == "s3" else ""),
            ],
            start=1000 + 100 * n,
            end=1099 + 100 * n,
        )
        for n, (name, text) in enumerate(heard.items())
    ]
    sessions.append(session("s4", [system_turn("1", 1900, "goodbye")], start=1900, end=1999))
    return write_log(path, log_text(sessions))


def _shown(window) -> tuple[str, str | None]:
    turn = parts_of(window).navigator.current_turn()
    return parts_of(window).navigator.session.id, None if turn is None else turn.id


def _transcribe_and_go_on(qtbot, window, text: str) -> tuple[str, str | None]:
    type_text(qtbot, window, text)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    return _shown(window)


def _at_the_first_user_turn(qtbot, window) -> None:
    window.action_table.auto_play.setChecked(False)
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)  # the next user turn, the editor focused
    assert _shown(window) == ("s1", "2")


def test_log_order_goes_on_to_the_next_session_and_then_back_to_an_earlier_one(qtbot, make_window, tmp_path):
    log = _log(tmp_path / "three-hublog.xml", {"s1": "hello", "s2": "to boston", "s3": "no"})
    window = make_window(log)
    _at_the_first_user_turn(qtbot, window)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)  # nothing typed: s1's one turn is still to do
    assert _shown(window) == ("s1", "2")
    parts_of(window).navigator.step_session(+1)
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    assert _transcribe_and_go_on(qtbot, window, "to boston") == ("s3", "2")
    assert "Session s2 is transcribed; on to session s3" in window.statusBar().currentMessage()
    assert parts_of(window).navigator.editor.isAncestorOf(window.focusWidget())
    assert _transcribe_and_go_on(qtbot, window, "no") == ("s1", "2")  # past the last: the earlier one left
    assert _transcribe_and_go_on(qtbot, window, "hello") == ("s1", "2")  # nothing left: it stays
    assert "Every user turn of three-hublog.xml is transcribed" in window.statusBar().currentMessage()
    assert [s.turns[1].transcription for s in parts_of(window).controller.document.sessions[:3]] == [
        "hello",
        "to boston",
        "no",
    ]


def test_most_doubtful_first_goes_to_the_session_with_the_most_doubtful_turn(qtbot, make_window, tmp_path):
    log = _log(tmp_path / "doubt-hublog.xml", {"s1": "hello", "s2": "to boston", "s3": "no"})
    window = make_window(log)
    window.action_table.doubtful_first.trigger()
    _at_the_first_user_turn(qtbot, window)
    assert _transcribe_and_go_on(qtbot, window, "hello") == ("s3", "2")  # its failed parse: more doubtful than s2's
    assert _transcribe_and_go_on(qtbot, window, "no") == ("s2", "2")
    assert _transcribe_and_go_on(qtbot, window, "to boston") == ("s2", "2")


def _two_log_corpus(qtbot, make_window, tmp_path: Path):
    """A window on a corpus of two logs, a-hublog.xml's first user turn shown; the window and that log."""
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    first = _log(corpus / "a-hublog.xml", {"s1": "hello"})
    _log(corpus / "b-hublog.xml", {"s1": "to boston"})
    window = make_window()
    with qtbot.waitSignal(parts_of(window).browser.scan_finished, timeout=30000):
        assert parts_of(window).navigator.open_path(corpus)
    assert parts_of(window).browsing.open_session(first, 0)
    _at_the_first_user_turn(qtbot, window)
    return window, first


@pytest.mark.slow
def test_the_corpus_s_next_log_comes_after_the_last_session_of_this_one(qtbot, make_window, tmp_path):
    window, first = _two_log_corpus(qtbot, make_window, tmp_path)
    type_text(qtbot, window, "hello")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)  # saved: the next log opens without a question
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert parts_of(window).controller.document.path.name == "b-hublog.xml"
    assert _shown(window) == ("s1", "2")
    assert "Session s1 is transcribed; on to session s1" in window.statusBar().currentMessage()


@pytest.mark.slow
def test_a_cancelled_move_into_the_next_log_leaves_the_list_the_table_and_the_status_bar_on_the_open_session(
    qtbot, make_window, tmp_path, boxes
):
    window, first = _two_log_corpus(qtbot, make_window, tmp_path)
    type_text(qtbot, window, "hello")
    press(qtbot, window, Key.Key_PageDown, Mod.ControlModifier)  # stored, not saved: leaving the log asks first
    assert parts_of(window).navigator.session.id == "s4"
    answers = boxes("Cancel")
    press(qtbot, window, Key.Key_PageDown, Mod.ControlModifier)  # past the log's last session: the next log
    assert answers.seen, "leaving the log with unsaved work was asked about"
    assert parts_of(window).controller.document.path == first
    assert parts_of(window).navigator.session.id == "s4"
    assert parts_of(window).navigator.model.rowCount() == len(parts_of(window).navigator.session.turns)
    shown = current_summary(parts_of(window).browser)
    assert (shown.file.name, shown.session_index) == ("a-hublog.xml", 1), "the list shows the session still open"
    assert window.statusBar().currentMessage().startswith("Still on session s4 of a-hublog.xml")


@pytest.mark.slow
def test_a_cancelled_ctrl_enter_into_the_next_log_leaves_the_list_on_the_open_session(
    qtbot, make_window, tmp_path, boxes
):
    window, first = _two_log_corpus(qtbot, make_window, tmp_path)
    answers = boxes("Cancel")
    assert _transcribe_and_go_on(qtbot, window, "hello") == ("s1", "2"), "the log's last user turn, still shown"
    assert answers.seen, "leaving the log with unsaved work was asked about"
    assert parts_of(window).controller.document.path == first
    shown = current_summary(parts_of(window).browser)
    assert (shown.file.name, shown.session_index) == ("a-hublog.xml", 0), "the list shows the session still open"
