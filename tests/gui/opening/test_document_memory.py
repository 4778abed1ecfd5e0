"""A loaded log is frozen out of the cycle collector's walks while it is shown (log/gc_pause.py
hand_over_document), and freed when it is closed or replaced: nothing stays frozen with no log open."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from annotator.gui.app import parts_of
from tests.support.big_log import make_big_log


@pytest.fixture(scope="module")
def log_20mb(tmp_path_factory) -> Path:
    """The benchmark's 20 MB log of many sessions (tests/support/big_log.py)."""
    return make_big_log(tmp_path_factory.mktemp("big") / "big-20mb-hublog.xml", 20)


@pytest.mark.slow
def test_a_shown_log_is_frozen_and_closing_it_unfreezes_and_frees_it(make_window, log_20mb):
    window = make_window()
    assert parts_of(window).navigator.open_path(log_20mb)
    document = weakref.ref(parts_of(window).controller.document)
    assert gc.get_freeze_count() > 100_000  # the log's objects are out of the collector's walks
    assert parts_of(window).controller.close_document()
    assert gc.get_freeze_count() == 0
    gc.collect()  # what the GUI thread's collector does on its timer
    assert document() is None


@pytest.mark.slow
def test_a_replaced_log_is_freed_and_the_new_one_frozen(make_window, log_20mb, raw_log):
    window = make_window()
    assert parts_of(window).navigator.open_path(log_20mb)
    big = weakref.ref(parts_of(window).controller.document)
    assert parts_of(window).navigator.open_path(raw_log)
    assert big() is None  # freed by reference counting at the hand-over: no collection walked it
    assert gc.get_freeze_count() > 0
    assert parts_of(window).controller.close_document()
    assert gc.get_freeze_count() == 0


@pytest.mark.slow
def test_a_long_sessions_facts_made_on_the_panes_worker_are_out_of_the_collectors_walks(make_window, qtbot, long_log):
    """The worker makes every turn's facts after the paint; left young, the GUI thread's collector walked them at
    its next tick (200-400 ms at 70,000 turns)."""
    from annotator.log.turn_facts import TurnFacts

    window = make_window()
    assert parts_of(window).navigator.open_path(long_log)
    qtbot.waitUntil(lambda: not parts_of(window).panes.computing, timeout=120_000)
    turns = len(parts_of(window).navigator.session.turns)
    assert parts_of(window).controller.document.facts_cache.untranscribed_ready(parts_of(window).navigator.session)
    young = sum(isinstance(thing, TurnFacts) for thing in gc.get_objects())
    assert young < turns // 10, f"{young} of {turns} turns' facts left for the collector to walk"


@pytest.mark.slow
def test_the_facts_the_recovery_journal_reads_are_out_of_the_collectors_walks(make_window, qtbot, log_20mb):
    """The journal's reading of the file's values (in slices on the GUI thread) makes the facts of every session
    not shown; left young, the collector walked them between two slices (160 ms at 100 MB)."""
    from annotator.log.turn_facts import TurnFacts

    window = make_window()
    assert parts_of(window).navigator.open_path(log_20mb)
    journal = parts_of(window).recovery.journal
    qtbot.waitUntil(lambda: journal.baseline.ready, timeout=120_000)
    turns = sum(len(session.turns) for session in parts_of(window).controller.document.sessions)
    young = sum(isinstance(thing, TurnFacts) for thing in gc.get_objects())
    assert young < turns // 10, f"{young} of {turns} turns' facts left for the collector to walk"
