"""Review state and time spent in the real window: Ctrl+Shift+R marks the session reviewed by the annotator,
the session bar and the corpus browser show it, the browser's filters `unreviewed` and `flagged` find the
sessions, and the activity clock (driven by an injected time source) stores active time on save."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.annotating.activity_clock import IDLE_LIMIT
from annotator.gui.app import parts_of
from annotator.gui.corpus.session_list import Column
from annotator.log.document import LogDocument
from annotator.log.flags import session_reviewer, turn_time_spent
from tests.support.gui_keys import close_window, press, type_text

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
ALT_SHIFT = Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier


def _visible_sessions(browser) -> list[str]:
    proxy = browser.proxy
    return sorted(proxy.index(row, Column.SESSION).data() for row in range(proxy.rowCount()))


def test_ctrl_shift_r_marks_the_session_reviewed_by_the_annotator_and_undoes(qtbot, main_window, settings, raw_log):
    settings.annotator_name = "alice"
    bar = parts_of(main_window).navigator.session_bar
    assert bar.review.text() == "not reviewed"
    press(qtbot, main_window, Qt.Key.Key_R, CTRL_SHIFT)
    session = parts_of(main_window).navigator.session
    assert session_reviewer(session.el) == "alice" and bar.review.text() == "reviewed by alice"
    press(qtbot, main_window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert session_reviewer(session.el) is None and bar.review.text() == "not reviewed"
    press(qtbot, main_window, Qt.Key.Key_R, CTRL_SHIFT)
    press(qtbot, main_window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert session_reviewer(LogDocument.load(raw_log).sessions[0].el) == "alice"


@pytest.mark.slow
def test_the_browser_shows_review_flags_and_time_and_filters_unreviewed_and_flagged(
    qtbot, make_window, settings, corpus: Path
):
    settings.annotator_name = "bob"
    window = make_window()
    browser = parts_of(window).browser
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        assert parts_of(window).navigator.open_path(corpus)
    target = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    browser.session_activated.emit(target, 0)
    assert parts_of(window).controller.document.path == target
    navigator = parts_of(window).navigator
    navigator.select_row(
        next(row for row in range(navigator.model.rowCount()) if navigator.model.turn_at(row).speaker == "user")
    )
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    press(qtbot, window, Qt.Key.Key_N, ALT_SHIFT)
    press(qtbot, window, Qt.Key.Key_R, CTRL_SHIFT)
    press(qtbot, window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert session_reviewer(parts_of(window).navigator.session.el) == "bob"

    def summary():
        return next(s for s in browser.model.summaries if s.file.name == target.name)

    qtbot.waitUntil(lambda: summary().reviewer == "bob", timeout=20000)  # the row is read again after the save
    summary = summary()
    assert summary.n_flagged == 1
    row = browser.model.row_of(target, 0)
    assert browser.model.index(row, Column.REVIEWED).data() == "bob"
    assert browser.model.index(row, Column.FLAGGED).data() == "1"
    all_sessions = _visible_sessions(browser)
    browser.filter_edit.setFocus()
    type_text(qtbot, window, "unreviewed")
    assert summary.session_id not in _visible_sessions(browser) and len(_visible_sessions(browser)) == 2
    browser.filter_edit.clear()
    type_text(qtbot, window, "flagged")
    assert _visible_sessions(browser) == [summary.session_id]
    browser.filter_edit.clear()
    assert _visible_sessions(browser) == all_sessions
    close_window(window)


class FakeTime:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def fake_time(main_window) -> FakeTime:
    clock = parts_of(main_window).flags.clock
    clock.now = FakeTime()
    clock.select(parts_of(main_window).navigator.current_turn())
    return clock.now


def test_active_time_counts_between_acts_leaves_out_pauses_and_is_stored_on_save(
    qtbot, main_window, fake_time, raw_log
):
    navigator = parts_of(main_window).navigator
    users = [row for row in range(navigator.model.rowCount()) if navigator.model.turn_at(row).speaker == "user"]
    navigator.select_row(users[0], focus_editor=True)
    first = navigator.current_turn()
    fake_time.now += 10
    type_text(qtbot, main_window, "to")  # acts: 10 s count for the first turn
    fake_time.now += 5
    type_text(qtbot, main_window, "o")  # 5 s more
    fake_time.now += IDLE_LIMIT + 1  # a pause: nothing
    type_text(qtbot, main_window, " boston")
    fake_time.now += 3
    navigator.select_row(users[1], focus_editor=True)  # 3 s more, then the second turn's clock starts
    second = navigator.current_turn()
    fake_time.now += 7
    press(qtbot, main_window, Qt.Key.Key_T, ALT_SHIFT)  # 7 s on the second turn
    clock = parts_of(main_window).flags.clock
    assert clock.counted(first) == pytest.approx(18.0) and clock.counted(second) == pytest.approx(7.0)
    assert turn_time_spent(first.facts()) == 0.0, "counted time is not in the log before a save"
    press(qtbot, main_window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    saved = LogDocument.load(raw_log).sessions[0].turns
    assert turn_time_spent(saved[first.index].facts()) == pytest.approx(18.0)
    assert turn_time_spent(saved[second.index].facts()) == pytest.approx(7.0)
    fake_time.now += 2
    press(qtbot, main_window, Qt.Key.Key_T, ALT_SHIFT)
    press(qtbot, main_window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert turn_time_spent(LogDocument.load(raw_log).sessions[0].turns[second.index].facts()) == pytest.approx(9.0)


def test_time_on_a_system_turn_counts_for_no_turn(qtbot, main_window, fake_time, raw_log):
    navigator = parts_of(main_window).navigator
    navigator.select_row(0)  # the greeting
    main_window.table.setFocus()
    greeting = navigator.current_turn()
    assert greeting.speaker == "system"
    fake_time.now += 20
    press(qtbot, main_window, Qt.Key.Key_T, ALT_SHIFT)  # an act: 20 s, on a turn with nothing to transcribe
    fake_time.now += 5
    press(qtbot, main_window, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # on to 02, a user turn
    fake_time.now += 4
    press(qtbot, main_window, Qt.Key.Key_T, ALT_SHIFT)
    clock = parts_of(main_window).flags.clock
    assert clock.counted(greeting) == 0.0 and clock.counted(navigator.current_turn()) == pytest.approx(4.0)
    press(qtbot, main_window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert turn_time_spent(LogDocument.load(raw_log).sessions[0].turns[0].facts()) == 0.0
