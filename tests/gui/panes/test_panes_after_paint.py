"""A long session's panes are made on a worker that begins once the turns have painted: its Python work
held the GIL against that first paint (gui/runtime/after_paint.py PaintGate)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject

from annotator.gui.app import parts_of
from annotator.gui.opening import opener as opening
from annotator.gui.panes import session_panes
from annotator.gui.runtime import after_paint
from tests.support.long_session import make_long_session

TURNS = 1200


@pytest.fixture(scope="module")
def long_log(tmp_path_factory) -> Path:
    """One session of TURNS turns (the benchmarks' long_session.py), long enough to be made on a worker."""
    assert TURNS >= opening.PREPARE_AFTER_PAINT_TURNS
    return make_long_session(tmp_path_factory.mktemp("long") / "long-hublog.xml", TURNS)


class _Marks(QObject):
    """ "paint" at each paint of the watched widget; the worker adds its own mark."""

    def __init__(self, widget):
        super().__init__(widget)
        self.marks: list[tuple[str, bool]] = []  # (what, on the GUI thread)
        widget.installEventFilter(self)

    def add(self, what: str) -> None:
        self.marks.append((what, threading.current_thread() is threading.main_thread()))

    def eventFilter(self, _watched, event):
        if event.type() == QEvent.Type.Paint:
            self.add("paint")
        return False


@pytest.mark.slow
def test_the_panes_worker_begins_after_the_first_paint(make_window, qtbot, long_log, monkeypatch):
    window = make_window()
    marks = _Marks(parts_of(window).panes.notes[-1])  # the timeline's "Computing…", which the worker waits for
    make_panes = session_panes._make_panes

    def marked(session, context):
        marks.add("worker")
        return make_panes(session, context)

    monkeypatch.setattr(session_panes, "_make_panes", marked)
    monkeypatch.setattr(after_paint, "LONGEST_WAIT_MS", 120_000)  # only the paint lets the worker begin
    parts_of(window).controller.document_opened.connect(lambda _document: marks.add("hand-over"))
    # The note is shown in the open's last pass (gui/opening/hand_over_passes.py) and painted after it: a worker not
    # waiting for that paint would begin before it.
    assert parts_of(window).navigator.open_path(long_log)
    panes = parts_of(window).panes
    qtbot.waitUntil(lambda: not panes.computing, timeout=120_000)
    assert ("worker", False) in marks.marks  # made off the GUI thread
    after_hand_over = marks.marks[marks.marks.index(("hand-over", True)) :]
    assert after_hand_over.index(("paint", True)) < after_hand_over.index(("worker", False))
    assert parts_of(window).timeline.lane_names()  # the panes were filled from the worker
