"""A window process driven by real keys and killed with SIGKILL (window_driver.py), for the recovery journal's GUI
tests: what its journal must hold afterwards, and another program changing the log behind an open window."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from tests.support.window_driver import RECOVER_WITHIN_SECONDS, run_window

# The spec's 2 s, plus room for a loaded machine between the kill and the lines read back.
GENEROUS_SECONDS = RECOVER_WITHIN_SECONDS + 0.5


def run_and_kill(log: Path, tmp_path: Path, plan: list[dict], name: str = "killed", answers=()) -> list[dict]:
    """Run PLAN in a window process of its own that ends with SIGKILL; its JSON lines."""
    process = run_window(log, tmp_path / f"{name}-settings", plan + [{"kill": True}], answers)
    out, err = process.communicate(timeout=300)
    assert process.returncode == -signal.SIGKILL, err[-3000:]
    return [json.loads(line) for line in out.splitlines()]


def acceptable_states(lines: list[dict], within: float = GENEROUS_SECONDS) -> list[dict]:
    """The states a journal may hold after the kill that ended LINES: each edit older than WITHIN
    seconds at the kill must be in it, so the state after the last of those or any later one."""
    states = [line for line in lines if line["event"] in ("opened", "step", "done")]
    killed_at = lines[-1]["t"]  # the kill came after the last line, so every age is at least this
    old_enough = [i for i, line in enumerate(states) if line["t"] <= killed_at - within]
    first = old_enough[-1] if old_enough else 0
    return [line["state"] for line in states[first:]]


def changed_behind_the_window(raw_log: Path) -> None:
    """Another program sets the first session's task completion in RAW_LOG while the window has it open."""
    from annotator.log.annotations import set_task_completion
    from annotator.log.document import LogDocument

    theirs = LogDocument.load(raw_log)
    set_task_completion(theirs.sessions[0], "1")
    theirs.save()


def assert_reloaded_with_the_edit_on_top(window, typed: str) -> None:
    """The window shows the file another program changed (changed_behind_the_window), TYPED back on top of it, unsaved."""
    from annotator.gui.app import parts_of

    session = parts_of(window).controller.document.sessions[0]
    assert session.task_completion == "1", "the new file is loaded"
    assert session.user_turns[0].transcription == typed, "and the unsaved edit is back on top of it"
    assert window.isWindowModified()


TYPED = "i want to fly to boston on friday"


def crash_after_typing(log: Path, tmp_path: Path) -> None:
    """A window on LOG that typed TYPED into user turn 02, committed it, waited as long as the journal may take,
    and was killed."""
    lines = run_and_kill(
        log,
        tmp_path,
        [{"row": 0}, {"keys": "Ctrl+Down"}, {"type": TYPED}, {"keys": "Ctrl+Return"}, {"wait": GENEROUS_SECONDS}],
    )
    assert lines[-1]["state"]["transcriptions"]["02"] == TYPED
