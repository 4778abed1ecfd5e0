"""Where a clip holds speech: an energy detector over the telephone band (docs/adr/0011-voice-activity.md).

The clip is band-passed to 300-3400 Hz (scipy.signal, a Butterworth filter run forwards and backwards, so
mains hum, DC and line hiss above the band do not count as speech), cut into 30 ms frames every 10 ms, and
each frame's energy compared with a threshold set from the clip itself: above the quiet floor (a low
percentile of the frame energies) by a share of the floor-to-loud range, never below an absolute level.
Gaps in speech shorter than MIN_PAUSE_S are filled (the stops inside words) and islands shorter than
MIN_SPEECH_S are dropped (clicks). Cost: linear in the clip.
"""

from __future__ import annotations

import numpy as np

BAND_HZ = (300.0, 3400.0)  # the telephone band
FRAME_S, HOP_S = 0.030, 0.010
FLOOR_PERCENTILE, LOUD_PERCENTILE = 10.0, 95.0
THRESHOLD_SHARE = 0.3  # of the dB range from the quiet floor to the loud frames
MIN_MARGIN_DB = 6.0  # speech stands at least this far above the floor
ABSOLUTE_FLOOR_DBFS = -60.0  # quieter than this is silence whatever the clip
MIN_PAUSE_S, MIN_SPEECH_S = 0.200, 0.080


def speech_intervals(samples: np.ndarray, samplerate: int) -> list[tuple[float, float]]:
    """The (start, end) seconds of speech in SAMPLES ((frames,) or (frames, channels), any rate), in order."""
    mono = np.asarray(samples, dtype=np.float64)
    if mono.ndim == 2:
        mono = mono.mean(axis=1)
    frame, hop = max(1, round(FRAME_S * samplerate)), max(1, round(HOP_S * samplerate))
    if samplerate <= 0 or mono.shape[0] < frame:
        return []
    mono = _telephone_band(mono, samplerate)
    levels = _frame_levels_db(mono, frame, hop)
    speech = levels > _threshold_db(levels)
    pause, island = max(1, round(MIN_PAUSE_S / HOP_S)), max(1, round(MIN_SPEECH_S / HOP_S))
    padded = np.pad(speech, pause)  # closing must not join speech to the clip's edges
    from scipy.ndimage import binary_closing, binary_opening  # imported on the worker, not at start

    speech = binary_opening(binary_closing(padded, np.ones(pause, bool)), np.ones(island, bool))[pause:-pause]
    return _runs(speech, frame, hop, samplerate, mono.shape[0])


def _telephone_band(mono: np.ndarray, samplerate: int) -> np.ndarray:
    nyquist = samplerate / 2
    low, high = BAND_HZ[0] / nyquist, min(BAND_HZ[1], 0.95 * nyquist) / nyquist
    if mono.shape[0] <= 27 or low >= high:  # too short for the filter's padding: use as is
        return mono
    from scipy.signal import butter, sosfiltfilt

    return sosfiltfilt(butter(4, [low, high], btype="bandpass", output="sos"), mono)


def _frame_levels_db(mono: np.ndarray, frame: int, hop: int) -> np.ndarray:
    """RMS level in dBFS of each frame, from a running sum of squares (linear in the clip)."""
    count = 1 + (mono.shape[0] - frame) // hop
    sums = np.concatenate([[0.0], np.cumsum(mono * mono)])
    starts = np.arange(count) * hop
    power = (sums[starts + frame] - sums[starts]) / frame
    return 10.0 * np.log10(np.maximum(power, 1e-12))


def _threshold_db(levels: np.ndarray) -> float:
    floor, loud = np.percentile(levels, [FLOOR_PERCENTILE, LOUD_PERCENTILE])
    return max(ABSOLUTE_FLOOR_DBFS, floor + max(MIN_MARGIN_DB, THRESHOLD_SHARE * (loud - floor)))


def _runs(speech: np.ndarray, frame: int, hop: int, samplerate: int, total: int) -> list[tuple[float, float]]:
    """Runs of True frames as seconds: from the first frame's start to the last frame's end."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], speech.astype(np.int8), [0]])))
    return [
        (float(start * hop / samplerate), float(min(total, (end - 1) * hop + frame) / samplerate))
        for start, end in zip(edges[::2], edges[1::2], strict=True)
    ]
