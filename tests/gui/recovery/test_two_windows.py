"""Two windows on one log, each in a real process of its own: the second is told the log is
open and may look at it read-only, neither is offered the other's live work, neither deletes
the other's journal, and after both crash the work of both comes back."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from tests.support.gui_keys import press, type_text
from tests.support.killed_windows import GENEROUS_SECONDS, run_and_kill
from tests.support.window_driver import read_lines, run_window

Key, Mod = Qt.Key, Qt.KeyboardModifier
FIRST, SECOND = "first window words", "second window words"


def _editing_window(log: Path, tmp_path: Path, name: str, plan: list[dict], answers=()):
    """A window process that made PLAN's edits, had them journalled, and is still running."""
    process = run_window(log, tmp_path / f"{name}-settings", plan + [{"wait": GENEROUS_SECONDS}], answers)
    lines = read_lines(process, until="done")
    assert lines and lines[-1]["event"] == "done", process.stderr.read() if process.poll() is not None else ""
    return process, lines


def _kill(process) -> None:
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)


@pytest.mark.slow
def test_a_log_open_elsewhere_is_offered_read_only_and_its_work_stays_its_own(
    make_window, raw_log: Path, tmp_path: Path, qtbot, boxes
):
    first, _ = _editing_window(
        raw_log, tmp_path, "first", [{"row": 0}, {"keys": "Ctrl+Down"}, {"type": FIRST}, {"keys": "Ctrl+Return"}]
    )
    try:
        journals = sorted(path.name for path in (tmp_path / "user-data" / "journals").glob("*.json"))
        answers = boxes("Open read-only")
        window = make_window(raw_log)
        assert answers.titles == ["Log already open"], "the live window's work is not a crash leftover"
        assert "read-only" in window.windowTitle()
        assert parts_of(window).controller.document.sessions[0].user_turns[0].transcription is None
        parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
        press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
        type_text(qtbot, window, "no")
        press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
        press(qtbot, window, Key.Key_S, Mod.ControlModifier)
        assert window.editor.text.toPlainText() == "" and parts_of(window).navigator.session.task_completion is None
        assert not window.isWindowModified() and LogDocument.load(raw_log).sessions[0].task_completion is None
        assert "read-only" in window.statusBar().currentMessage()
        assert window.close(), "nothing to ask about"
        assert sorted(path.name for path in (tmp_path / "user-data" / "journals").glob("*.json")) == journals
    finally:
        _kill(first)
    answers = boxes("Restore")
    window = make_window(raw_log)  # the first window is dead now: its work is a leftover
    assert answers.titles == ["Restore unsaved work?"]
    assert parts_of(window).controller.document.sessions[0].user_turns[0].transcription == FIRST


@pytest.mark.slow
def test_two_windows_editing_one_log_both_crash_and_both_are_restored(
    make_window, raw_log: Path, tmp_path: Path, boxes
):
    window = _restored_after_both_crash(make_window, raw_log, tmp_path, boxes, [{"keys": "Ctrl+Return"}])
    users = parts_of(window).controller.document.sessions[0].user_turns
    assert (users[0].transcription, users[1].transcription) == (FIRST, SECOND)


@pytest.mark.slow
def test_the_typing_of_two_crashed_windows_comes_back_the_newest_as_the_draft(
    make_window, raw_log: Path, tmp_path: Path, boxes
):
    """Neither window stored its typing (no Ctrl+Enter): one editor can hold one draft, the other typing comes back
    as its turn's value, unsaved."""
    window = _restored_after_both_crash(make_window, raw_log, tmp_path, boxes, [])
    users = parts_of(window).controller.document.sessions[0].user_turns
    drafts = {turn.id: window.editor.text.toPlainText() for turn in users if turn is window.editor.turn}
    shown = {turn.id: drafts.get(turn.id, turn.transcription) for turn in users[:2]}
    assert shown == {users[0].id: FIRST, users[1].id: SECOND}, "both windows' typing is back"
    assert len(drafts) == 1 and parts_of(window).controller.pending_text() is not None, "one of them as the draft"
    assert window.isWindowModified()


def _restored_after_both_crash(make_window, raw_log: Path, tmp_path: Path, boxes, after_typing: list[dict]):
    """The first window types FIRST on the first user turn, the second SECOND on the next, each then doing
    AFTER_TYPING; both are killed, and a new window restores their work."""
    first, _ = _editing_window(
        raw_log, tmp_path, "first", [{"row": 0}, {"keys": "Ctrl+Down"}, {"type": FIRST}, *after_typing]
    )
    try:  # the second window edits too (and would say Discard if offered the first one's work)
        second, _ = _editing_window(
            raw_log,
            tmp_path,
            "second",
            [{"row": 0}, {"keys": "Ctrl+Down"}, {"keys": "Ctrl+Down"}, {"type": SECOND}, *after_typing],
            answers=["Edit here too", "Discard"],
        )
        _kill(second)
    finally:
        _kill(first)
    answers = boxes("Restore")
    window = make_window(raw_log)
    assert answers.titles == ["Restore unsaved work?"]
    return window


@pytest.mark.slow
def test_a_stale_lock_of_a_killed_window_is_recognised(make_window, raw_log: Path, tmp_path: Path, boxes):
    lines = run_and_kill(
        raw_log,
        tmp_path,
        [{"row": 0}, {"keys": "Ctrl+Down"}, {"type": FIRST}, {"keys": "Ctrl+Return"}, {"wait": GENEROUS_SECONDS}],
    )
    assert lines[-1]["state"]["transcriptions"]["02"] == FIRST
    answers = boxes("Discard")
    assert make_window(raw_log).close()
    assert answers.titles == ["Restore unsaved work?"], "a dead window's lock does not make the log 'open'"
    answers = boxes()
    window = make_window(raw_log)
    assert answers.titles == [], "its leftovers are offered once"
    assert parts_of(window).controller.document.sessions[0].user_turns[0].transcription is None
