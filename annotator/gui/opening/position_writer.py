"""Where the annotator is in each log (AppSettings.last_position; in team mode, each annotator's own), written a
moment after the selection stops moving rather than at every move.

Writing a setting makes QSettings rewrite its whole file at the next turn of the event loop: 12 ms a move
with a few hundred logs remembered, on the GUI thread, while the annotator holds an arrow key down. The
position is kept here and written once the selection has rested WRITE_AFTER_MS, and at once whenever
something is about to read it or the window goes: before a log is opened or reloaded (the document
controller's flushers), when another log is shown, and when the window closes. Losing it to a crash costs
at most the last second's moves, and nothing typed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QTimer

from annotator.gui.settings import AppSettings, LastPosition

WRITE_AFTER_MS = 1000


class PositionWriter(QObject):
    def __init__(self, settings: AppSettings, parent: QObject):
        super().__init__(parent)
        self.settings = settings
        self._pending: tuple[Path, LastPosition, str | None] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(WRITE_AFTER_MS)
        self._timer.timeout.connect(self.write)

    def note(self, log_path: Path, position: LastPosition, annotator: str | None) -> None:
        """The selection is at POSITION in LOG_PATH, ANNOTATOR's in team mode (None outside it): written once it
        rests. Whose it is is taken now: the annotator may be renamed before it is written."""
        self._pending = (log_path, position, annotator)
        self._timer.start()

    def write(self) -> None:
        """Write the position noted, if any, now."""
        self._timer.stop()
        pending, self._pending = self._pending, None
        if pending is not None:
            self.settings.set_last_position(*pending)
