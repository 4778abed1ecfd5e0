"""Sample-rate and channel-count conversion of clips.

Resampling uses python-soxr (the SoX resampler: maintained, small wheels with
no system library, high quality at speech rates); it is imported only when a
rate really has to change, so a missing install costs nothing until then.
"""

from __future__ import annotations

import numpy as np

from annotator.audio.decode import Clip
from annotator.errors import AudioError


def resample(clip: Clip, samplerate: int) -> Clip:
    """The clip at another sample rate; the same clip when the rate already matches."""
    samplerate = int(samplerate)
    if samplerate <= 0:
        raise ValueError(f"cannot resample to {samplerate} Hz")
    if samplerate == clip.samplerate:
        return clip
    try:
        import soxr
    except ImportError as error:
        raise AudioError(
            f"{clip.name}: playing {clip.samplerate} Hz audio here needs the soxr package (pip install soxr)"
        ) from error
    converted = soxr.resample(np.asarray(clip.samples), clip.samplerate, samplerate, quality="HQ")
    if converted.shape[0] == 0:  # a clip of a few frames can vanish at a lower rate
        converted = np.zeros((1, clip.channels), dtype=np.float32)
    return clip.with_samples(converted, samplerate)


def with_channels(clip: Clip, channels: int) -> Clip:
    """The clip with exactly `channels` channels: mono is copied to all, others are mixed down first."""
    if channels < 1:
        raise ValueError(f"cannot play {channels} channels")
    if channels == clip.channels:
        return clip
    mono = clip.samples if clip.channels == 1 else clip.samples.mean(axis=1, keepdims=True, dtype=np.float32)
    return clip.with_samples(np.repeat(mono, channels, axis=1), clip.samplerate)
