"""Listening word by word: the shown turn's words (TurnWords) drawn on the waveform and the spectrogram, a
click on a word playing exactly that word, Playback > Play next word / Play previous word walking the turn a
word at a time, and the word being heard followed as the turn plays (heard_changed: the editor marks it too).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from annotator.alignment import AlignedWord
from annotator.audio import PlayerState
from annotator.gui.listening.audio_panel import AudioPanel
from annotator.gui.listening.playback import Playback
from annotator.gui.listening.turn_words import TurnWords

# A position this close to a word's end is that word's end: where the player stops after playing the word.
AT_END_S = 0.002


class WordPlaying(QObject):
    heard_changed = Signal(object)  # the index of the word being heard in words, or None

    def __init__(self, playback: Playback, turn_words: TurnWords, audio_panel: AudioPanel, parent=None):
        super().__init__(parent)
        self.playback, self.turn_words, self.audio_panel = playback, turn_words, audio_panel
        self.heard: int | None = None
        self._walked: int | None = None  # the word played last by a click or a step, while the player is on it
        turn_words.changed.connect(self._words_changed)
        playback.position_changed.connect(self._position_changed)
        for view in (audio_panel.waveform, audio_panel.spectrogram):
            view.word_clicked.connect(self.play_word)

    @property
    def words(self) -> list[AlignedWord]:
        return self.turn_words.words

    def play_word(self, index: int) -> None:
        """Play word INDEX of the shown turn, exactly, then stop at its end."""
        if not 0 <= index < len(self.words):
            return
        word = self.words[index]
        self._walked = index
        self.playback.play_span(word.start, word.end)
        self._set_heard(index)

    def step(self, direction: int) -> None:
        """Alt+Right (+1) / Alt+Left (-1): play the word after / before the one played or being heard."""
        words = self.words
        if not words:
            why = "its words are still being placed" if self.turn_words.aligning else "it has no words placed"
            self.playback.message_shown.emit(f"No word to play: {why}")
            return
        player, anchor = self.playback.player, self._anchor()
        if anchor is None and player.state is PlayerState.STOPPED and player.position == 0.0:
            self.play_word(0)  # nothing heard yet: the walk starts at the first word, whichever way
            return
        self.play_word(_step_from(words, anchor, player.position, direction))

    def _anchor(self) -> int | None:
        """The word the player is on: the one walked to last while the position is still within it."""
        walked = self._walked
        if walked is None or walked >= len(self.words):
            return None
        word = self.words[walked]
        return walked if word.start <= self.playback.player.position <= word.end + AT_END_S else None

    def _words_changed(self) -> None:
        self._walked = None
        for view in (self.audio_panel.waveform, self.audio_panel.spectrogram):
            view.words.set_words(self.words)
        self._set_heard(None)

    def _position_changed(self, seconds: float) -> None:
        playing = self.playback.player.state is PlayerState.PLAYING
        if not playing and self._anchor() is not None:
            self._set_heard(self._walked)  # stopped at the end of the word just played
        elif playing or self.playback.player.state is PlayerState.PAUSED:
            self._set_heard(_word_holding(self.words, seconds))
        else:
            self._set_heard(None)

    def _set_heard(self, index: int | None) -> None:
        if index == self.heard:
            return
        self.heard = index
        for view in (self.audio_panel.waveform, self.audio_panel.spectrogram):
            view.words.set_heard(index)
        self.heard_changed.emit(index)


def _word_holding(words: list[AlignedWord], seconds: float) -> int | None:
    for index, word in enumerate(words):
        if word.start <= seconds < word.end:
            return index
    return None


def _step_from(words: list[AlignedWord], anchor: int | None, seconds: float, direction: int) -> int:
    """The word one step in DIRECTION from ANCHOR, or from the position SECONDS when there is no anchor: from
    inside a word, its neighbour; from a pause, the first word after it (forward) or the last before it (back).
    It stays on the first and last words at the turn's ends."""
    if anchor is None:
        holding = _word_holding(words, seconds)
        if holding is not None:
            anchor = holding
        elif direction > 0:
            return next((index for index, word in enumerate(words) if word.start >= seconds), len(words) - 1)
        else:
            return max((index for index, word in enumerate(words) if word.end <= seconds), default=0)
    return min(max(anchor + direction, 0), len(words) - 1)
