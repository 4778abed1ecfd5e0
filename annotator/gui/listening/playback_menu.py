"""What the Playback menu asks for beyond play and pause: the exchange, the other side, loop, speed and
the spectrogram, each setting stored as it is applied."""

from __future__ import annotations

from collections.abc import Callable

from annotator.gui.listening.audio_panel import AudioPanel
from annotator.gui.listening.playback import Playback
from annotator.gui.settings import AppSettings
from annotator.log.elements import Turn


class PlaybackMenu:
    def __init__(
        self,
        playback: Playback,
        settings: AppSettings,
        audio_panel: AudioPanel,
        current_turn: Callable[[], Turn | None],
    ):
        self.playback, self.settings, self.audio_panel, self.current_turn = (
            playback,
            settings,
            audio_panel,
            current_turn,
        )
        playback.set_loop(settings.loop)
        playback.set_speed(settings.speed)
        audio_panel.show_spectrogram(settings.show_spectrogram)

    def play_exchange(self) -> None:
        self.playback.play_exchange(self.current_turn())

    def play_other_side(self) -> None:
        self.playback.play_other_side(self.current_turn())

    def set_loop(self, on: bool) -> None:
        self.settings.loop = on
        self.playback.set_loop(on)

    def set_spectrogram_shown(self, on: bool) -> None:
        self.settings.show_spectrogram = on
        self.audio_panel.show_spectrogram(on)

    def set_speed(self, speed: float) -> None:
        self.settings.speed = speed
        self.playback.set_speed(speed)
