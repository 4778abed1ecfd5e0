"""The playback cursor: the position of what plays, on the waveform and, offset by where the clip was
heard, on the timeline; a click on the waveform or the spectrogram seeks there."""

from __future__ import annotations

from PySide6.QtCore import QObject

from annotator.gui.listening.audio_panel import AudioPanel
from annotator.gui.listening.playback import Playback
from annotator.gui.main_window import MainWindow
from annotator.gui.timeline.view import TimelineView
from annotator.log.elements import Session


class PlaybackCursor(QObject):
    def __init__(self, window: MainWindow, playback: Playback, audio_panel: AudioPanel, timeline: TimelineView):
        super().__init__(window)
        self.playback, self.audio_panel, self.timeline = playback, audio_panel, timeline
        self._audio_offset = 0.0  # seconds from session start to the loaded clip's start
        audio_panel.waveform.clicked_at.connect(playback.seek)
        audio_panel.spectrogram.clicked_at.connect(playback.seek)
        audio_panel.message_shown.connect(window.show_status)
        playback.clip_changed.connect(self._clip_changed)
        playback.position_changed.connect(self._position_changed)
        playback.message_shown.connect(window.show_status)

    def session_shown(self, _session: Session | None = None) -> None:
        """The session's timeline changed (shown, or its audio segments made): the clip's place on it too."""
        self._audio_offset = self._clip_start()

    def _clip_changed(self, samples, samplerate: int, message: str) -> None:
        self.audio_panel.set_clip(samples, samplerate, message)
        self._audio_offset = self._clip_start()

    def _clip_start(self) -> float:
        """Where the loaded audio starts on the timeline: its audio segment (when it was heard), else its turn."""
        source = self.playback.clip_source
        if source is None or self.playback.clip is None:
            return 0.0
        turn, direction = source
        start = self.timeline.audio_start(turn, direction)
        return start if start is not None else turn.session.since_start(turn.get("stime")) or 0.0

    def _position_changed(self, seconds: float) -> None:
        self.audio_panel.set_position(seconds)
        self.timeline.set_cursor(self._audio_offset + seconds if self.playback.clip is not None else None)
