"""One WAV of a whole session: the user's audio on the left channel, the system's on the right.

    audio = session_audio(timeline, duration_ms=tiers.duration_ms)
    with open("NAME.wav", "wb") as stream:
        audio.write(stream)               # block by block: memory holds the clips, not the session
    audio.warnings                        # the clips that are not in it

Each clip is placed where the timeline's audio lane places it (annotator.timeline.audio: where the
turn's utterance was heard), resampled with soxr to the highest rate among the clips (no clip
loses detail; 16 kHz when there is none), silence elsewhere. The file is as long as the session
(DURATION_MS), or longer when a clip runs past its end, so that Praat and ELAN show every clip.
Clips of one side that overlap are mixed. A clip that is missing or cannot be decoded leaves
silence and a warning. 16-bit PCM: what every tool reads, and half the size of float. Only the
clips are held in memory; the silence between them is written a block at a time, so a long
session costs disk, not memory (annotator.export.session_length bounds how long).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import BinaryIO

import numpy as np

from annotator.audio.decode import Clip, load_audio
from annotator.audio.resample import resample, with_channels
from annotator.errors import AudioError
from annotator.timeline.audio import AudioSegment
from annotator.timeline.data import TimelineData

DEFAULT_RATE = 16000
CHANNEL_OF_SIDE = {"user": 0, "system": 1}
_FULL_SCALE = 32767
_WARNINGS_SHOWN = 3
BLOCK_FRAMES = 1 << 16  # written at a time: 1 MB of float64 stereo, whatever the session's length
WAV_HEADER_BYTES = 44


@dataclass
class SessionAudio:
    """The session's WAV before it is written: the clips where they go, at one rate. It holds the clips,
    never the session's length in samples: write() makes the file a block at a time."""

    rate: int
    frames: int  # the WAV's length
    clips: list[tuple[int, int, np.ndarray]]  # first frame, channel, mono samples at RATE; by first frame
    warnings: list[str] = field(default_factory=list)  # the clips that are not in it, and why

    @property
    def size(self) -> int:
        """The WAV's size in bytes: 16-bit stereo frames after the header."""
        return WAV_HEADER_BYTES + self.frames * 4

    def write(self, stream: BinaryIO) -> None:
        """The stereo WAV (16-bit PCM) into STREAM, front to back. The header is ours, as libsndfile writes
        it: the length is known before the first sample, and an error of STREAM (a full disk) reaches the
        caller as the OSError it is, where libsndfile's writer through Python would swallow it."""
        data = self.frames * 4
        stream.write(
            b"RIFF"
            + struct.pack("<I", WAV_HEADER_BYTES - 8 + data)
            + b"WAVEfmt "
            + struct.pack("<IHHIIHH", 16, 1, 2, self.rate, self.rate * 4, 4, 16)  # PCM, 2 channels, 16-bit
            + b"data"
            + struct.pack("<I", data)
        )
        waiting = iter(self.clips)
        upcoming = next(waiting, None)
        playing: list[tuple[int, int, np.ndarray]] = []
        for first in range(0, self.frames, BLOCK_FRAMES):
            last = min(first + BLOCK_FRAMES, self.frames)
            while upcoming is not None and upcoming[0] < last:
                playing.append(upcoming)
                upcoming = next(waiting, None)
            block = np.zeros((last - first, 2))
            for at, channel, samples in playing:  # clips of one side that overlap are mixed
                start, stop = max(at, first), min(at + len(samples), last)
                block[start - first : stop - first, channel] += samples[start - at : stop - at]
            playing = [clip for clip in playing if clip[0] + len(clip[2]) > last]
            stream.write((np.clip(block, -1.0, 1.0) * _FULL_SCALE).round().astype("<i2").tobytes())


def session_audio(timeline: TimelineData, duration_ms: int) -> SessionAudio:
    """The session's WAV, to be written, and the warnings about clips that are not in it."""
    warnings: list[str] = []
    placed: list[tuple[float, int, Clip]] = []  # seconds from the session start, channel, mono clip
    lane = timeline.audio_lane
    if lane is not None:
        for start, segment in zip(lane.bars.starts.tolist(), lane.bars.payloads):
            clip = _mono_clip(segment, _turn_name(timeline, segment), warnings)
            if clip is not None:
                placed.append((max(start, 0.0), CHANNEL_OF_SIDE[segment.side], clip))
    if len(warnings) > _WARNINGS_SHOWN:  # a log copied without its audio: one line per clip would bury the rest
        warnings[_WARNINGS_SHOWN:] = [f"and {len(warnings) - _WARNINGS_SHOWN} more clip(s) missing or unreadable"]
    rate = max((clip.samplerate for _, _, clip in placed), default=DEFAULT_RATE)
    clips = [(int(round(start * rate)), channel, resample(clip, rate).samples[:, 0]) for start, channel, clip in placed]
    clips.sort(key=lambda clip: clip[0])
    frames = max([int(round(duration_ms * rate / 1000)), *(at + len(samples) for at, _, samples in clips), 1])
    return SessionAudio(rate, frames, clips, warnings)


def _turn_name(timeline: TimelineData, segment: AudioSegment) -> str:
    if segment.turn_index is None or timeline.session is None:
        return "an operation outside the turns"
    return f"turn {timeline.session.turns[segment.turn_index].id}"


def _mono_clip(segment: AudioSegment, turn: str, warnings: list[str]) -> Clip | None:
    if segment.path is None:
        warnings.append(
            f"{segment.side} audio of {turn}: {segment.problem or f'missing ({segment.written})'}; silence there"
        )
        return None
    try:
        return with_channels(load_audio(segment.path), 1)
    except AudioError as error:
        warnings.append(f"{segment.side} audio of {turn}: {error}; silence there")
        return None
