"""The one facade over audio playback for the window (DESIGN.md rules 7 and 8).

The Qt-free Player plays from a preloaded buffer on PortAudio's thread; this
QObject starts and stops it on the GUI thread and polls its frame counter
about 30 times a second to move the cursors. Every problem (no device, a
missing or unreadable file) becomes a one-line `message_shown`, never an
exception in the window.
"""

from __future__ import annotations

import enum

from PySide6.QtCore import QObject, QTimer, Signal

from annotator.audio import Clip, Player, PlayerState, concatenate, load_audio
from annotator.errors import AnnotatorError
from annotator.log.audio_refs import AudioResolver
from annotator.log.views import Turn

POLL_MS = 33
EXCHANGE_GAP_S = 0.3


class Side(enum.Enum):
    OWN = "own"  # user audio on user turns, system audio on system turns
    OTHER = "other"


class Playback(QObject):
    clip_changed = Signal(object, int, str)  # samples (frames x channels) or None, sample rate, message
    position_changed = Signal(float)  # seconds into the clip
    state_changed = Signal(str)  # "playing", "paused", "stopped"
    message_shown = Signal(str)

    def __init__(self, parent: QObject | None = None, player: Player | None = None):
        super().__init__(parent)
        self.player = player if player is not None else Player()
        self.side = Side.OWN
        self.turn: Turn | None = None
        self.clip: Clip | None = None
        self.clip_source: tuple[Turn, str] | None = None  # the turn and direction the clip starts with
        self._resolvers: dict[str, AudioResolver] = {}
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    # --- what is loaded -------------------------------------------------------------
    def show_turn(self, turn: Turn | None) -> None:
        """Stop what plays and load TURN's audio (or nothing); the cursor goes to 0."""
        self.stop()
        self.turn = turn
        direction = self._direction(turn) if turn is not None else None
        self.clip_source = (turn, direction) if turn is not None and direction else None
        self._load(*(self._turn_clip(turn) if turn is not None else (None, "")))

    def set_other_side(self, on: bool) -> None:
        self.side = Side.OTHER if on else Side.OWN
        self.show_turn(self.turn)

    def _turn_clip(self, turn: Turn) -> tuple[Clip | None, str]:
        """TURN's clip on the chosen side, or None and why not."""
        direction = self._direction(turn)
        if direction is None:
            return None, f"turn {turn.id}: no speaker, so no audio to choose"
        ref = self._resolver(turn).resolve(turn, direction)
        if ref is None:
            return None, f"turn {turn.id}: no {'user' if direction == 'input' else 'system'} audio in the log"
        if ref.path is None:
            return None, f"turn {turn.id}: {ref.problem}"
        try:
            return load_audio(ref.path), ""
        except AnnotatorError as error:
            return None, f"turn {turn.id}: {error}"

    def _direction(self, turn: Turn) -> str | None:
        own = {"user": "input", "system": "output"}.get(turn.speaker or "")
        if own is None or self.side is Side.OWN:
            return own
        return "output" if own == "input" else "input"

    def _resolver(self, turn: Turn) -> AudioResolver:
        folder = turn.session.document.folder
        key = str(folder)
        if key not in self._resolvers:
            self._resolvers[key] = AudioResolver(folder)
        return self._resolvers[key]

    def _load(self, clip: Clip | None, message: str = "") -> None:
        self.clip = clip
        try:
            if clip is None:
                self.player.unload()
            else:
                self.player.load(clip)
        except AnnotatorError as error:
            message = str(error)
        self.clip_changed.emit(None if clip is None else clip.samples, 0 if clip is None else clip.samplerate, message)
        self.position_changed.emit(0.0)
        if message:
            self.message_shown.emit(message)

    # --- the PlaybackHook the window calls -------------------------------------------
    def toggle(self) -> None:
        self._do(self.player.toggle)

    def replay(self) -> None:
        self._do(self.player.replay)

    def back(self, seconds: float) -> None:
        self._do(lambda: self.player.back(seconds))
        self.position_changed.emit(self.player.position)

    def seek(self, seconds: float) -> None:
        self._do(lambda: self.player.seek(seconds))
        self.position_changed.emit(self.player.position)

    def play_turn(self, turn: Turn) -> None:
        if turn is not self.turn or self.clip is None:
            self.show_turn(turn)
        self._do(self.player.replay)

    def play_exchange(self, turn: Turn | None) -> None:
        """The system prompt and the user reply that follows it, back to back."""
        if turn is None:
            return
        turns = turn.session.turns
        prompt_index = turn.index if turn.speaker == "system" else turn.index - 1
        while prompt_index >= 0 and turns[prompt_index].speaker != "system":
            prompt_index -= 1
        pair = [t for t in turns[max(prompt_index, 0): turn.index + 2] if t.speaker in ("system", "user")]
        prompt = next((t for t in pair if t.speaker == "system"), None)
        reply = next((t for t in pair if t.speaker == "user" and (prompt is None or t.index > prompt.index)), None)
        saved_side, self.side = self.side, Side.OWN
        loaded = [self._turn_clip(t) for t in (prompt, reply) if t is not None]
        self.side = saved_side
        clips = [clip for clip, _ in loaded if clip is not None]
        self.stop()
        self.turn = turn
        first = prompt if prompt is not None and loaded[0][0] is not None else reply
        self.clip_source = (first, "output" if first is prompt else "input") if first is not None else None
        if not clips:
            self._load(None, "; ".join(why for _, why in loaded if why) or "no exchange around this turn")
            return
        self._load(concatenate(clips, gap_s=EXCHANGE_GAP_S) if len(clips) > 1 else clips[0])
        self._do(self.player.replay)

    def set_loop(self, on: bool) -> None:
        self.player.loop = on

    def set_speed(self, speed: float) -> None:
        try:
            self.player.speed = speed
        except AnnotatorError as error:
            self.message_shown.emit(str(error))

    def stop(self) -> None:
        self._do(self.player.stop)

    def close(self) -> None:
        self._timer.stop()
        self.player.close()

    # --- polling ------------------------------------------------------------------------
    def _do(self, operation) -> None:
        try:
            operation()
        except AnnotatorError as error:
            self.message_shown.emit(str(error))
        self._reflect_state()

    def _reflect_state(self) -> None:
        state = self.player.state
        if state is PlayerState.PLAYING and not self._timer.isActive():
            self._timer.start()
        elif state is not PlayerState.PLAYING:
            self._timer.stop()
        self.state_changed.emit(state.name.lower())

    def _poll(self) -> None:
        try:
            position = self.player.poll()
        except AnnotatorError as error:
            self.message_shown.emit(str(error))
            position = self.player.position
        self.position_changed.emit(position)
        if self.player.state is not PlayerState.PLAYING:
            self._reflect_state()

