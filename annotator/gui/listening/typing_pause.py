"""Pause while typing: a keystroke in the transcription editor pauses playback, which resumes (with the
rewind on resume) once the annotator has not typed for `typing_idle_seconds`.

Off by default (Playback > Pause while typing). Only a pause this made is resumed by it: audio the annotator
paused or stopped stays so. The idle time is one single-shot QTimer restarted by every keystroke, so a test
fires it with `idle_timer.timeout.emit()` instead of sleeping.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from annotator.audio import PlayerState
from annotator.gui.listening.playback import Playback


class TypingPause(QObject):
    def __init__(self, playback: Playback, idle_seconds: float, parent: QObject | None = None):
        super().__init__(parent)
        self.playback = playback
        self.enabled = False
        self.paused_by_typing = False
        self.idle_timer = QTimer(self)
        self.idle_timer.setSingleShot(True)
        self.set_idle_seconds(idle_seconds)
        self.idle_timer.timeout.connect(self._resume)
        playback.clip_changed.connect(self._forget)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        if not on:
            self.idle_timer.stop()
            self._resume()

    def set_idle_seconds(self, seconds: float) -> None:
        self.idle_timer.setInterval(max(0, round(seconds * 1000)))

    def key_typed(self) -> None:
        """The editor had a keystroke: pause what plays, and wait for the typing to stop."""
        if not self.enabled:
            return
        if self.playback.player.state is PlayerState.PLAYING:
            self.playback.pause()
            self.paused_by_typing = self.playback.player.state is PlayerState.PAUSED
        if self.paused_by_typing:
            self.idle_timer.start()

    def _resume(self) -> None:
        if self.paused_by_typing:
            self.paused_by_typing = False
            self.playback.resume()  # does nothing unless still paused

    def _forget(self, *_clip) -> None:
        """Another clip was loaded: the pause belonged to the one before."""
        self.paused_by_typing = False
        self.idle_timer.stop()
