"""Helpers of the recovery journal's GUI tests: answering every message box by its button text,
killing a driven window process (window_driver.py), and what its journal must hold afterwards."""

from __future__ import annotations

import json
import signal
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.gui.window_driver import RECOVER_WITHIN_SECONDS, choose_button, run_window, shown_text

# The spec's 2 s, plus room for a loaded machine between the kill and the lines read back.
GENEROUS_SECONDS = RECOVER_WITHIN_SECONDS + 0.5


@dataclass
class Seen:
    title: str
    text: str
    informative: str
    buttons: list[str]  # as labelled, with the '&' of their accelerator
    clicked: str  # as the user reads it


class BoxAnswers:
    """While it runs, clicks on every message box the first button of ANSWERS it has (else its default)."""

    def __init__(self, *answers: str):
        self.answers = list(answers)
        self.seen: list[Seen] = []
        self._timer = QTimer()
        self._timer.setInterval(20)
        self._timer.timeout.connect(self._poll)
        self._timer.start()

    @property
    def titles(self) -> list[str]:
        return [seen.title for seen in self.seen]

    def _poll(self) -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not box.isVisible():
            return
        buttons, chosen = choose_button(box, self.answers)
        self.seen.append(
            Seen(
                box.windowTitle(),
                box.text(),
                box.informativeText(),
                sorted(button.text() for button in box.buttons()),
                shown_text(chosen),
            )
        )
        chosen.click()

    def stop(self) -> None:
        self._timer.stop()


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
