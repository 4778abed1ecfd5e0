"""Run the real window in a process of its own and drive it with real key presses, for tests that
SIGKILL it: the recovery journal tests and the journal kill loop (tests/stress).

    python -m tests.support.window_driver LOG SETTINGS_FOLDER PLAN_JSON

PLAN_JSON is a list of steps, done in order once the log is open:
    {"keys": "Ctrl+I"}          a real key press (QKeySequence text) to the focus widget
    {"type": "some words"}      real key presses, one a character
    {"paste": 11000}            that many characters through the clipboard and Ctrl+V
    {"wait": 0.5}               seconds of the event loop running
    {"row": 0}                  select that row of the turn table, as a click on it would (0: the greeting)
    {"busy": 3}                 seconds of the GUI thread blocked (no events processed)
    {"child": 60}               the event loop running until a child process (validation) runs, at most that long
    {"kill": true}              SIGKILL this process
    {"signal": "SIGTERM"}       send this process that signal (the app ends as its handler says)
A step may carry "answer": [button texts] for the message boxes it raises. The open itself
answers with ANSWERS (the environment variable WINDOW_ANSWERS, JSON: button texts in order
of preference; a box with none of them gets its default button).

Once a step has closed the window (Ctrl+Q), the driver says "closed" and ends the process as
the app's own main does when its window closes.

Each line on stdout is JSON: {"event": "opened" | "step" | "changed" | "asked" | "closed" | "done", "t": time.monotonic()
(the same clock in every process on the machine), "state": the annotations the annotator
sees: each user turn's transcription, with the editor's uncommitted text in its turn, and the
session's task completion}. A step's line is written once the step is done; a "changed" line the moment a
step changes an annotation of the opened log, before the step goes on (a kill inside a step, after the
journal took the change, then still finds the state said).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

from annotator.gui.app import parts_of

RECOVER_WITHIN_SECONDS = 2.0  # the README's promise: every edit is journalled within 2 s of being made


def annotations_seen(window) -> dict:
    """What the window shows: each user turn's transcription (the editor's typing in its turn), task completion."""
    from annotator.log.text import clean_text

    document = parts_of(window).controller.document
    if document is None:
        return {}
    session = document.sessions[0]
    texts = {turn.id: turn.transcription for turn in session.user_turns}
    editor = window.editor
    if editor.has_pending_edit:
        texts[editor.turn.id] = clean_text(editor.text.toPlainText()) or None
    return {"transcriptions": texts, "task": session.task_completion}


def _say(event: str, window, **extra) -> None:
    line = {"event": event, "t": time.monotonic(), "state": annotations_seen(window), **extra}
    sys.stdout.write(json.dumps(line) + "\n")
    sys.stdout.flush()


class _Answerer:
    """Clicks the first of ANSWERS found on each message box that appears (else its default button)."""

    def __init__(self, window):
        from PySide6.QtCore import QTimer

        self.window = window
        self.answers: list[str] = []
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        from PySide6.QtWidgets import QApplication, QMessageBox

        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            return
        buttons, chosen = choose_button(box, self.answers)
        _say(
            "asked",
            self.window,
            title=box.windowTitle(),
            text=box.text(),
            buttons=sorted(buttons),
            clicked=shown_text(chosen) if chosen is not None else None,
        )
        (chosen or box.buttons()[0]).click()


def shown_text(button) -> str:
    """A button's label as the user reads it: without the '&' that marks its accelerator."""
    return button.text().replace("&", "")


def choose_button(box, answers: list[str]):
    """BOX's buttons by label, and the first of ANSWERS it has (else its default button)."""
    buttons = {shown_text(button): button for button in box.buttons()}
    return buttons, next((buttons[text] for text in answers if text in buttons), box.defaultButton())


def main(log: str, settings: str, plan: list[dict]) -> None:
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QKeySequence
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings)
    from annotator.gui.app import build_window, make_application, stop_on_signals

    app = make_application()
    window = build_window()
    stop_on_signals(parts_of(window))  # as the app's own main does: SIGTERM keeps the work in the journal
    window.show()
    window.activateWindow()
    QTest.qWaitForWindowActive(window)
    answerer = _Answerer(window)
    answerer.answers = json.loads(os.environ.get("WINDOW_ANSWERS", "[]"))
    opened = parts_of(window).navigator.open_path(log)
    window.activateWindow()  # the offscreen platform does not give it back after a question
    QTest.qWaitForWindowActive(window)
    _say("opened", window, opened=opened, title=window.windowTitle())
    document = parts_of(window).controller.document
    if document is not None:  # said as it happens: a kill inside a step may come after the journal has it
        document.add_listener(lambda _change: _say("changed", window))

    def focus():
        return QApplication.focusWidget() or window

    def run_events(seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.005)

    for step in plan:
        answerer.answers = step.get("answer", answerer.answers)
        if "keys" in step:
            combination = QKeySequence(step["keys"])[0]
            QTest.keyClick(focus(), combination.key(), combination.keyboardModifiers())
        elif "type" in step:
            QTest.keyClicks(focus(), step["type"])
        elif "paste" in step:
            words = ("boston austin denver friday morning please " * (step["paste"] // 43 + 1))[: step["paste"]]
            QApplication.clipboard().setText(words)
            QTest.keyClick(focus(), QKeySequence("Ctrl+V")[0].key(), QKeySequence("Ctrl+V")[0].keyboardModifiers())
        elif "wait" in step:
            run_events(step["wait"])
        elif "row" in step:
            parts_of(window).navigator.select_row(step["row"])
        elif "busy" in step:
            time.sleep(step["busy"])
        elif "child" in step:
            deadline = time.monotonic() + step["child"]
            while not children_of(os.getpid()) and time.monotonic() < deadline:
                run_events(0.01)
        elif step.get("kill"):
            os.kill(os.getpid(), signal.SIGKILL)
        elif "signal" in step:
            os.kill(os.getpid(), signal.Signals[step["signal"]])
            run_events(10)  # the handler ends the process
        _say("step", window, step=step if "paste" not in step else {"paste": step["paste"]}, title=window.windowTitle())
        if not window.isVisible():
            from annotator.gui.app import end_process

            _say("closed", window, children=children_of(os.getpid()))
            parts_of(window).playback.close()  # what the app's main does once its event loop has ended
            end_process(0)
    _say("done", window)
    run_events(3600)


def run_window(log: Path, settings: Path, plan: list[dict], answers: list[str] = (), env: dict | None = None):
    """Start the driver on LOG in a new process; returns the Popen (stdout: the JSON lines, text)."""
    import subprocess

    repo = Path(__file__).resolve().parents[2]
    settings.mkdir(parents=True, exist_ok=True)
    environment = dict(env if env is not None else os.environ)
    environment["WINDOW_ANSWERS"] = json.dumps(list(answers))
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(repo), environment.get("PYTHONPATH")]))
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.window_driver", str(log), str(settings), json.dumps(plan)],
        cwd=repo,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def read_lines(process, until: str | None = None) -> list[dict]:
    """The JSON lines the driver wrote: all of them once it has ended, or up to the first UNTIL event."""
    lines = []
    for raw in process.stdout:
        line = json.loads(raw)
        lines.append(line)
        if line["event"] == until:
            break
    return lines


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def is_running(pid: int) -> bool:
    """Alive and not a zombie (a re-parented child nobody reaps in a container still counts as gone)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))
