"""Python's cycle collector, run on the GUI thread only.

A Qt object must be destroyed on the thread that owns it. A reference cycle that holds one (a window and
a lambda connected to its signals, a task and its owner) is freed by whichever thread the automatic
collector happens to run on: any thread that allocates at the wrong moment, a BackgroundTask's worker
parsing a log included. A widget destroyed there corrupts Qt's state and the process dies later, far from
the cause (a segfault at the start of an unrelated GUI test). So the application turns automatic
collection off and a timer on the GUI thread collects instead: each tick the generations whose counts
passed the collector's own thresholds, as the automatic collector would have.

Three limits keep the GUI thread fluid: nothing is collected while a bulk pass has paused collection
(log.gc_pause: a load's millions of survivors are not walked), the open log is frozen out of every
collection once it is shown (log.gc_pause.hand_over_document), and a full collection, whose cost grows
with everything alive, waits until the time since the last one is FULL_COLLECTION_SHARE⁻¹ times what the
last one took (CPython holds full collections back for the same reason).
"""

from __future__ import annotations

import gc
import time

from PySide6.QtCore import QCoreApplication, QObject, QTimer

from annotator.log.gc_pause import collection_paused

TICK_MS = 250
FULL_COLLECTION_SHARE = 0.05  # full collections take at most this share of the GUI thread's time


class GuiThreadCollector(QObject):
    """One per application (gui/app.make_application makes it); uninstall() gives collection back to Python."""

    def __init__(self, app: QCoreApplication, clock=time.perf_counter):
        super().__init__(app)
        self._clock = clock
        self._enabled_before = gc.isenabled()
        self._last_full_end = clock()
        self._last_full_cost = 0.0
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.tick)
        self._timer.start(TICK_MS)

    def tick(self) -> int | None:
        """Collect what the thresholds call for now; the generation collected, or None."""
        if collection_paused():
            return None
        generation = self._due_generation()
        if generation is None:
            return None
        started = self._clock()
        gc.collect(generation)
        if generation == 2:
            self._last_full_end = self._clock()
            self._last_full_cost = self._last_full_end - started
        return generation

    def _due_generation(self) -> int | None:
        counts, thresholds = gc.get_count(), gc.get_threshold()
        due = [generation for generation in range(3) if counts[generation] > thresholds[generation]]
        if not due:
            return None
        if due[-1] == 2 and self._clock() - self._last_full_end < self._last_full_cost / FULL_COLLECTION_SHARE:
            return 1
        return due[-1]

    def uninstall(self) -> None:
        self._timer.stop()
        if self._enabled_before:
            gc.enable()
        self.deleteLater()
