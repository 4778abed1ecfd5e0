"""Playing one clip: play/pause, seek, back, loop and speed, with no Qt and no clock.

Threading (see DESIGN.md): every method runs on the caller's thread (the
GUI's), which alone creates, starts, stops and closes PortAudio streams. The
audio callback runs on PortAudio's thread and only copies samples out of a
preloaded array, advances a frame counter and sets a flag at the end. The
caller polls (`poll()`, ~30 times a second) to read the position and notice
the end. Position comes from the frame counter only, never a clock, so it is
right on a device that runs faster or slower than real time.

What the two threads share, and why no lock is needed:
  - `_frame`, `_delivered`, `_reached_end`, `_seek_seen` are written by the
    callback while a stream runs and by the caller only while none runs;
  - `_seek_request` (a (number, frame) tuple, swapped whole) is how the caller
    moves a running stream: the callback applies each new number once;
  - `_buffer` and `_end_frame` (where play_until stops) are replaced only while no stream runs;
  - `loop` is a bool the callback reads.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from annotator.audio import devices
from annotator.audio.decode import Clip
from annotator.audio.resample import resample, with_channels
from annotator.audio.stretch import MAX_SPEED, MIN_SPEED, change_speed
from annotator.errors import AudioError

BACK_SECONDS = 2.0


class PlayerState(enum.Enum):
    STOPPED = "stopped"
    PLAYING = "playing"
    PAUSED = "paused"


class Player:
    """Plays one loaded clip on the default output device."""

    def __init__(self) -> None:
        self._clip: Clip | None = None
        self._state = PlayerState.STOPPED
        self._loop = False
        self._speed = 1.0
        self._format: tuple[int, int] | None = None  # (rate, channels) the device accepted for this clip
        self._buffers: dict[tuple[float, tuple[int, int] | None], np.ndarray] = {}
        self._buffer = np.zeros((1, 1), dtype=np.float32)
        self._stream: Any = None
        self._callback_stop: type[BaseException] = Exception  # sounddevice.CallbackStop once a stream opens
        # Shared with the callback (see the module docstring).
        self._frame = 0
        self._delivered = 0
        self._reached_end = False
        self._seek_request = (0, 0)
        self._seek_seen = 0
        self._end_frame: int | None = None  # play_until's stop, in frames of _buffer

    # -- what the caller reads -------------------------------------------------

    @property
    def clip(self) -> Clip | None:
        return self._clip

    @property
    def state(self) -> PlayerState:
        return self._state

    @property
    def duration(self) -> float:
        """Length of the loaded clip in its own seconds (speed does not change it)."""
        return self._clip.duration if self._clip is not None else 0.0

    @property
    def position(self) -> float:
        """Seconds into the loaded clip, as if played at 1x, from the frame counter."""
        number, target = self._seek_request
        frame = target if number != self._seek_seen else self._frame
        return self._seconds(frame)

    @property
    def frames_delivered(self) -> int:
        """Frames handed to the device since the clip was loaded (loops included)."""
        return self._delivered

    @property
    def loop(self) -> bool:
        return self._loop

    @loop.setter
    def loop(self, value: bool) -> None:
        self._loop = bool(value)

    @property
    def speed(self) -> float:
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        """Play `value` times as fast at the same pitch (0.25-2.0); the position is kept.

        Stretching runs here, on the caller's thread (about 0.1 s for a turn
        of speech); AudioError when the stretching tool is missing, and the
        speed then stays as it was.
        """
        value = float(value)
        if not MIN_SPEED <= value <= MAX_SPEED:
            raise ValueError(f"speed {value} is outside {MIN_SPEED}-{MAX_SPEED}")
        if value == self._speed:
            return
        if self._clip is None:
            self._speed = value
            return
        buffer = self._buffer_for(value, self._format)
        self._speed = value
        self._replace_buffer(buffer)

    # -- what the caller does --------------------------------------------------

    def load(self, clip: Clip, stretched: dict[float, np.ndarray] | None = None) -> None:
        """Make `clip` the one to play, from its start; whatever was playing stops first. STRETCHED: the clip
        already played at some speeds (change_speed, made on another thread), so that none is stretched here."""
        self.stop()
        self._clip = clip
        self._format = None
        self._buffers.clear()
        for speed, samples in (stretched or {}).items():
            self._buffers[(speed, None)] = samples
        self._buffer = clip.samples
        self._frame = 0
        self._delivered = 0
        self._end_frame = None
        if self._speed != 1.0:
            try:
                self._buffer = self._buffer_for(self._speed, None)
            except AudioError:
                self._speed = 1.0  # the clip stays loaded, at normal speed
                raise

    def unload(self) -> None:
        self.stop()
        self._clip = None
        self._buffers.clear()
        self._buffer = np.zeros((1, 1), dtype=np.float32)

    def play(self) -> None:
        """Start or resume; from the start again when the clip had played to its end."""
        if self._clip is None:
            raise AudioError("nothing to play: no audio is loaded")
        if self._state is PlayerState.PLAYING and not self._reached_end:
            return
        self._halt_stream()
        self._end_frame = None
        if self._frame >= self._buffer.shape[0]:
            self._frame = 0
        self._start_stream()

    def play_until(self, seconds: float) -> None:
        """Play from the position to SECONDS of the clip (not looping), then stop there: the state becomes
        STOPPED with the position at SECONDS, and play() carries on from it."""
        if self._clip is None:
            raise AudioError("nothing to play: no audio is loaded")
        self._halt_stream()
        self._end_frame = self._frame_at(seconds)
        self._start_stream()

    def pause(self) -> None:
        if self._state is PlayerState.PLAYING:
            self._halt_stream()
            self._state = PlayerState.PAUSED

    def toggle(self) -> None:
        if self._state is PlayerState.PLAYING and not self._reached_end:
            self.pause()
        else:
            self.play()

    def stop(self) -> None:
        """Stop, release the device and go back to the start."""
        self._close_stream()
        self._frame = 0
        self._end_frame = None
        self._state = PlayerState.STOPPED

    def replay(self) -> None:
        """Play from the start, whatever the state."""
        if self._clip is None:
            raise AudioError("nothing to play: no audio is loaded")
        self._halt_stream()
        self._frame = 0
        self._end_frame = None
        self._start_stream()

    def seek(self, seconds: float) -> None:
        """Move to `seconds` of the clip (clamped to the clip), playing on if it was playing."""
        if self._clip is None:
            return
        frame = self._frame_at(seconds)
        if self._state is PlayerState.PLAYING and self._reached_end:
            # The callback has already finished: it would never see a request.
            self._halt_stream()
            self._frame = frame
            self._start_stream()
        elif self._state is PlayerState.PLAYING:
            self._seek_request = (self._seek_request[0] + 1, frame)
        else:
            self._frame = frame

    def back(self, seconds: float = BACK_SECONDS) -> None:
        """Jump `seconds` back (not before the start)."""
        self.seek(max(0.0, self.position - seconds))

    def poll(self) -> float:
        """The position in seconds; notices the end of playback (state becomes STOPPED).

        Call it regularly from the caller's thread while playing. Raises
        AudioError once if the device stopped the sound before its end.
        """
        if self._state is PlayerState.PLAYING and self._stream is not None:
            try:
                finished = not self._stream.active  # read before the flag: the callback sets the flag first
            except Exception:  # noqa: BLE001 - sounddevice.PortAudioError: the device is gone
                finished = True
            if finished:
                reached_end = self._reached_end
                self._close_stream()
                self._state = PlayerState.STOPPED
                if not reached_end:
                    raise AudioError(f"{self._clip_name()}: playback stopped early; the audio output went away")
        return self.position

    def close(self) -> None:
        """Stop and let go of the device; the player can still be used again."""
        self.stop()

    # -- the audio thread ---------------------------------------------------------

    def _callback(self, outdata: np.ndarray, frames: int, time_info: Any, status: Any) -> None:
        """PortAudio's thread: copy samples, advance counters, flag the end. Nothing else."""
        buffer = self._buffer
        end = self._end_frame
        total = buffer.shape[0] if end is None else min(end, buffer.shape[0])
        number, target = self._seek_request
        if number != self._seek_seen:
            self._seek_seen = number
            self._frame = target
        position = self._frame
        written = 0
        while written < frames:
            count = min(frames - written, total - position)
            if count > 0:
                outdata[written : written + count] = buffer[position : position + count]
                written += count
                position += count
            if position >= total:
                if self._loop and end is None:
                    position = 0
                    continue
                outdata[written:] = 0
                self._frame = position
                self._delivered += written
                self._reached_end = True
                raise self._callback_stop
        self._frame = position
        self._delivered += frames

    # -- streams and buffers, on the caller's thread ----------------------------------

    def _start_stream(self) -> None:
        if self._stream is None:
            self._open_stream()
        self._reached_end = False
        try:
            self._stream.start()
        except Exception as error:  # sounddevice.PortAudioError; the module is imported lazily
            self._close_stream()
            self._state = PlayerState.STOPPED
            raise AudioError(f"{self._clip_name()}: the audio output refused to start ({_one_line(error)})") from error
        self._state = PlayerState.PLAYING

    def _open_stream(self) -> None:
        assert self._clip is not None
        device = devices.default_output()
        audio_format = devices.playable_format(device, self._clip.samplerate, self._clip.channels)
        if audio_format != self._format:
            buffer = self._buffer_for(self._speed, audio_format)
            self._format = audio_format
            self._replace_buffer(buffer)
        self._callback_stop = devices.callback_stop()
        rate, channels = audio_format
        self._stream = devices.open_output_stream(device, rate, channels, self._callback)

    def _halt_stream(self) -> None:
        """Stop the callback (keeping the stream) and apply a seek it had not seen yet."""
        if self._stream is not None and not self._stream.stopped:
            self._stream.abort(ignore_errors=True)
        number, target = self._seek_request
        if number != self._seek_seen:
            self._seek_seen = number
            self._frame = target

    def _close_stream(self) -> None:
        self._halt_stream()
        if self._stream is not None:
            stream, self._stream = self._stream, None
            stream.close(ignore_errors=True)

    def _replace_buffer(self, buffer: np.ndarray) -> None:
        """Swap in another rendering of the clip, keeping the place in it."""
        was_playing = self._state is PlayerState.PLAYING and not self._reached_end
        self._halt_stream()
        old_total = self._buffer.shape[0]
        self._frame = min(buffer.shape[0], round(self._frame * buffer.shape[0] / old_total))
        if self._end_frame is not None:
            self._end_frame = min(buffer.shape[0], round(self._end_frame * buffer.shape[0] / old_total))
        self._buffer = buffer
        if was_playing:
            self._start_stream()

    def _buffer_for(self, speed: float, audio_format: tuple[int, int] | None) -> np.ndarray:
        """The clip at `speed`, in the device's (rate, channels): cached per clip."""
        assert self._clip is not None
        if audio_format == (self._clip.samplerate, self._clip.channels):
            audio_format = None  # the clip as it is: the rendering made at load serves the device too
        key = (speed, audio_format)
        if key not in self._buffers:
            clip = self._clip
            if audio_format is not None:
                rate, channels = audio_format
                clip = with_channels(resample(clip, rate), channels)
            samples = change_speed(clip.samples, clip.samplerate, speed)
            samples.flags.writeable = False
            self._buffers[key] = samples
        return self._buffers[key]

    def _seconds(self, frame: int) -> float:
        if self._clip is None:
            return 0.0
        return min(frame, self._buffer.shape[0]) / self._buffer.shape[0] * self._clip.duration

    def _frame_at(self, seconds: float) -> int:
        assert self._clip is not None
        fraction = min(max(float(seconds), 0.0) / self._clip.duration, 1.0)
        return min(self._buffer.shape[0], round(fraction * self._buffer.shape[0]))

    def _clip_name(self) -> str:
        return self._clip.name if self._clip is not None else "audio"


def _one_line(error: object) -> str:
    return " ".join(str(error).split()) or type(error).__name__
