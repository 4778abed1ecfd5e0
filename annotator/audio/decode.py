"""Reading an audio file into memory, refusing the ones that cannot be played.

Turns are short, so a whole file is decoded up front into one float32 array;
the playback callback then only copies from it. Files come from logs recorded
elsewhere and may be broken in every way (missing, empty, truncated, a header
that claims 0 Hz or hours of data): each problem is an AudioError whose one
line names the file, never a traceback or a multi-gigabyte allocation.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np
import soundfile

from annotator.clock import clock_text
from annotator.errors import AudioError

MAX_SECONDS = 3600.0
MAX_FILE_BYTES = 1 << 30  # 1 GiB on disk
MAX_DECODED_BYTES = 1 << 30  # 1 GiB of float32 samples in memory
MIN_SAMPLERATE = 1000  # below this nothing audible is left of speech
MAX_SAMPLERATE = 768_000
MAX_CHANNELS = 64


@dataclass(frozen=True)
class ClipPart:
    """Where one source file sits inside a clip (several for exchange playback)."""

    path: Path | None
    start: float  # seconds from the clip's start
    duration: float  # seconds


@dataclass(frozen=True, eq=False)
class Clip:
    """Decoded audio: samples are float32, shaped frames x channels, read-only."""

    samples: np.ndarray
    samplerate: int
    path: Path | None = None
    parts: tuple[ClipPart, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.samples.ndim != 2 or self.samples.dtype != np.float32:
            raise ValueError("Clip samples must be a float32 array shaped frames x channels")
        if self.samplerate <= 0:
            raise ValueError("Clip samplerate must be positive")
        # The audio thread reads this array while the caller's thread holds the
        # clip: freezing it rules out edits racing the callback.
        self.samples.flags.writeable = False
        if not self.parts:
            object.__setattr__(self, "parts", (ClipPart(self.path, 0.0, self.duration),))

    @property
    def frames(self) -> int:
        return int(self.samples.shape[0])

    @property
    def channels(self) -> int:
        return int(self.samples.shape[1])

    @property
    def duration(self) -> float:
        return self.frames / self.samplerate

    @property
    def name(self) -> str:
        return self.path.name if self.path is not None else "audio"

    def with_samples(self, samples: np.ndarray, samplerate: int) -> Clip:
        """The same clip (path, parts) holding other samples, e.g. resampled."""
        return Clip(np.ascontiguousarray(samples, dtype=np.float32), samplerate, self.path, self.parts)


def load_audio(
    path: str | os.PathLike[str],
    *,
    max_seconds: float = MAX_SECONDS,
    max_bytes: int = MAX_FILE_BYTES,
) -> Clip:
    """Decode a WAV, AU (mu-law, a-law, PCM), FLAC, NIST SPHERE... file that libsndfile reads."""
    path = Path(path)
    name = path.name or str(path)
    size = _checked_size(path, name, max_bytes)
    try:
        with soundfile.SoundFile(str(path)) as sound:
            _check_header(sound, name, max_seconds)
            samples = sound.read(dtype="float32", always_2d=True)
    except AudioError:
        raise
    except (soundfile.SoundFileError, RuntimeError, ValueError, TypeError, OverflowError, MemoryError) as error:
        declared = _declared_samplerate(path)
        if declared is not None and not MIN_SAMPLERATE <= declared <= MAX_SAMPLERATE:
            raise AudioError(_bad_rate_message(name, declared)) from error
        raise AudioError(f"{name}: not a readable audio file ({_libsndfile_reason(error)})") from error
    except OSError as error:
        raise AudioError(f"{name}: cannot be read ({_one_line(error.strerror or error)})") from error
    if samples.shape[0] == 0:
        # The header promised frames the file does not hold (truncated copy).
        raise AudioError(f"{name}: holds no audio (the data stops after the header; {size} bytes)")
    # Float files can carry NaN or huge values; the device must never get them.
    if not np.isfinite(samples).all():
        samples = np.nan_to_num(samples, nan=0.0, posinf=1.0, neginf=-1.0)
    np.clip(samples, -1.0, 1.0, out=samples)
    return Clip(np.ascontiguousarray(samples), int(sound.samplerate), path)


def _checked_size(path: Path, name: str, max_bytes: int) -> int:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise AudioError(f"{name}: the audio file does not exist ({path})") from None
    except OSError as error:
        raise AudioError(f"{name}: cannot be read ({_one_line(error.strerror or error)})") from error
    if not stat.S_ISREG(info.st_mode):
        raise AudioError(f"{name}: not a regular file, so it is not played")
    if info.st_size == 0:
        raise AudioError(f"{name}: the audio file is empty (0 bytes)")
    if info.st_size > max_bytes:
        raise AudioError(
            f"{name}: too large to play ({_megabytes(info.st_size)}; the limit is {_megabytes(max_bytes)})"
        )
    return info.st_size


def _check_header(sound: soundfile.SoundFile, name: str, max_seconds: float) -> None:
    rate, channels, frames = int(sound.samplerate), int(sound.channels), int(sound.frames)
    if not MIN_SAMPLERATE <= rate <= MAX_SAMPLERATE:
        raise AudioError(_bad_rate_message(name, rate))
    if not 1 <= channels <= MAX_CHANNELS:
        raise AudioError(f"{name}: {channels} channels; at most {MAX_CHANNELS} can be played")
    if frames <= 0:
        raise AudioError(f"{name}: holds no audio (0 frames)")
    if frames / rate > max_seconds:
        raise AudioError(
            f"{name}: {clock_text(frames / rate)} long; longer than the {clock_text(max_seconds)} that can be played"
        )
    if frames * channels * 4 > MAX_DECODED_BYTES:
        raise AudioError(f"{name}: too large to play ({_megabytes(frames * channels * 4)} once decoded)")


def _bad_rate_message(name: str, rate: int) -> str:
    if rate <= 0:
        return f"{name}: the header gives a sample rate of {rate} Hz; not playable"
    return f"{name}: sample rate {rate} Hz is outside {MIN_SAMPLERATE}-{MAX_SAMPLERATE} Hz; not playable"


def _declared_samplerate(path: Path) -> int | None:
    """The rate a WAV or AU header states: libsndfile calls a 0 Hz or absurd rate "SF_INFO struct incomplete"."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(4096)
    except OSError:
        return None
    if head[:4] == b".snd" and len(head) >= 20:  # AU: big-endian rate at byte 16
        return int.from_bytes(head[16:20], "big")
    if head[:4] in (b"RIFF", b"RIFX") and head[8:12] == b"WAVE":
        order: Literal["little", "big"] = "little" if head[:4] == b"RIFF" else "big"
        position = 12
        while position + 16 <= len(head):
            chunk, size = head[position : position + 4], int.from_bytes(head[position + 4 : position + 8], order)
            if chunk == b"fmt ":
                return int.from_bytes(head[position + 12 : position + 16], order)
            position += 8 + size + (size & 1)
    return None


def _libsndfile_reason(error: Exception) -> str:
    # soundfile prefixes "Error opening '<path>': ", which repeats the name we already give.
    reason = getattr(error, "error_string", None) or str(error)
    if "does not exist or is not a regular file" in reason:  # libsndfile's words for an unknown format
        reason = "format not recognised"
    return _one_line(reason).rstrip(".")


def _one_line(error: object) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def _megabytes(count: int) -> str:
    return f"{count / (1 << 20):.1f} MB"
