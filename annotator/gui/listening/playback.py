"""The one facade over audio playback for the window (DESIGN.md rules 7 and 8).

The Qt-free Player plays from a preloaded buffer on PortAudio's thread; this
QObject starts and stops it on the GUI thread and polls its frame counter
about 30 times a second to move the cursors. Every problem (no device, a
missing or unreadable file) becomes a one-line `message_shown`, never an
exception in the window.

The listening kit (docs/guide.md, "A listening kit for telephone speech") lives here too: quiet turns are played
louder (audio/loudness.py; only the samples handed to the player, never the file; a long clip is measured on
a worker, gui/listening/played_clip.py, and what is asked of the player meanwhile waits for it), resuming after a pause
starts `rewind_on_resume` seconds earlier, and replay_slower() plays the last seconds again at 0.75x.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal

from annotator.audio import Clip, Player, PlayerState, concatenate, load_audio
from annotator.audio.loudness import DEFAULT_TARGET_LUFS
from annotator.audio.player import BACK_SECONDS
from annotator.errors import AnnotatorError
from annotator.gui.listening.played_clip import Played, PlayedClipMaker
from annotator.log.audio_refs import AudioResolver
from annotator.log.elements import Turn
from annotator.log.exchange import INPUT, OUTPUT, other_side, prompt_of, reply_to

POLL_MS = 33
SLOW_REPLAY_SECONDS, SLOW_REPLAY_SPEED = 2.0, 0.75


class Playback(QObject):
    clip_changed = Signal(object, int, str)  # samples (frames x channels) or None, sample rate, message
    position_changed = Signal(float)  # seconds into the clip
    message_shown = Signal(str)

    def __init__(self, parent: QObject | None = None, player: Player | None = None):
        super().__init__(parent)
        self.player = player if player is not None else Player()
        self.speed = 1.0  # what the annotator chose; the player may be at 1x while it cannot be honoured
        self.back_seconds = BACK_SECONDS  # Playback > Back's jump (the back_seconds preference)
        self.turn: Turn | None = None
        self.clip: Clip | None = None
        self.clip_source: tuple[Turn, str] | None = None  # the turn and direction the clip starts with
        self._resolvers: dict[str, AudioResolver] = {}
        self.normalise_loudness = True
        self.loudness_target = DEFAULT_TARGET_LUFS
        self.rewind_on_resume = 1.0  # seconds; 0: resume where it paused
        self._slow_replay = False  # replay_slower() is playing: the chosen speed comes back when it stops
        self.clip_maker = PlayedClipMaker(self)
        self.clip_maker.made.connect(self._take_made)
        self._waiting: list = []  # what was asked of the player while the clip's played version was being made
        self._timer = QTimer(self)
        self._timer.setInterval(POLL_MS)
        self._timer.timeout.connect(self._poll)

    # --- what is loaded -------------------------------------------------------------
    def show_turn(self, turn: Turn | None) -> None:
        """Stop what plays and load TURN's own audio (or nothing); the cursor goes to 0."""
        self.stop()
        self.turn = turn
        direction = _own_direction(turn) if turn is not None else None
        self.clip_source = (turn, direction) if turn is not None and direction else None
        if turn is None:
            self._load(None)
        elif direction is None:
            self._load(None, f"turn {turn.id}: no speaker, so no audio to choose")
        else:
            self._load(*self._clip_of(turn, direction))

    @property
    def preparing(self) -> bool:
        """Whether the loaded clip's played version is still being made on a worker (the player holds
        nothing yet; what is asked of it meanwhile is done once it is loaded)."""
        return self.clip_maker.pending

    @property
    def plays_own_audio(self) -> bool:
        """Whether the loaded clip is the shown turn's own audio (not the other side or an exchange)."""
        return self.turn is not None and self.clip_source == (self.turn, _own_direction(self.turn))

    def _clip_of(self, turn: Turn, direction: str) -> tuple[Clip | None, str]:
        """TURN's audio_input or audio_output clip, or None and why not."""
        ref = self._resolver(turn).resolve(turn, direction)
        if ref is None:
            return None, f"turn {turn.id}: no {'user' if direction == INPUT else 'system'} audio in the log"
        if ref.path is None:
            return None, f"turn {turn.id}: {ref.problem}"
        try:
            return load_audio(ref.path), ""
        except AnnotatorError as error:
            return None, f"turn {turn.id}: {error}"

    def use_resolver(self, resolver: AudioResolver) -> None:
        """Resolve the audio of the logs in RESOLVER's folder with it (its folder walked already, off the GUI thread)."""
        self._resolvers[str(resolver.folder)] = resolver

    def _resolver(self, turn: Turn) -> AudioResolver:
        folder = turn.session.document.folder
        key = str(folder)
        if key not in self._resolvers:
            self._resolvers[key] = AudioResolver(folder)
        return self._resolvers[key]

    def _load(self, clip: Clip | None, message: str = "") -> None:
        self.clip = clip
        self._slow_replay = False
        self._waiting = []
        try:
            if clip is None:
                self.clip_maker.cancel()
                self.player.unload()
            else:
                message = _joined(message, self._hand_to_player(clip))
        except AnnotatorError as error:
            message = str(error)
        self.clip_changed.emit(None if clip is None else clip.samples, 0 if clip is None else clip.samplerate, message)
        self.position_changed.emit(0.0)
        if message:
            self.message_shown.emit(message)

    def _hand_to_player(self, clip: Clip) -> str:
        """Load CLIP's played version into the player now, or empty the player until the worker has made it
        (_take_made); why it plays as recorded when it does ("" otherwise)."""
        played = self.clip_maker.make(
            clip, self.loudness_target if self.normalise_loudness else None, self.player.speed
        )
        if played is None:
            self.player.unload()  # nothing is heard at a gain not measured for it
            return ""
        self.player.load(played.clip, played.stretched)
        return played.note

    def _take_made(self, played: Played) -> None:
        """The worker's played version of the loaded clip: load it and do what was asked meanwhile."""
        waiting, self._waiting = self._waiting, []
        note = played.note
        try:
            self.player.load(played.clip, played.stretched)
        except AnnotatorError as error:
            note = _joined(note, str(error))
        if note:
            self.message_shown.emit(note)
        for operation in waiting:
            self._do(operation)

    def set_normalise_loudness(self, on: bool, target: float | None = None) -> None:
        """Normalise (or not) from now on; the loaded clip is played the new way from where it is."""
        self.normalise_loudness = on
        if target is not None:
            self.loudness_target = target
        if self.clip is None:
            return
        # The player holds nothing while a played version is being made: what was asked of it meanwhile
        # carries over to the new one; otherwise the new one goes on from where the old one was.
        waiting = self._waiting if self.clip_maker.pending else None
        state, position = self.player.state, self.player.position
        self._waiting = []
        try:
            self._hand_to_player(self.clip)
        except AnnotatorError as error:
            self.message_shown.emit(str(error))
        if waiting is not None:
            for operation in waiting:
                self._do(operation)
            return
        self._do(lambda: self.player.seek(position))
        if state is PlayerState.PLAYING:
            self._play(self.player.play)

    # --- the PlaybackHook the window calls -------------------------------------------
    def toggle(self) -> None:
        """Ctrl+Space: pause what plays; otherwise play the shown turn's own audio (after the other
        side or an exchange was heard, its own audio is loaded again first). Resuming after a pause
        starts `rewind_on_resume` seconds earlier."""
        if self.player.state is not PlayerState.PLAYING and not self.plays_own_audio and self.turn is not None:
            self.show_turn(self.turn)
        if self.player.state is PlayerState.PAUSED:
            self.resume()
            return
        self._play(self.player.toggle)

    def pause(self) -> None:
        self._do(self.player.pause)

    def resume(self) -> None:
        """Play on from a pause, `rewind_on_resume` seconds earlier (not before the clip's start)."""
        if self.player.state is not PlayerState.PAUSED:
            return
        if self.rewind_on_resume > 0:
            self.player.seek(max(0.0, self.player.position - self.rewind_on_resume))
        self._play(self.player.play)

    def replay_slower(self) -> None:
        """Ctrl+Shift+Left: the last SLOW_REPLAY_SECONDS before the position again at SLOW_REPLAY_SPEED,
        pitch kept (at 1x, saying why, without the stretching tool); then it stops where it was, and
        Ctrl+Space carries on from there at the chosen speed."""
        if self.clip is None:
            self.message_shown.emit("Nothing to replay: no audio is loaded")
            return
        end = self.player.position
        if end <= 0.0:
            self.message_shown.emit("Nothing to replay yet: play the turn first")
            return
        try:
            self.player.speed = SLOW_REPLAY_SPEED
        except AnnotatorError as error:
            self.message_shown.emit(f"Replaying at {self.player.speed:g}×, not {SLOW_REPLAY_SPEED:g}×: {error}")
        self._slow_replay = True
        self._do(lambda: self.player.seek(max(0.0, end - SLOW_REPLAY_SECONDS)))
        self._do(lambda: self.player.play_until(end))
        if self.player.state is not PlayerState.PLAYING:
            self._end_slow_replay()

    def replay(self) -> None:
        if not self.plays_own_audio and self.turn is not None:
            self.show_turn(self.turn)
        self._play(self.player.replay)

    def back(self, seconds: float | None = None) -> None:
        """Jump SECONDS back in the clip (default: back_seconds)."""
        jump = self.back_seconds if seconds is None else seconds
        self._do(lambda: self.player.back(jump))
        self.position_changed.emit(self.player.position)

    def seek(self, seconds: float) -> None:
        self._do(lambda: self.player.seek(seconds))
        self.position_changed.emit(self.player.position)

    def play_span(self, start: float, end: float) -> None:
        """Play START to END seconds of the shown turn's own audio at the chosen speed, then stop at END (a word:
        Playback > Play next word, a click on a word)."""
        if not self.plays_own_audio and self.turn is not None:
            self.show_turn(self.turn)
        self._apply_speed()
        self._do(self.player.stop)  # a seek while playing would only be a request to the running stream
        self._do(lambda: self.player.seek(start))
        self._do(lambda: self.player.play_until(end))

    def play_turn(self, turn: Turn) -> None:
        if turn is not self.turn or not self.plays_own_audio or self.clip is None:
            self.show_turn(turn)
        self._play(self.player.replay)

    def play_other_side(self, turn: Turn | None) -> None:
        """Play once the other side of TURN (see annotator.log.exchange.other_side), or say why not."""
        if turn is None:
            return
        found = other_side(turn)
        if isinstance(found, str):
            self.message_shown.emit(found)
            return
        source, direction = found
        clip, why = self._clip_of(source, direction)
        if clip is None:
            self.message_shown.emit(why)
            return
        self._play_clip(turn, clip, (source, direction))

    def play_exchange(self, turn: Turn | None) -> None:
        """The system prompt and the user reply that follows it, back to back."""
        if turn is None:
            return
        prompt = turn if turn.speaker == "system" else prompt_of(turn)
        reply = reply_to(prompt) if prompt is not None else (turn if turn.speaker == "user" else None)
        parts = [(t, direction) for t, direction in ((prompt, OUTPUT), (reply, INPUT)) if t is not None]
        loaded = [(source, self._clip_of(*source)) for source in parts]
        found = [(source, clip) for source, (clip, _) in loaded if clip is not None]
        if not found:
            why = "; ".join(why for _, (_, why) in loaded if why) or f"turn {turn.id}: no exchange around this turn"
            self.stop()
            self.turn, self.clip_source = turn, None
            self._load(None, why)
            return
        clips = [clip for _, clip in found]
        self._play_clip(turn, concatenate(clips) if len(clips) > 1 else clips[0], found[0][0])

    def _play_clip(self, turn: Turn, clip: Clip, source: tuple[Turn, str]) -> None:
        self.stop()
        self.turn, self.clip_source = turn, source
        self._load(clip)
        self._play(self.player.replay)

    def set_loop(self, on: bool) -> None:
        self.player.loop = on

    def set_speed(self, speed: float) -> None:
        """Remember SPEED and apply it now if possible; every later play tries again until it can."""
        self.speed = speed
        self._apply_speed()

    def _apply_speed(self) -> None:
        if self.player.speed == self.speed:
            return
        try:
            self.player.speed = self.speed
        except AnnotatorError as error:
            self.message_shown.emit(f"Playing at {self.player.speed:g}×, not {self.speed:g}×: {error}")

    def stop(self) -> None:
        self._do(self.player.stop)

    def close(self) -> None:
        self._timer.stop()
        self.clip_maker.cancel()
        self.player.close()

    # --- polling ------------------------------------------------------------------------
    def _play(self, operation) -> None:
        """Start playing through OPERATION at the chosen speed, if the speed can be had by now."""
        self._apply_speed()
        self._do(operation)

    def _do(self, operation) -> None:
        if self.clip_maker.pending:
            self._waiting.append(operation)  # done once the clip's played version is loaded
            return
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

    def _poll(self) -> None:
        try:
            position = self.player.poll()
        except AnnotatorError as error:
            self.message_shown.emit(str(error))
            position = self.player.position
        self.position_changed.emit(position)
        if self.player.state is not PlayerState.PLAYING:
            self._reflect_state()
            self._end_slow_replay()

    def _end_slow_replay(self) -> None:
        """After a slow replay the chosen speed comes back (its buffer is cached: no second stretch)."""
        if self._slow_replay:
            self._slow_replay = False
            self._apply_speed()


def _joined(*messages: str) -> str:
    return "; ".join(text for text in messages if text)


def _own_direction(turn: Turn) -> str | None:
    return {"user": INPUT, "system": OUTPUT}.get(turn.speaker or "")
