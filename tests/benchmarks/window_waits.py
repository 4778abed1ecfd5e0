"""Waiting, in a benchmark of the real window, for the background work an open starts (the log's
validation in a child process, once the turns have painted; a long session's panes on a worker), so
that a measurement does not share the cores with it."""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of


def events_until(app: QApplication, done: Callable[[], bool]) -> None:
    """Run the window's events until DONE()."""
    while not done():
        app.processEvents()
        time.sleep(0.01)


def wait_for_validation(app: QApplication, window) -> None:
    validation = parts_of(window).validation
    events_until(app, lambda: validation._validation_start is None)  # it starts once the opened log painted
    events_until(app, lambda: validation._validation is None or not validation._validation.is_running)


def wait_for_panes(app: QApplication, window) -> None:
    events_until(app, lambda: not parts_of(window).panes.computing)


def wait_for_journal_baseline(app: QApplication, window) -> None:
    """The recovery journal's reading of the file's values, in slices on the GUI thread after an open."""
    events_until(
        app, lambda: parts_of(window).recovery.journal is None or parts_of(window).recovery.journal.baseline.ready
    )
