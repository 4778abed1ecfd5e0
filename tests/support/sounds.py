"""Sounds for the audio tests: generated signals, and reading back what the player played."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile


def noise(seconds: float, rate: int, channels: int = 1, seed: int = 7, level: float = 0.4) -> np.ndarray:
    """Seeded noise: no two stretches alike, so alignment by cross-correlation is unambiguous."""
    rng = np.random.default_rng(seed)
    frames = int(round(seconds * rate))
    return (level * rng.uniform(-1.0, 1.0, size=(frames, channels))).astype(np.float32)


def tone(seconds: float, rate: int, frequency: float = 440.0, channels: int = 1, level: float = 0.5) -> np.ndarray:
    t = np.arange(int(round(seconds * rate))) / rate
    wave = (level * np.sin(2 * np.pi * frequency * t)).astype(np.float32)
    return np.repeat(wave[:, None], channels, axis=1)


def write_sound(path: Path, samples: np.ndarray, rate: int, *, format: str = "WAV", subtype: str = "PCM_16") -> Path:
    soundfile.write(path, samples, rate, format=format, subtype=subtype)
    return path


def dominant_frequency(samples: np.ndarray, rate: int) -> float:
    mono = samples.mean(axis=1) if samples.ndim == 2 else samples
    spectrum = np.abs(np.fft.rfft(mono * np.hanning(len(mono))))
    return float(np.fft.rfftfreq(len(mono), 1.0 / rate)[int(np.argmax(spectrum))])


@dataclass
class Played:
    samples: np.ndarray  # frames x channels, float32
    rate: int


def read_played(path: Path) -> Played:
    """Read what ALSA's file plugin wrote.

    The plugin labels 32-bit float data as 32-bit integer PCM in the WAV
    header, and the player always sends float32, so a 32-bit file is read
    as float32; other widths are integer PCM as labelled.
    """
    data = path.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE", f"{path} is not a WAV file"
    position, fmt, payload = 12, None, None
    while position + 8 <= len(data):
        chunk, size = data[position : position + 4], int.from_bytes(data[position + 4 : position + 8], "little")
        body = data[position + 8 : position + 8 + size]
        if chunk == b"fmt ":
            fmt = body
        elif chunk == b"data":
            payload = data[position + 8 :]  # the size may be stale if the stream was not closed
            break
        position += 8 + size + (size & 1)
    assert fmt is not None and payload is not None, f"{path} has no fmt or data chunk"
    channels = int.from_bytes(fmt[2:4], "little")
    rate = int.from_bytes(fmt[4:8], "little")
    bits = int.from_bytes(fmt[14:16], "little")
    if bits == 32:
        samples = np.frombuffer(payload[: len(payload) // 4 * 4], dtype="<f4")
    elif bits == 16:
        samples = np.frombuffer(payload[: len(payload) // 2 * 2], dtype="<i2").astype(np.float32) / 32768.0
    else:
        raise AssertionError(f"unexpected {bits}-bit samples in {path}")
    samples = samples[: len(samples) // channels * channels].reshape(-1, channels)
    return Played(np.array(samples, dtype=np.float32), rate)


def find_offset(source: np.ndarray, played: np.ndarray) -> int:
    """Where `source` starts inside `played`, by cross-correlating the first channels."""
    a, b = played[:, 0].astype(np.float64), source[:, 0].astype(np.float64)
    size = 1 << (len(a) + len(b) - 1).bit_length()
    correlation = np.fft.irfft(np.fft.rfft(a, size) * np.conj(np.fft.rfft(b, size)), size)
    return int(np.argmax(correlation[: len(a)]))


def assert_played_exactly(source: np.ndarray, played: Played, *, tolerance: float = 2e-3) -> None:
    """`played` holds `source` once, whole, with only silence around it."""
    offset = find_offset(source, played.samples)
    heard = played.samples[offset : offset + len(source)]
    assert heard.shape == source.shape, f"played {len(heard)} frames from offset {offset}, expected {len(source)}"
    assert np.abs(heard - source).max() <= tolerance
    assert np.abs(played.samples[:offset]).max(initial=0.0) == 0.0, "sound before the clip"
    assert np.abs(played.samples[offset + len(source) :]).max(initial=0.0) == 0.0, "sound after the clip"
