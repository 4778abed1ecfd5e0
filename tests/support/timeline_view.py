"""The timeline for its GUI tests: a TimelineView shown on its own on a real log, and a long timed session opened
in the whole window (where the window opens the timeline, how far ahead the turn table makes its rows)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from annotator.gui.main_window import MainWindow
from annotator.gui.timeline.view import TimelineView
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

TURNS = 300
TURN_SECONDS = 5.0  # each turn starts 5 s after the previous one: a 25-minute session


def show_timeline(qtbot, path: Path | None = None, width: int = 1400, height: int = 420) -> TimelineView:
    view = TimelineView()
    qtbot.addWidget(view)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    if path is not None:
        view.set_session(LogDocument.load(path).sessions[0])
        QApplication.processEvents()
    return view


def long_timed_log(folder: Path) -> Path:
    """A session of TURNS turns, one every TURN_SECONDS, user and system in turn, in FOLDER."""
    turns = [
        (user_turn if i % 2 else system_turn)(str(i + 1), 1000.0 + i * TURN_SECONDS, f"words {i}") for i in range(TURNS)
    ]
    text = log_text([session("long", turns, start=1000.0, end=1000.0 + TURNS * TURN_SECONDS)])
    return write_log(folder / "long-hublog.xml", text)


def open_window(make_window, path: Path) -> MainWindow:
    """The window (from the make_window fixture) on PATH, its queued events run."""
    window = make_window(path)
    QApplication.processEvents()
    return window
