"""SIGTERM and SIGHUP (a logout, `kill`, systemd) end the real window with the annotator's typing in the
recovery journal, even typing of the last moment that no journal write had taken yet; the next start offers
it back (annotator/gui/runtime/stop_signals.py). The window runs in a process of its own (window_driver)."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from annotator.gui.app import parts_of
from tests.support.window_driver import run_window

TYPED = "typed a moment before the logout"


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
@pytest.mark.slow
def test_a_stop_signal_keeps_the_last_moment_s_typing_for_the_next_start(
    make_window, raw_log: Path, tmp_path: Path, boxes, name: str
):
    process = run_window(raw_log, tmp_path / "stopped-settings", [{"type": TYPED}, {"signal": name}])
    _out, err = process.communicate(timeout=300)
    assert process.returncode == 128 + signal.Signals[name], err[-3000:]
    assert err.splitlines()[-1] == f"annotator: stopped by {name}; unsaved work is kept in the recovery journal"
    answers = boxes("Restore")
    window = make_window(raw_log)
    assert answers.titles == ["Restore unsaved work?"]
    editor = parts_of(window).navigator.editor
    assert editor.turn is parts_of(window).controller.document.sessions[0].user_turns[0]
    assert editor.text.toPlainText() == TYPED and editor.has_pending_edit, "a draft in its editor, as it was"


@pytest.mark.slow
def test_a_stop_signal_with_nothing_unsaved_promises_no_journal(raw_log: Path, tmp_path: Path, isolated_user_data):
    process = run_window(raw_log, tmp_path / "stopped-settings", [{"wait": 0.2}, {"signal": "SIGTERM"}])
    _out, err = process.communicate(timeout=300)
    assert process.returncode == 128 + signal.SIGTERM, err[-3000:]
    assert err.splitlines()[-1] == "annotator: stopped by SIGTERM; nothing was unsaved"
    journals = isolated_user_data / "journals"
    assert not journals.exists() or not any(journals.iterdir()), "no journal, no lock left behind"


@pytest.mark.slow
def test_a_stop_signal_says_when_the_journal_cannot_keep_the_typing(raw_log: Path, tmp_path: Path):
    blocked = tmp_path / "a-file"
    blocked.write_text("the data folder cannot be made below a file")
    env = {**os.environ, "ANNOTATOR_DATA_DIR": str(blocked / "data")}
    plan = [{"type": TYPED}, {"signal": "SIGTERM"}]
    process = run_window(raw_log, tmp_path / "stopped-settings", plan, env=env)
    _out, err = process.communicate(timeout=300)
    assert process.returncode == 128 + signal.SIGTERM, err[-3000:]
    last = err.splitlines()[-1]
    assert last.startswith("annotator: stopped by SIGTERM; unsaved work could not be kept: "), last
    assert "recovery journal folder" in last and "kept in the recovery journal" not in last, last
