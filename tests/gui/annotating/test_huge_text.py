"""Text of any size in the real window: a transcription of one 1,000,000-character word, a megabyte of
ordinary words, a paste of 200,000 characters. The turn is shown at once (the editor shows a long text's
start, read-only), a key costs no more than on a short text, and no text widens the window past the screen."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.annotating.transcription_editor import EDITOR_MAX_CHARS
from annotator.gui.app import parts_of
from tests.support.gui_keys import press, type_text
from tests.support.planted_logs import plant

CTRL = Qt.KeyboardModifier.ControlModifier
ONE_WORD = "x" * 1_000_000
WORDS = ("boston austin denver friday morning please " * 25_000)[:1_000_000]  # about 150,000 words
# The spec is 100 ms; on a two-core machine shared by the suite's other runs, moving between two short
# turns alone takes 0.6-0.7 s offscreen, so the bound here only tells a freeze from a move. Before the
# editor degraded, these took 57 s (one word) and 8.6 s (the paste); a key in a megabyte of words, 1.2 s,
# is caught by the editor being read-only there.
QUICK_S = 3.0


def _planted(log: Path, text: str) -> Path:
    plant(log, {"2": text})  # the first user turn (row 1)
    return log


def _timed(action) -> float:
    started = time.monotonic()
    action()
    QApplication.processEvents()  # the layout and paint the action asked for
    return time.monotonic() - started


def _screen_width(window) -> int:
    return window.screen().availableGeometry().width()


@pytest.mark.parametrize("text", [ONE_WORD, WORDS], ids=["one word", "many words"])
def test_a_megabyte_transcription_shows_at_once_read_only_and_keeps_the_window_on_screen(
    qtbot, make_window, annotated_log: Path, text
):
    window = make_window(_planted(annotated_log, text))
    parts_of(window).navigator.select_row(0)
    parts_of(window).navigator.table.setFocus()
    assert _timed(lambda: press(qtbot, window, Qt.Key.Key_Down)) < QUICK_S
    editor = window.editor
    assert editor.turn.id == "2"
    assert editor.text.isReadOnly() and len(editor.text.toPlainText()) <= EDITOR_MAX_CHARS
    assert f"{len(text):,} characters" in editor.diff.text()
    editor.focus_text()
    assert _timed(lambda: type_text(qtbot, window, "a")) < QUICK_S
    assert parts_of(window).controller.document.sessions[0].turn("2").transcription == text, "nothing was cut or typed"
    assert window.width() <= _screen_width(window)
    assert window.minimumSizeHint().width() <= _screen_width(window)


def test_a_paste_past_the_editors_size_is_refused_at_once(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    parts_of(window).navigator.select_row(1, focus_editor=True)
    before = window.editor.text.toPlainText()
    QApplication.clipboard().setText("boston " * 30_000)  # 210,000 characters
    assert _timed(lambda: press(qtbot, window, Qt.Key.Key_V, CTRL)) < QUICK_S
    assert window.editor.text.toPlainText() == before
    assert "too long" in window.statusBar().currentMessage()
    assert _timed(lambda: type_text(qtbot, window, "s")) < QUICK_S
    QApplication.clipboard().setText("y" * (EDITOR_MAX_CHARS - 100))  # one word the editor takes: it wraps
    assert _timed(lambda: press(qtbot, window, Qt.Key.Key_V, CTRL)) < QUICK_S
    assert len(window.editor.text.toPlainText()) > EDITOR_MAX_CHARS - 100
    assert window.width() <= _screen_width(window)
    assert window.minimumSizeHint().width() <= _screen_width(window)


def test_a_million_characters_in_every_field_keep_the_window_on_screen(qtbot, make_window, annotated_log: Path):
    raw = annotated_log.read_text(encoding="utf-8")
    big = "z" * 1_000_000
    for before, after in (
        ('id="travel:20261121:001"', f'id="s{big}"'),
        ('<GC_TURN id="2"', f'<GC_TURN id="t{big}"'),
        (">Welcome to the Communicator travel service. Where would you like to fly?", f">{big}"),
        (">i want to fly to austin", f">{big}"),
    ):
        assert before in raw
        raw = raw.replace(before, after, 1)
    annotated_log.write_text(raw, encoding="utf-8")
    window = make_window(annotated_log)
    assert window.minimumSizeHint().width() <= _screen_width(window)
    parts_of(window).navigator.select_row(0)
    parts_of(window).navigator.table.setFocus()
    for _row in range(3):
        assert _timed(lambda: press(qtbot, window, Qt.Key.Key_Down)) < QUICK_S
        assert window.width() <= _screen_width(window)
        assert window.minimumSizeHint().width() <= _screen_width(window)
