"""In team mode a log opens on the turn where *this* annotator stopped, and a corpus on the log they last opened:
positions are kept per log and annotator, so Bob does not open on Alice's turn nor her log. A position stored
before they were kept per annotator (one per log) is still where the log opens."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt

from annotator.gui.app import parts_of
from annotator.team.mode import set_team_mode
from tests.support.gui_keys import close_window, press
from tests.support.modal_answers import answer_input
from tests.support.team_corpora import open_window_as

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _current_turn(window) -> int:
    return parts_of(window).navigator.current_turn().index


def _next_user_turns(qtbot, window, times: int) -> int:
    """Ctrl+Down TIMES, as the annotator moves on; the turn it ends on."""
    for _ in range(times):
        press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    return _current_turn(window)


def _turn_it_opens_on(make_window, log: Path, annotator: str) -> int:
    window = open_window_as(make_window, log, annotator)
    turn = _current_turn(window)
    close_window(window)
    return turn


def _alice_moves_on(make_window, qtbot, log: Path, times: int):
    """Team mode on; Alice opens LOG and moves TIMES user turns on: her window, the turn she opened on and the
    turn she is on."""
    set_team_mode(log.parent.parent, True)
    window = open_window_as(make_window, log, "alice")
    opened_on = _current_turn(window)
    return window, opened_on, _next_user_turns(qtbot, window, times)


@pytest.mark.slow
def test_in_team_mode_each_annotator_opens_on_the_turn_where_they_stopped(make_window, qtbot, raw_log: Path):
    window, first_to_transcribe, alice_stopped = _alice_moves_on(make_window, qtbot, raw_log, 3)
    assert alice_stopped != first_to_transcribe
    close_window(window)

    window = open_window_as(make_window, raw_log, "bob")
    assert _current_turn(window) == first_to_transcribe, "Bob opens where he starts, not where Alice stopped"
    bob_stopped = _next_user_turns(qtbot, window, 1)
    assert bob_stopped not in (first_to_transcribe, alice_stopped)
    close_window(window)

    assert _turn_it_opens_on(make_window, raw_log, "alice") == alice_stopped
    assert _turn_it_opens_on(make_window, raw_log, "bob") == bob_stopped


@pytest.mark.slow
def test_renaming_the_annotator_keeps_the_last_move_as_the_previous_annotators(make_window, qtbot, raw_log: Path):
    """The move is written a moment after the selection rests: renamed meanwhile, it stays the old name's."""
    window, first_to_transcribe, alice_stopped = _alice_moves_on(make_window, qtbot, raw_log, 2)
    answer_input(qtbot, "bob")
    assert parts_of(window).team.ask_annotator_name()
    assert _current_turn(window) == first_to_transcribe, "Bob, after the reload, is not on Alice's turn"
    close_window(window)
    assert _turn_it_opens_on(make_window, raw_log, "alice") == alice_stopped


def _store_as_before_positions_per_annotator(log: Path, session_id: str, turn_index: int) -> None:
    """The one position per log an earlier version wrote, in its own key and form."""
    digest = hashlib.sha1(os.fsencode(log.resolve())).hexdigest()
    stored = {"path": str(log.resolve()), "session": session_id, "turn": turn_index}
    QSettings().setValue(f"last_position/{digest}", json.dumps(stored))


@pytest.mark.slow
def test_a_position_stored_before_positions_were_per_annotator_is_where_the_log_opens(
    make_window, qtbot, raw_log: Path
):
    window = make_window(raw_log)
    session = parts_of(window).navigator.session
    first_to_transcribe = _current_turn(window)
    stored_turn = session.user_turns[4].index
    close_window(window)
    _store_as_before_positions_per_annotator(raw_log, session.id, stored_turn)

    window = make_window(raw_log)
    assert _current_turn(window) == stored_turn, "outside team mode, as before"
    close_window(window)

    set_team_mode(raw_log.parent.parent, True)
    window = open_window_as(make_window, raw_log, "alice")
    assert _current_turn(window) == stored_turn, "nobody's own position yet: the stored one"
    alice_stopped = _next_user_turns(qtbot, window, 1)
    close_window(window)
    assert _turn_it_opens_on(make_window, raw_log, "bob") == first_to_transcribe, "it may be Alice's: not Bob's"
    assert _turn_it_opens_on(make_window, raw_log, "alice") == alice_stopped


def _log_the_corpus_opens_on(qtbot, make_window, corpus: Path, annotator: str, then_open: Path | None = None) -> Path:
    """ANNOTATOR opens the folder CORPUS (and then the log THEN_OPEN from it): the log it opened on."""
    window = open_window_as(make_window, corpus, annotator)
    opened_on = parts_of(window).controller.document.path.resolve()
    if then_open is not None:
        assert parts_of(window).navigator.open_path(then_open)
    qtbot.waitUntil(lambda: not parts_of(window).browser.is_scanning, timeout=30000)
    close_window(window)
    return opened_on


@pytest.mark.slow
def test_in_team_mode_a_corpus_opens_on_the_log_this_annotator_last_opened(make_window, qtbot, corpus: Path):
    set_team_mode(corpus, True)
    alices = (corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml").resolve()
    first = _log_the_corpus_opens_on(qtbot, make_window, corpus, "alice", then_open=alices)
    assert first != alices
    assert _log_the_corpus_opens_on(qtbot, make_window, corpus, "bob") == first, "not the log Alice last opened"
    assert _log_the_corpus_opens_on(qtbot, make_window, corpus, "alice") == alices
