"""A TimelineView shown on its own, on a real log, for the timeline's GUI tests."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from annotator.gui.timeline.view import TimelineView
from annotator.log.document import LogDocument


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
