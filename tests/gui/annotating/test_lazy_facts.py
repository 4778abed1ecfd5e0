"""A long session's turn facts are made on the panes' worker after the first paint, not before it
(gui/opening/opener.py, gui/panes/session_panes.py): the GUI thread makes facts only for the rows it paints; the
session bar's progress says it is counting and Ctrl+Enter waits until the worker hands the facts over
(gui/annotating/facts_wait.py); an edit made meanwhile is in the facts, the progress and the index afterwards."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

import annotator.log.facts_cache as facts_cache
import annotator.log.turn_facts as turn_facts
from annotator.analysis.search import Query, search_session
from annotator.gui.annotating.facts_wait import FINDING_NEXT_TEXT
from annotator.gui.annotating.session_bar import COUNTING_TEXT
from annotator.gui.annotating.turn_table_view import MEASURED_ROWS
from annotator.gui.app import parts_of
from annotator.gui.runtime.idle_steps import SLICE_MS, START_AFTER_MS
from annotator.gui.search.find_bar import SEARCHING_TEXT
from annotator.gui.settings import DOUBT_ORDER, LastPosition
from annotator.log.annotations import set_transcription
from tests.support.gui_keys import press, type_text

WAIT_S = 120


class HeldWalk:
    """The panes' worker's walk over the session (facts_cache.facts_of_session) runs, then waits for
    release() before its facts are handed to the cache; every scan_turn is counted by thread."""

    def __init__(self, monkeypatch):
        self.walked, self._released = threading.Event(), threading.Event()
        self.fresh = facts_cache.facts_of_session  # the facts as the tree says, stored nowhere
        self.on_gui_thread = 0
        self.elsewhere = 0
        scan = turn_facts.scan_turn

        def counted(el):
            if threading.current_thread() is threading.main_thread():
                self.on_gui_thread += 1
            else:
                self.elsewhere += 1
            return scan(el)

        def held(session):
            made = self.fresh(session)
            self.walked.set()
            assert self._released.wait(WAIT_S)
            return made

        monkeypatch.setattr(turn_facts, "scan_turn", counted)
        monkeypatch.setattr(facts_cache, "facts_of_session", held)

    def release(self) -> None:
        self._released.set()


@pytest.fixture
def held(monkeypatch):
    walk = HeldWalk(monkeypatch)
    yield walk
    walk.release()  # a test that failed half way does not leave the worker waiting


def _open_and_wait_for_the_walk(make_window, qtbot, path, held):
    window = make_window()
    assert parts_of(window).navigator.open_path(path)
    qtbot.waitUntil(held.walked.is_set, timeout=WAIT_S * 1000)
    qtbot.wait(50)  # the window paints meanwhile
    return window


def _wait_for_the_handover(window, qtbot, held) -> None:
    held.release()
    qtbot.waitUntil(lambda: not parts_of(window).navigator.facts_wait.counting, timeout=WAIT_S * 1000)


def _untranscribed(facts) -> list[int]:
    return [index for index, made in enumerate(facts) if made.speaker == "user" and made.transcription is None]


def _progress_text(facts) -> str:
    users = sum(1 for made in facts if made.speaker == "user")
    left = len(_untranscribed(facts))
    return f"{users - left} of {users} user turns transcribed" + (f" · <b>{left} to go</b>" if left else " · all done")


def _shown_rows(window) -> int:
    table = window.table
    first, last = table.rowAt(0), table.rowAt(table.viewport().height() - 1)
    return (last if last >= 0 else parts_of(window).navigator.model.rowCount() - 1) - first + 1


@pytest.mark.slow
def test_the_gui_thread_makes_facts_only_for_the_rows_it_shows_then_the_progress_is_counted(
    make_window,
    qtbot,
    long_log,
    held,
):
    window = make_window()
    assert parts_of(window).navigator.open_path(long_log)
    window.table.viewport().repaint()  # the first paint of the turn table, now
    session = parts_of(window).navigator.session
    cache = session.document.facts_cache
    assert len(session.turns) == 4000 and window.table.isVisible()
    # The rows painted, and the first and last rows the short columns are fitted to (a constant number).
    assert 0 < held.on_gui_thread <= _shown_rows(window) + 2 * MEASURED_ROWS < len(session.turns) // 10
    assert not cache.untranscribed_ready(session)
    assert parts_of(window).navigator.session_bar.progress.text() == COUNTING_TEXT
    qtbot.waitUntil(held.walked.is_set, timeout=WAIT_S * 1000)
    assert held.elsewhere == len(session.turns)  # the opening worker made none: only the panes' walk
    assert parts_of(window).navigator.session_bar.progress.text() == COUNTING_TEXT
    _wait_for_the_handover(window, qtbot, held)
    progress = parts_of(window).navigator.session_bar.progress.text()
    untranscribed = list(cache.untranscribed(session))
    fresh = held.fresh(session)
    assert progress == _progress_text(fresh) and untranscribed == _untranscribed(fresh)
    stored = [cache.facts(turn) for turn in session.turns]
    assert [(f.speaker, f.transcription, f.asr_text) for f in stored] == [
        (f.speaker, f.transcription, f.asr_text) for f in fresh
    ]


@pytest.mark.slow
def test_an_edit_made_after_the_walk_read_its_turn_is_in_the_facts_the_progress_and_the_index(
    make_window,
    qtbot,
    long_log,
    held,
):
    window = _open_and_wait_for_the_walk(make_window, qtbot, long_log, held)
    session = parts_of(window).navigator.session
    far = [turn for turn in session.turns[2000:] if turn.speaker == "user" and turn.transcription is None]
    set_transcription(far[0], "an edit the walk did not see")  # the walk read this turn untranscribed
    assert parts_of(window).navigator.session_bar.progress.text() == COUNTING_TEXT
    _wait_for_the_handover(window, qtbot, held)
    cache = session.document.facts_cache
    fresh = held.fresh(session)
    assert cache.facts(far[0]).transcription == "an edit the walk did not see"
    assert far[0].index not in cache.untranscribed(session) == _untranscribed(fresh)
    assert parts_of(window).navigator.session_bar.progress.text() == _progress_text(fresh)


@pytest.mark.parametrize("order", ["log", DOUBT_ORDER])
@pytest.mark.slow
def test_ctrl_enter_before_the_facts_are_made_says_so_then_goes_to_the_next_turn(
    make_window,
    qtbot,
    long_log,
    held,
    order,
):
    window = make_window()
    parts_of(window).controller.settings.next_turn_order = order
    parts_of(window).controller.settings.set_last_position(
        long_log, LastPosition("long", 3), None
    )  # a user turn to transcribe
    assert parts_of(window).navigator.open_path(long_log)
    qtbot.waitUntil(held.walked.is_set, timeout=WAIT_S * 1000)
    navigator = parts_of(window).navigator
    turn = navigator.current_turn()
    assert turn.index == 3 and turn.transcription is None
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert turn.transcription == "to boston"  # committed at once
    assert navigator.current_turn() is turn and window.statusBar().currentMessage() == FINDING_NEXT_TEXT
    _wait_for_the_handover(window, qtbot, held)
    session = navigator.session
    if order == DOUBT_ORDER:
        expected = navigator.model.most_doubtful_to_transcribe(3)
    else:
        expected = next(index for index in _untranscribed(held.fresh(session)) if index > 3)
    assert navigator.current_turn().index == expected != 3
    assert navigator.session_bar.progress.text() == _progress_text(held.fresh(session))


@pytest.mark.slow
def test_a_ctrl_enter_that_waited_is_dropped_when_the_annotator_moves_on(make_window, qtbot, long_log, held):
    window = _open_and_wait_for_the_walk(make_window, qtbot, long_log, held)
    navigator = parts_of(window).navigator
    window.table.setFocus()
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert window.statusBar().currentMessage() == FINDING_NEXT_TEXT
    navigator.select_row(10)
    _wait_for_the_handover(window, qtbot, held)
    assert navigator.current_turn().index == 10


@pytest.mark.slow
def test_find_waits_for_the_facts_then_shows_every_hit(make_window, qtbot, long_log, held):
    window = make_window()
    assert parts_of(window).navigator.open_path(long_log)
    window.table.viewport().repaint()
    before = held.on_gui_thread
    press(qtbot, window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    type_text(qtbot, window, "boston")
    count = window.findChild(QLabel, "find_count")
    assert count.text() == SEARCHING_TEXT
    assert held.on_gui_thread == before  # the search made no turn's facts
    qtbot.waitUntil(held.walked.is_set, timeout=WAIT_S * 1000)
    _wait_for_the_handover(window, qtbot, held)
    qtbot.waitUntil(lambda: count.text() != SEARCHING_TEXT)  # searched again once the events now are handled
    hits = search_session(parts_of(window).navigator.session, Query("boston").pattern())
    assert hits and count.text() == f"{len(hits)} hits"


@pytest.mark.slow
def test_the_journal_reads_the_files_values_once_the_facts_are_handed_over(make_window, qtbot, long_log, held):
    """The journal's reading of every annotation (journal/baseline.py) reads every turn's facts: run
    while the worker makes them, it made them all again on the GUI thread, a slice at a time."""
    window = _open_and_wait_for_the_walk(make_window, qtbot, long_log, held)
    made = held.on_gui_thread
    qtbot.wait(START_AFTER_MS + 40 * SLICE_MS)  # the reading would have begun, and read thousands of turns
    assert held.on_gui_thread == made and not parts_of(window).recovery.journal.baseline.ready
    _wait_for_the_handover(window, qtbot, held)
    qtbot.waitUntil(lambda: parts_of(window).recovery.journal.baseline.ready, timeout=WAIT_S * 1000)
    assert held.on_gui_thread == made, "the reading found every turn's facts made"
