"""What an open shows after the hand-over, each part in a pass of the event loop of its own.

The hand-over shows the new log's session bar, turn table and transcription editor at once. The views
that follow the selection (the turn's details, concepts and audio, then the session's metrics, timeline
and marker lanes) are filled in later passes: between two passes the window paints what the last one
changed and handles the input waiting (a key typed during the open moves the selection before the
timeline is built). Done in the hand-over's own pass, all of it with the paints it causes stalled the
GUI thread for over 100 ms on a 100 MB log, and a key typed meanwhile waited for all of it.

A part asked for again while it waits (the annotator moved to another turn before the turn's panes were
filled) is done once, with what was asked last, in the place of the first ask. run() returns once every
part is done: the window is then in the state the open used to leave it in. What the input between two passes
asks for and must not do in the middle of them (closing the window) waits for their end (when_done).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication


class HandOverPasses:
    """Parts of the hand-over done later (see the module's docstring); collecting from begin() to run()'s end."""

    def __init__(self) -> None:
        self._parts: dict[str, Callable[[], object]] = {}
        self._afterwards: list[Callable[[], object]] = []
        self.collecting = False

    def begin(self) -> None:
        self.collecting = True

    def later(self, name: str, part: Callable[[], object]) -> None:
        """PART in a pass of its own after the hand-over's, replacing the part NAME waiting; at once when no
        hand-over is under way."""
        if not self.collecting:
            part()
            return
        self._parts[name] = part

    def when_done(self, action: Callable[[], object]) -> None:
        """ACTION once every part is done, from the event loop (what an input event between two passes asked
        for and cannot do in the middle of them, such as closing the window); at once when none is under way."""
        if not self.collecting:
            action()
            return
        self._afterwards.append(action)

    def run(self) -> None:
        """Each waiting part after the paints and input events the last one left, until none waits."""
        try:
            while self._parts:
                QApplication.processEvents()
                name = next(iter(self._parts))
                self._parts.pop(name)()
        finally:
            self._parts.clear()
            self.collecting = False
            afterwards, self._afterwards = self._afterwards, []
            for action in afterwards:
                QTimer.singleShot(0, action)
