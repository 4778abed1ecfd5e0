"""The spectrogram of a clip, suited to 8 kHz telephone speech: 25 ms Hann windows every 10 ms, 0-4 kHz, in dB.

scipy.signal.spectrogram computes it (detrended frames, a periodic Hann window, one-sided power spectrum,
one FFT call over strided frames: 22 ms for 10 s of 8 kHz speech, docs/adr/0010-spectrogram.md), over blocks
of frames so that a long recording never has all its frames copied at once. scipy is imported on first use,
on the worker that computes the spectrogram, not when the window starts.
Whatever the rate, only 0-4 kHz is kept: the band a telephone carries, and all an 8 kHz recording has;
higher rates are cropped, not resampled, since cropping costs nothing and a 25 ms window is 25 ms at any
rate. Levels are dB relative to full scale (a full-scale sine's peak is -3 dB, its power), never below
FLOOR_DB, so digital silence is the floor everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

WINDOW_S = 0.025
HOP_S = 0.010
TOP_HZ = 4000.0
FLOOR_DB = -100.0  # below 16-bit quantisation noise in one 25 ms bin
DYNAMIC_RANGE_DB = 70.0  # what the colour map spans, down from the loudest cell
BLOCK_FRAMES = 2048  # frames transformed at once: 20 s of audio, a few MB at 8 kHz


@dataclass(frozen=True)
class Spectrogram:
    """levels[f, t] in dB at frequencies[f] (Hz) and times[t] (s, the windows' centres)."""

    levels: np.ndarray
    times: np.ndarray
    frequencies: np.ndarray
    duration: float  # of the clip, seconds

    @property
    def hop(self) -> float:
        return float(self.times[1] - self.times[0]) if len(self.times) > 1 else HOP_S

    @property
    def band(self) -> float:
        return float(self.frequencies[1] - self.frequencies[0]) if len(self.frequencies) > 1 else TOP_HZ

    def display_range(self) -> tuple[float, float]:
        """The dB levels the colour map spans: the loudest cell and DYNAMIC_RANGE_DB below it, not under the floor."""
        top = max(float(self.levels.max()), FLOOR_DB + 1.0) if self.levels.size else FLOOR_DB + 1.0
        return max(top - DYNAMIC_RANGE_DB, FLOOR_DB), top


def mono(samples: np.ndarray) -> np.ndarray:
    """SAMPLES ((frames,) or (frames, channels)) as one float32 channel: channels are averaged."""
    samples = np.asarray(samples, dtype=np.float32)
    return samples.mean(axis=1, dtype=np.float32) if samples.ndim == 2 else samples


def frame_lengths(samplerate: int) -> tuple[int, int, int]:
    """Window, hop and FFT length in samples at SAMPLERATE (the FFT a power of two at least the window)."""
    window = max(2, round(WINDOW_S * samplerate))
    hop = max(1, round(HOP_S * samplerate))
    return window, hop, 1 << (window - 1).bit_length()


def spectrogram(samples: np.ndarray, samplerate: int) -> Spectrogram:
    """The dB spectrogram of SAMPLES at SAMPLERATE, 0-4 kHz (up to half the rate when that is lower)."""
    if samplerate <= 0:
        raise ValueError(f"cannot analyse audio at {samplerate} Hz")
    signal = mono(samples)
    if len(signal) == 0:
        raise ValueError("cannot analyse an empty clip")
    window, hop, fft_length = frame_lengths(samplerate)
    half = window // 2  # zeros each side, so that the first window is centred at 0 s and the last at the end
    padded = np.pad(signal, (half, half))
    frame_count = (len(padded) - window) // hop + 1
    frequencies = np.fft.rfftfreq(fft_length, 1.0 / samplerate)
    kept = frequencies <= TOP_HZ
    levels = np.empty((int(kept.sum()), frame_count), dtype=np.float32)
    for first in range(0, frame_count, BLOCK_FRAMES):
        count = min(BLOCK_FRAMES, frame_count - first)
        span = padded[first * hop : (first + count - 1) * hop + window]
        levels[:, first : first + count] = _levels(span, samplerate, window, hop, fft_length, kept)
    times = (np.arange(frame_count) * hop) / samplerate
    return Spectrogram(levels, times, frequencies[kept], len(signal) / samplerate)


def _levels(span: np.ndarray, samplerate: int, window: int, hop: int, fft_length: int, kept: np.ndarray) -> np.ndarray:
    """dB levels (kept frequencies x frames) of the frames of SPAN."""
    from scipy.signal import spectrogram as power_spectrogram  # 1.5 s of CPU to import: on the worker, once

    _, _, power = power_spectrogram(
        span,
        samplerate,
        window="hann",
        nperseg=window,
        noverlap=window - hop,
        nfft=fft_length,
        detrend="constant",
        scaling="spectrum",
        mode="psd",
    )
    levels = 10.0 * np.log10(np.maximum(power[kept], np.float32(10.0 ** (FLOOR_DB / 10.0))))
    # The floor's power is not exact in float32 (log10 of it is -100.00001 with numpy 2.4's float32 log10):
    # clipped again in dB so that silence is FLOOR_DB exactly, whatever numpy rounds.
    return np.maximum(levels, np.float32(FLOOR_DB), out=levels)
