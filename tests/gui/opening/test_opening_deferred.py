"""Opening a long session shows its turns first; its metrics and timeline fill in afterwards from a
worker (gui/panes/session_panes.py), each made once, with what was changed meanwhile; keys typed while a log
loads reach the editor once it is shown (gui/opening/typing_during_load.py)."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt

import annotator.gui.opening.opener as opening
import annotator.gui.panes.metrics_panel as metrics_panel
import annotator.gui.panes.session_panes as session_panes
import annotator.gui.timeline.view as timeline_view
from annotator.analysis.metrics import session_metrics
from annotator.gui.app import parts_of
from annotator.gui.settings import LastPosition
from annotator.log.annotations import set_transcription
from annotator.timeline.data import build_timeline
from tests.support.background_open import LONG_TURNS, DuringLoad

TYPED = "boston please"


class Calls:
    """Counts the calls of NAME in each of MODULES, on any thread, for a session (not None: a view emptying)."""

    def __init__(self, monkeypatch, modules, name: str):
        self.count, self.on_gui_thread = 0, 0
        for module in modules:
            monkeypatch.setattr(module, name, self._counted(getattr(module, name)))

    def _counted(self, original):
        def counted(*args, **kwargs):
            if args and args[0] is not None:
                self.count += 1
                self.on_gui_thread += threading.current_thread() is threading.main_thread()
            return original(*args, **kwargs)

        return counted


def _filled(window) -> None:
    task = parts_of(window).panes._task
    if task is not None:
        assert task.wait(120)


@pytest.mark.slow
def test_the_turns_show_first_then_the_panes_fill_in_with_the_right_figures(make_window, qtbot, long_log, monkeypatch):
    metrics_made = Calls(monkeypatch, [opening, session_panes, metrics_panel], "LiveMetrics")
    timelines_made = Calls(monkeypatch, [opening, session_panes, timeline_view], "build_timeline")
    window = make_window()
    panes, panel, timeline = parts_of(window).panes, parts_of(window).metrics, parts_of(window).timeline
    assert parts_of(window).navigator.open_path(long_log)
    session = parts_of(window).navigator.session
    assert parts_of(window).navigator.model.rowCount() == len(session.turns) == LONG_TURNS  # the turns are shown
    assert panes.computing
    assert [note.isVisible() for note in panes.notes] == [True, True]
    assert [note.text() for note in panes.notes] == [session_panes.COMPUTING_METRICS, session_panes.COMPUTING_TIMELINE]
    assert panel.metrics is None and timeline.timeline.session is None
    qtbot.waitUntil(lambda: not panes.computing, timeout=120_000)
    assert [note.isVisible() for note in panes.notes] == [False, False]
    assert panel.metrics.values == session_metrics(session).values
    expected = build_timeline(session)
    assert timeline.timeline.session is session
    assert timeline.timeline.turns.payloads == expected.turns.payloads
    assert timeline.selected_turn == parts_of(window).navigator.current_turn().index
    assert (metrics_made.count, timelines_made.count) == (1, 1)  # each made once, neither on the GUI thread
    assert (metrics_made.on_gui_thread, timelines_made.on_gui_thread) == (0, 0)


@pytest.mark.slow
def test_a_change_made_while_the_panes_compute_is_in_their_figures(make_window, qtbot, long_log):
    window = make_window()
    assert parts_of(window).navigator.open_path(long_log)
    session = parts_of(window).navigator.session
    panes = parts_of(window).panes
    assert panes.computing
    _filled(window)  # the worker has read every turn: only the change's replay can show it
    user_turn = next(turn for turn in session.turns if turn.speaker == "user" and not turn.transcription)
    before = session_metrics(session).values
    set_transcription(user_turn, "a change made while the panes were computed")
    after = session_metrics(session).values
    assert after != before
    qtbot.waitUntil(lambda: not panes.computing, timeout=120_000)
    assert parts_of(window).metrics.metrics.values == after


@pytest.mark.slow
def test_another_log_opened_meanwhile_drops_the_result(make_window, qtbot, long_log, raw_log):
    window = make_window()
    assert parts_of(window).navigator.open_path(long_log)
    task = parts_of(window).panes._task
    assert task is not None
    assert parts_of(window).navigator.open_path(raw_log)
    assert task.wait(120)
    qtbot.wait(50)  # the dropped result's signals are delivered
    shown = parts_of(window).navigator.session
    assert not parts_of(window).panes.computing
    assert parts_of(window).metrics.metrics.values == session_metrics(shown).values
    assert parts_of(window).timeline.timeline.session is shown


@pytest.mark.slow
def test_keys_typed_during_a_load_reach_the_editor_once_the_log_is_shown(make_window, qtbot, long_log):
    window = make_window()
    parts_of(window).controller.settings.set_last_position(
        long_log, LastPosition("long", 3), None
    )  # a user turn to transcribe
    typed_while_loading: list[bool] = []

    def type_during_load(_dialog) -> None:
        typed_while_loading.append(parts_of(window).controller.opener.busy)
        window.activateWindow()  # the progress dialog took the activation: the annotator clicks back
        window.table.setFocus()
        qtbot.keyClicks(window.table, TYPED)

    during = DuringLoad(window, type_during_load)
    assert parts_of(window).navigator.open_path(long_log)
    assert during.seen and typed_while_loading == [True]
    turn = parts_of(window).navigator.current_turn()
    assert turn.index == 3 and not turn.transcription
    assert window.editor.text.toPlainText() == TYPED
    assert parts_of(window).controller.pending_text() == (turn, TYPED)


@pytest.mark.slow
def test_keys_that_open_close_or_quit_are_not_kept(make_window, qtbot, long_log, raw_log):
    window = make_window(raw_log)

    def press_reentering_keys(_dialog) -> None:
        window.table.setFocus()
        for key in (Qt.Key.Key_O, Qt.Key.Key_W, Qt.Key.Key_Q):
            qtbot.keyClick(window.table, key, Qt.KeyboardModifier.ControlModifier)

    during = DuringLoad(window, press_reentering_keys)
    assert parts_of(window).navigator.open_path(long_log)
    assert during.seen and parts_of(window).controller.opener._typed == []
    assert window.isVisible() and parts_of(window).controller.document.path == long_log


@pytest.mark.slow
def test_the_doubt_strip_waits_for_the_worker_then_shows_the_doubts(make_window, qtbot, long_log):
    window = make_window()
    assert parts_of(window).navigator.open_path(long_log)
    model = parts_of(window).navigator.model
    user_row = next(turn.index for turn in parts_of(window).navigator.session.turns if turn.speaker == "user")
    colour = Qt.ItemDataRole.BackgroundRole
    assert model.headerData(user_row, Qt.Orientation.Vertical, colour) is None  # not made on the GUI thread
    qtbot.waitUntil(lambda: not parts_of(window).panes.computing, timeout=120_000)
    assert model.headerData(user_row, Qt.Orientation.Vertical, colour) is not None
