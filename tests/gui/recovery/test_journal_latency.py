"""Every edit is journalled within 2 s of being made, however fast edits come and however busy
the GUI thread is: a window process is driven with real keys, killed with SIGKILL, and a fresh
window must restore at least every edit older than 2 s (plus room for load) at the kill."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.gui.annotating.transcription_text import EDITOR_MAX_CHARS
from annotator.log.text import clean_text
from tests.support.killed_windows import GENEROUS_SECONDS, acceptable_states, run_and_kill
from tests.support.window_driver import annotations_seen

PAUSE = 0.3  # seconds between edits: far less than the old 1.5 s debounce

BURST = [{"row": 0}, {"keys": "Ctrl+Down"}]
for _turn in range(5):  # pre-fill and store each of the five user turns of the sample session
    BURST += [{"keys": "Ctrl+I"}, {"wait": PAUSE}, {"keys": "Ctrl+Return"}, {"wait": PAUSE}]
BURST += [
    {"keys": "Ctrl+Alt+1"},
    {"wait": PAUSE},
    {"keys": "Ctrl+Alt+0"},
    {"wait": PAUSE},
    {"keys": "Ctrl+Z"},
    {"wait": PAUSE},
    {"keys": "Ctrl+Z"},
    {"wait": PAUSE},
    {"keys": "Ctrl+Shift+Z"},
    {"wait": PAUSE},
    {"keys": "Ctrl+Alt+1"},
]


def _restored(make_window, log: Path, boxes) -> dict:
    answers = boxes("Restore")
    window = make_window(log)
    assert answers.titles == ["Restore unsaved work?"], "the killed window's work is offered"
    return annotations_seen(window)


@pytest.mark.slow
def test_edits_closer_than_the_old_debounce_are_journalled_mid_burst(make_window, raw_log: Path, tmp_path: Path, boxes):
    lines = run_and_kill(raw_log, tmp_path, BURST)  # killed right after the last edit
    edits_old_enough = [line for line in lines if line["t"] <= lines[-1]["t"] - GENEROUS_SECONDS]
    assert len(edits_old_enough) > 10, "the burst is long enough for most of it to be due"
    assert _restored(make_window, raw_log, boxes) in acceptable_states(lines)


@pytest.mark.slow
def test_a_busy_gui_thread_does_not_hold_the_journal_back(make_window, raw_log: Path, tmp_path: Path, boxes):
    """The longest transcription the editor takes (a paste past EDITOR_MAX_CHARS is refused) stored, then the GUI
    thread blocked for 5 s until the kill."""
    plan = [
        {"row": 0},
        {"keys": "Ctrl+Down"},
        {"paste": EDITOR_MAX_CHARS - 100},
        {"keys": "Ctrl+Return"},
        {"keys": "Ctrl+Alt+1"},
        {"busy": 5},
    ]
    lines = run_and_kill(raw_log, tmp_path, plan)
    state = _restored(make_window, raw_log, boxes)
    assert state == lines[-1]["state"] == lines[-2]["state"], "every edit made before the GUI thread got busy"
    assert len(state["transcriptions"]["02"]) == len(clean_text(lines[-1]["state"]["transcriptions"]["02"])) > 11_000
    assert state["task"] == "1"
