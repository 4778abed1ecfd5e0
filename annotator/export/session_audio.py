"""One WAV of a whole session: the user's audio on the left channel, the system's on the right.

    wav_bytes, warnings = session_wav(timeline, duration_ms=tiers.duration_ms)

Each clip is placed where the timeline's audio lane places it (annotator.timeline.audio: where the
turn's utterance was heard), resampled with soxr to the highest rate among the clips (no clip
loses detail; 16 kHz when there is none), silence elsewhere. The file is as long as the session
(DURATION_MS), or longer when a clip runs past its end, so that Praat and ELAN show every clip.
Clips of one side that overlap are mixed. A clip that is missing or cannot be decoded leaves
silence and a warning. 16-bit PCM: what every tool reads, and half the size of float.
"""

from __future__ import annotations

import io

import numpy as np
import soundfile

from annotator.audio.decode import Clip, load_audio
from annotator.audio.resample import resample, with_channels
from annotator.errors import AudioError
from annotator.timeline.audio import AudioSegment
from annotator.timeline.data import TimelineData

DEFAULT_RATE = 16000
CHANNEL_OF_SIDE = {"user": 0, "system": 1}
_FULL_SCALE = 32767
_WARNINGS_SHOWN = 3


def session_wav(timeline: TimelineData, duration_ms: int) -> tuple[bytes, list[str]]:
    """The session's stereo WAV (16-bit PCM) and the warnings about clips that are not in it."""
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
    frames = max([int(round(duration_ms * rate / 1000)), *(at + len(samples) for at, _, samples in clips), 1])
    pcm = np.zeros((frames, 2), dtype=np.int16)  # the session's length in 16-bit: a quarter of it in float64
    for at, channel, samples in clips:
        place = pcm[at : at + len(samples), channel]
        mixed = place / _FULL_SCALE + samples  # silence, or a clip of the same side already there
        place[:] = (np.clip(mixed, -1.0, 1.0) * _FULL_SCALE).round()
    stream = io.BytesIO()
    soundfile.write(stream, pcm, rate, subtype="PCM_16", format="WAV")
    return stream.getvalue(), warnings


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
