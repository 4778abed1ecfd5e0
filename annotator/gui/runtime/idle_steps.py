"""A long pass run on the GUI thread in slices between events, so that the window stays responsive.

For work that must run on the GUI thread (it reads what the annotator edits there, and a worker thread
could read an edit half made) but need not run at once: the recovery journal's reading of the file's
values after an open (journal/baseline.py). The first slice waits START_AFTER_MS, so that what the
window shows first (the turn table, the panes) is painted before; each slice runs steps of the pass
until SLICE_MS has passed, then gives the event loop back; a zero timer brings the next slice as soon
as the events waiting are handled.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from PySide6.QtCore import QObject, QTimer

SLICE_MS = 8
START_AFTER_MS = 500


class IdleSteps(QObject):
    """Runs STEPS (an iterator: each next() one short step) to its end, a slice at a time; stop() ends it early."""

    def __init__(
        self, parent: QObject, steps: Iterator[object], slice_ms: float = SLICE_MS, start_after_ms: int = START_AFTER_MS
    ):
        super().__init__(parent)
        self._steps: Iterator[object] | None = steps
        self._slice_s = slice_ms / 1000
        self._timer = QTimer(self)
        self._timer.setInterval(start_after_ms)
        self._timer.timeout.connect(self._run_slice)
        self._timer.start()

    @property
    def running(self) -> bool:
        return self._steps is not None

    def _run_slice(self) -> None:
        self._timer.setInterval(0)
        end = time.perf_counter() + self._slice_s
        while self._steps is not None and time.perf_counter() < end:
            if next(self._steps, self) is self:
                self.stop()

    def hold(self, held: bool) -> None:
        """Run no slice while HELD (the steps wait where they are); go on from there once not."""
        if held:
            self._timer.stop()
        elif self._steps is not None and not self._timer.isActive():
            self._timer.start()

    def stop(self) -> None:
        self._timer.stop()
        self._steps = None
