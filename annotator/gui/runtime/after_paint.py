"""Background work an open starts, started once the window has painted the new log.

Validating a log starts a child Python process (seconds of a core on a 100 MB log). Started with the
hand-over, it took one of the machine's two cores while the GUI thread painted the turn table and the
timeline for the first time, and the first paint waited for a core. AfterPaint calls its function
just after the next paint of a widget (the turn table's rows), or after LONGEST_WAIT_MS if the widget
does not paint (a hidden window). A worker's Python work holds the GIL against that paint the same
way: PaintGate lets a worker started at once wait for the paint (at most LONGEST_WAIT_MS, also when the
GUI thread is itself waiting for the worker).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

LONGEST_WAIT_MS = 300


class AfterPaint(QObject):
    """Calls THEN once, after WIDGET's next paint (see the module's docstring); cancel() drops it."""

    def __init__(self, widget: QWidget, then: Callable[[], None], longest_wait_ms: int = LONGEST_WAIT_MS):
        super().__init__(widget)
        self._widget = widget
        self._then: Callable[[], None] | None = then
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._run)
        self._timer.start(longest_wait_ms)
        widget.installEventFilter(self)

    @property
    def waiting(self) -> bool:
        return self._then is not None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._widget and event.type() == QEvent.Type.Paint and self._then is not None:
            self._timer.start(0)  # once the paint under way has ended
        return False

    def _run(self) -> None:
        then = self._then
        self.cancel()
        if then is not None:
            then()

    def cancel(self) -> None:
        self._then = None
        self._timer.stop()
        self._widget.removeEventFilter(self)
        self.deleteLater()


class PaintGate:
    """For a worker: wait() returns once WIDGET has painted next, or after LONGEST_WAIT_MS."""

    def __init__(self, widget: QWidget):
        self._painted = threading.Event()
        AfterPaint(widget, self._painted.set)

    def wait(self) -> None:
        self._painted.wait(LONGEST_WAIT_MS / 1000)
