"""Loudness normalisation of what is played (ITU-R BS.1770 via pyloudnorm), with a peak limiter.

Telephone turns are often recorded far too quietly: the annotator turns the volume up for one and is
deafened by the next. A quiet clip is raised to the target loudness (integrated, gated, in LUFS, measured
by pyloudnorm's BS.1770-4 meter); a clip already at least as loud plays as recorded, sample for sample
(nothing is ever made quieter, so a normal turn sounds exactly as in the file). Where the gain would push a
peak over the ceiling, a look-ahead limiter lowers the gain around that peak only, so no sample exceeds it.
Only the samples handed to the player change; the files never do.

A clip shorter than one 400 ms measuring block cannot be measured: it plays as recorded and the result
says why. Cost is linear in the clip (one meter pass, two running filters).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from annotator.audio.decode import Clip

DEFAULT_TARGET_LUFS = -23.0  # EBU R 128
CEILING_DBFS = -1.0  # no played sample goes above this
MAX_GAIN_DB = 30.0  # a near-silent clip is not blown up into its hiss
BLOCK_SECONDS = 0.4  # BS.1770's gating block: the shortest clip that can be measured
LOOKAHEAD_SECONDS = 0.005  # the limiter starts lowering the gain this long before a peak


_METER_LOADED = threading.Event()


def load_meter() -> None:
    """Import what measuring and limiting need (pyloudnorm, and scipy under it): seconds of CPU the first
    time, so a window does it on a worker before it measures on its own thread (meter_loaded)."""
    import pyloudnorm  # noqa: F401
    from scipy import ndimage  # noqa: F401

    _METER_LOADED.set()


def meter_loaded() -> bool:
    """Whether load_meter() has finished in this process."""
    return _METER_LOADED.is_set()


@dataclass(frozen=True)
class Normalised:
    samples: np.ndarray  # frames x channels, float32, read-only: what to play
    loudness: float | None  # LUFS of the clip as recorded; None when it could not be measured
    gain_db: float  # the gain applied before limiting (0: played as recorded)
    limited: bool  # the limiter had to lower some peaks
    note: str  # why nothing was done, for the status bar ("" when normalised or already loud enough)


def integrated_loudness(samples: np.ndarray, samplerate: int) -> float | None:
    """BS.1770 integrated loudness of SAMPLES (frames x channels) in LUFS; None when shorter than one block
    or silent (all blocks below the absolute gate)."""
    if samples.shape[0] < round(BLOCK_SECONDS * samplerate) + 1:
        return None
    import pyloudnorm  # imported once, by load_meter() ahead of the first measure in the window

    loudness = pyloudnorm.Meter(samplerate).integrated_loudness(np.asarray(samples, dtype=np.float64))
    return float(loudness) if np.isfinite(loudness) else None


def normalise(
    samples: np.ndarray, samplerate: int, target_lufs: float = DEFAULT_TARGET_LUFS, ceiling_dbfs: float = CEILING_DBFS
) -> Normalised:
    """SAMPLES raised to TARGET_LUFS when quieter, peaks limited to CEILING_DBFS (see the module docstring)."""
    loudness = integrated_loudness(samples, samplerate)
    if loudness is None:
        seconds = samples.shape[0] / samplerate if samplerate else 0.0
        why = "too short to measure" if seconds <= BLOCK_SECONDS else "silent"
        return Normalised(
            samples,
            None,
            0.0,
            False,
            f"loudness not normalised: the audio is {why} ({seconds:.2f} s); played as recorded",
        )
    gain_db = min(MAX_GAIN_DB, target_lufs - loudness)
    if gain_db <= 0.0:
        return Normalised(samples, loudness, 0.0, False, "")
    raised = samples.astype(np.float32) * np.float32(10.0 ** (gain_db / 20.0))
    limited, acted = limit_peaks(raised, samplerate, ceiling_dbfs)
    limited.flags.writeable = False
    return Normalised(limited, loudness, gain_db, acted, "")


def normalise_parts(
    samples: np.ndarray, samplerate: int, spans: Sequence[tuple[int, int]], target_lufs: float = DEFAULT_TARGET_LUFS
) -> np.ndarray:
    """SAMPLES with each (start, end) frame span normalised on its own (an exchange: the system prompt and
    the user's quieter reply each at the target); frames outside every span are kept."""
    if len(spans) <= 1:
        return normalise(samples, samplerate, target_lufs).samples
    out = np.array(samples, dtype=np.float32)
    for start, end in spans:
        out[start:end] = normalise(samples[start:end], samplerate, target_lufs).samples
    out.flags.writeable = False
    return out


def played_clip(clip: Clip, target_lufs: float = DEFAULT_TARGET_LUFS) -> tuple[Clip, str]:
    """The clip a player gets when normalising: CLIP with its quiet parts raised to TARGET_LUFS (each part
    of an exchange on its own), or CLIP itself when nothing changes; and why it was left as recorded when
    it could not be measured ("" otherwise)."""
    if len(clip.parts) > 1:
        spans = [
            (round(part.start * clip.samplerate), round((part.start + part.duration) * clip.samplerate))
            for part in clip.parts
        ]
        samples, note = normalise_parts(clip.samples, clip.samplerate, spans, target_lufs), ""
    else:
        result = normalise(clip.samples, clip.samplerate, target_lufs)
        samples, note = result.samples, result.note
    if samples is clip.samples:
        return clip, note
    return Clip(samples, clip.samplerate, clip.path, clip.parts), note


def limit_peaks(samples: np.ndarray, samplerate: int, ceiling_dbfs: float = CEILING_DBFS) -> tuple[np.ndarray, bool]:
    """SAMPLES with the gain lowered smoothly around every peak above the ceiling; whether it had to act.

    The gain each frame needs is ceiling / peak (at most 1). A running minimum over twice the look-ahead,
    then a running mean over the look-ahead, gives a smooth gain that is still at most the need of every
    frame it covers (each averaged value is a minimum over a window that contains the frame), so no sample
    ends above the ceiling and the gain falls and rises over a few milliseconds instead of clicking.
    """
    ceiling = np.float32(10.0 ** (ceiling_dbfs / 20.0))
    peaks = np.abs(samples).max(axis=1) if samples.size else np.zeros(0, dtype=np.float32)
    if peaks.size == 0 or peaks.max() <= ceiling:
        return samples, False
    need = np.minimum(1.0, ceiling / np.maximum(peaks, 1e-12)).astype(np.float64)
    width = max(1, round(LOOKAHEAD_SECONDS * samplerate))
    from scipy.ndimage import minimum_filter1d, uniform_filter1d

    gain = uniform_filter1d(minimum_filter1d(need, 2 * width + 1, mode="nearest"), width | 1, mode="nearest")
    gain = np.minimum(gain, need)  # rounding in the mean may leave a hair above a frame's need
    return (samples * gain[:, np.newaxis].astype(np.float32)).astype(np.float32), True
