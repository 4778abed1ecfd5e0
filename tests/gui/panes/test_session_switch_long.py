"""Showing a long session after the log is open (another session of the log, with Ctrl+PgDown) makes its
metrics and timeline on a worker, as an open does: the window stays responsive while they are made."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

import annotator.gui.panes.session_panes as session_panes
from annotator.analysis.metrics import session_metrics
from annotator.gui.app import parts_of
from tests.support.gui_keys import press, type_text
from tests.support.long_session import make_long_session

LONG_TURNS = 1500  # over PREPARE_AFTER_PAINT_TURNS


@pytest.fixture(scope="module")
def short_then_long_log(tmp_path_factory) -> Path:
    """A log of a 4-turn session followed by a session of LONG_TURNS turns (the benchmark's shape)."""
    folder = tmp_path_factory.mktemp("two")
    make = make_long_session
    short = make(folder / "short.xml", 4).read_text(encoding="utf-8")
    long = make(folder / "long.xml", LONG_TURNS).read_text(encoding="utf-8")
    session = long[long.index("<GC_SESSION") : long.index("</GC_LOG>")].replace('id="long"', 'id="second"', 1)
    path = folder / "two-hublog.xml"
    path.write_text(short.replace("</GC_LOG>", session + "</GC_LOG>"), encoding="utf-8")
    return path


@pytest.mark.slow
def test_a_long_session_shown_later_fills_its_panes_from_a_worker(make_window, qtbot, short_then_long_log, monkeypatch):
    made_on = []
    original = session_panes.LiveMetrics

    def counted(session):
        made_on.append(threading.current_thread() is threading.main_thread())
        return original(session)

    monkeypatch.setattr(session_panes, "LiveMetrics", counted)
    window = make_window(short_then_long_log)
    panes = parts_of(window).panes
    assert len(parts_of(window).navigator.session.turns) == 4 and not panes.computing
    window.table.setFocus()
    press(qtbot, window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    second = parts_of(window).navigator.session
    assert second.id == "second" and parts_of(window).navigator.model.rowCount() == LONG_TURNS
    assert panes.computing and [note.isVisible() for note in panes.notes] == [True, True]
    qtbot.waitUntil(lambda: not panes.computing, timeout=120_000)
    assert made_on == [False]
    assert parts_of(window).metrics.metrics.values == session_metrics(second).values
    assert parts_of(window).timeline.timeline.session is second
    press(qtbot, window, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)  # a short one: on the spot
    assert parts_of(window).navigator.session.id != "second" and not panes.computing
    assert parts_of(window).metrics.metrics.values == session_metrics(parts_of(window).navigator.session).values


@pytest.mark.slow
def test_the_worker_also_indexes_the_turn_ids_the_first_edit_needs(
    make_window, qtbot, short_then_long_log, monkeypatch
):
    import annotator.log.facts_cache as facts_cache

    indexed_on = []
    original = facts_cache._SessionFacts.indices_of_key

    def counted(self, key):
        if self._turns_by_key is None and len(self.session.turns) > 4:  # the long session's index is made
            indexed_on.append(threading.current_thread() is threading.main_thread())
        return original(self, key)

    monkeypatch.setattr(facts_cache._SessionFacts, "indices_of_key", counted)
    window = make_window(short_then_long_log)
    window.table.setFocus()
    press(qtbot, window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not parts_of(window).panes.computing, timeout=120_000)
    assert indexed_on == [False]  # made once, on the worker
    turn = parts_of(window).navigator.session.turns[parts_of(window).navigator.model.next_to_transcribe(0)]
    parts_of(window).navigator.select_row(turn.index, focus_editor=True)
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert turn.transcription == "to boston" and indexed_on == [False]
