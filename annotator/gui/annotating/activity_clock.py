"""Active time per turn: how long the annotator worked on the selected user turn, pauses left out.

The clock runs while a turn is selected and the annotator acts on the window: each key press, mouse
click or wheel turn, and each tick of playing audio, is an act. The time between two acts counts
for the selected turn unless it is longer than IDLE_LIMIT (a pause: coffee, a phone call), which
counts nothing. Counted time is kept here, not in the log, so that merely looking at a log leaves
nothing unsaved; it is stored on the turns (annotations.add_time_spent, GC_DATA :time_spent) when
a save is made (DocumentController.save_preparers), just before the log or the team file is written.

The time source is injectable (NOW) so that tests drive the clock without sleeping.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from annotator.log.annotations import add_time_spent
from annotator.log.elements import Turn

IDLE_LIMIT = 120.0  # seconds: a longer gap between two acts is a pause and counts nothing
MIN_STORED = 0.05  # less than this rounds to nothing in the log's tenths: kept for later
_ACTS = (QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel)


class ActivityClock(QObject):
    """Counts active seconds per turn in WINDOW (see the module docstring)."""

    def __init__(self, window: QWidget, now: Callable[[], float] = time.monotonic):
        super().__init__(window)
        self.window = window
        self.now = now
        self.turn: Turn | None = None
        self.last_act: float | None = None
        self.pending: dict[Turn, float] = {}  # counted and not yet stored
        app = QApplication.instance()
        assert app is not None, "a window exists in a running application only"
        app.installEventFilter(self)

    def select(self, turn: Turn | None) -> None:
        """TURN is now the selected turn: the time up to now went to the one before. A system turn counts
        nothing: there is nothing to transcribe on it, the time is spent on the user turns."""
        self.act()
        turn = turn if turn is not None and turn.speaker != "system" else None
        self.turn = turn
        self.last_act = None if turn is None else self.now()

    def act(self) -> None:
        """The annotator did something now: the time since the last act counts for the turn, unless a pause."""
        at = self.now()
        if self.turn is not None and self.last_act is not None:
            gap = at - self.last_act
            if 0 < gap <= IDLE_LIMIT:
                self.pending[self.turn] = self.pending.get(self.turn, 0.0) + gap
        self.last_act = at if self.turn is not None else None

    def counted(self, turn: Turn) -> float:
        """Seconds counted on TURN and not yet stored."""
        return self.pending.get(turn, 0.0)

    def store(self) -> None:
        """Add the counted time to the turns in the log (through the one writer); none is lost to rounding."""
        self.act()
        for turn, seconds in list(self.pending.items()):
            if seconds >= MIN_STORED and turn.session.document is not None:
                add_time_spent(turn, seconds)
                del self.pending[turn]

    def forget(self) -> None:
        """The document went (closed, reloaded, discarded): its turns' counted time goes with it."""
        self.pending.clear()
        self.turn = None
        self.last_act = None

    def stop(self) -> None:
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in _ACTS and isinstance(watched, QWidget) and watched.window() is self.window:
            if not isinstance(event, QKeyEvent) or not event.isAutoRepeat():  # of the acts, a key press
                self.act()
        return False
