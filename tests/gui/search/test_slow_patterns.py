"""A backtracking pattern in the real window: Find (Regex), corpus search and the Replace preview run it
off the GUI thread with its time limit, so every key comes back at once; a pattern past the limit is
refused in one line, and Cancel stops a search."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.gui.search.find_bar import SEARCHING_TEXT
from annotator.gui.search.replace_dialog import ReplaceDialog
from tests.support.gui_keys import press, type_text
from tests.support.modal_answers import when_modal
from tests.support.planted_logs import plant

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier
NESTED = "(a+)+$"  # under Python's re: 17 s on 24 a's and a '!', on the GUI thread
TOO_SLOW = "(a|a)+$"  # exponential in the regex package too: the time limit ends it
KEY_BACK_S = 1.0  # generous on a busy machine; a key whose search ran on the GUI thread took 2-17 s


@pytest.fixture
def backtracking_log(annotated_log: Path) -> Path:
    plant(annotated_log, {"2": "a" * 24 + "!"})
    return annotated_log


def _slowest_key(qtbot, widget, text: str) -> float:
    slowest = 0.0
    for character in text:
        started = time.monotonic()
        qtbot.keyClicks(widget, character)
        slowest = max(slowest, time.monotonic() - started)
    return slowest


def _find_regex(qtbot, window):
    press(qtbot, window, Qt.Key.Key_F, CTRL)
    bar = parts_of(window).find.bar
    bar.regex.setChecked(True)
    return bar


def test_find_with_the_issues_pattern_never_holds_a_key(qtbot, make_window, backtracking_log: Path):
    window = make_window(backtracking_log)
    bar = _find_regex(qtbot, window)
    assert _slowest_key(qtbot, bar.text, NESTED) < KEY_BACK_S
    qtbot.waitUntil(lambda: bar.count.text() == "no hits", timeout=20000)


@pytest.mark.slow
def test_find_past_the_limit_searches_in_the_background_then_refuses_in_one_line(
    qtbot, make_window, backtracking_log: Path
):
    window = make_window(backtracking_log)
    bar = _find_regex(qtbot, window)
    assert _slowest_key(qtbot, bar.text, TOO_SLOW) < KEY_BACK_S
    assert bar.count.text() == SEARCHING_TEXT and bar.cancel.isVisible()
    qtbot.waitUntil(lambda: bar.count.text() == "bad pattern", timeout=20000)
    message = window.statusBar().currentMessage()
    assert message.startswith(f"regular expression '{TOO_SLOW}' took longer than") and "\n" not in message


@pytest.mark.slow
def test_cancel_stops_a_search(qtbot, make_window, backtracking_log: Path):
    window = make_window(backtracking_log)
    bar = _find_regex(qtbot, window)
    type_text(qtbot, window, TOO_SLOW)
    assert bar.cancel.isVisible()
    qtbot.mouseClick(bar.cancel, Qt.MouseButton.LeftButton)
    assert bar.count.text() == "cancelled" and parts_of(window).find.pending is None
    qtbot.wait(1500)  # the worker's result, when it comes, is dropped
    assert bar.count.text() == "cancelled"


@pytest.mark.slow
def test_corpus_search_runs_the_open_log_in_the_background(qtbot, make_window, backtracking_log: Path):
    window = make_window(backtracking_log)
    press(qtbot, window, Qt.Key.Key_F, CTRL | SHIFT)
    search = parts_of(window).corpus_search
    search.results.regex.setChecked(True)
    type_text(qtbot, window, TOO_SLOW)
    started = time.monotonic()
    press(qtbot, window, Qt.Key.Key_Return)
    assert time.monotonic() - started < KEY_BACK_S
    assert search.task is not None and search.results.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: search.task is None, timeout=20000)
    assert "took longer than" in search.results.summary.text()


@pytest.mark.slow
def test_the_replace_preview_runs_in_the_background_and_refuses_in_one_line(qtbot, make_window, backtracking_log: Path):
    window = make_window(backtracking_log)
    seen: dict[str, object] = {}

    def act(dialog: ReplaceDialog) -> None:
        dialog.regex.setChecked(True)
        qtbot.keyClicks(dialog.find, TOO_SLOW)
        qtbot.keyClicks(dialog.replacement, "x")
        started = time.monotonic()
        qtbot.keyClick(dialog.replacement, Qt.Key.Key_Return)
        seen["key"] = time.monotonic() - started
        seen["stoppable"] = dialog.stop.isVisible()
        qtbot.waitUntil(lambda: not dialog.summary.text().startswith("Planning"), timeout=20000)
        seen["summary"] = dialog.summary.text()
        dialog.reject()

    when_modal(ReplaceDialog, act, patience_ms=60000)
    press(qtbot, window, Qt.Key.Key_H, CTRL)
    assert seen["key"] < KEY_BACK_S and seen["stoppable"]
    assert str(seen["summary"]).startswith(f"regular expression '{TOO_SLOW}' took longer than")
