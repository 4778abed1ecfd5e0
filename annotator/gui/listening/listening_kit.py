"""The listening kit for telephone speech, wired into the window: loudness normalisation, rewind on resume,
replay the last 2 s slower, pause while typing, and the voice-activity strip under the waveform.

The Playback menu's actions call the handlers here (gui/actions.py names them "listening.*"); the
settings they change persist at once and are applied to the one Playback.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from annotator.audio.loudness import load_meter, meter_loaded
from annotator.gui.actions import Actions
from annotator.gui.listening.playback import Playback
from annotator.gui.listening.typing_pause import TypingPause
from annotator.gui.listening.voice_activity_strip import VoiceActivityStrip
from annotator.gui.listening.waveform import WaveformView
from annotator.gui.runtime.worker import BackgroundTask
from annotator.gui.settings import AppSettings

if TYPE_CHECKING:  # the editor's package drives playback; this module only listens to its keys
    from annotator.gui.annotating.transcription_editor import TranscriptionEditor


class ListeningKit(QObject):
    def __init__(
        self,
        playback: Playback,
        settings: AppSettings,
        waveform: WaveformView,
        editor: TranscriptionEditor,
        actions: Actions,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.playback, self.settings = playback, settings
        self.typing_pause = TypingPause(playback, settings.typing_idle_seconds, self)
        self.apply_settings()
        self._meter_warm_up: BackgroundTask | None = None
        editor.text.key_typed.connect(self.typing_pause.key_typed)
        self.voice_activity = VoiceActivityStrip(waveform, waveform)
        layout = waveform.layout()
        assert layout is not None, "the waveform view lays out its caption and plot"
        layout.addWidget(self.voice_activity)
        playback.clip_changed.connect(self._warm_up_meter)
        playback.clip_changed.connect(self.voice_activity.set_audio)
        actions.normalise_loudness.setChecked(settings.normalise_loudness)
        actions.pause_while_typing.setChecked(settings.pause_while_typing)

    def _warm_up_meter(self, samples, _samplerate: int = 0, _message: str = "") -> None:
        """Import the loudness meter (pyloudnorm, over scipy: a second of CPU) on a worker once a clip is
        first loaded, rather than on the GUI thread when the first clip is measured. Not when the window
        starts: an import holds the GIL in long stretches, and the window's first opening (of a log or a
        corpus, whose scan starts beside it) would wait for it at every call between Qt and Python,
        doubling its stalls; a log without audio never needs the meter."""
        if samples is None or self._meter_warm_up is not None or meter_loaded():
            return
        self._meter_warm_up = BackgroundTask(lambda _context: load_meter(), self)
        self._meter_warm_up.start()

    def apply_settings(self) -> None:
        """Take the kit's settings as stored now (a Preferences dialog calls this after a change)."""
        settings, playback = self.settings, self.playback
        playback.rewind_on_resume = max(0.0, settings.rewind_on_resume)
        if (playback.normalise_loudness, playback.loudness_target) != (
            settings.normalise_loudness,
            settings.loudness_target,
        ):
            playback.set_normalise_loudness(settings.normalise_loudness, settings.loudness_target)
        self.typing_pause.set_idle_seconds(settings.typing_idle_seconds)
        self.typing_pause.set_enabled(settings.pause_while_typing)

    def set_normalise_loudness(self, on: bool) -> None:
        self.settings.normalise_loudness = on
        self.playback.set_normalise_loudness(on, self.settings.loudness_target)

    def set_pause_while_typing(self, on: bool) -> None:
        self.settings.pause_while_typing = on
        self.apply_settings()

    def replay_slower(self) -> None:
        self.playback.replay_slower()
