"""Decoding audio files into clips, and refusing broken ones with one clear line."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from annotator.audio import Clip, load_audio
from annotator.errors import AudioError
from tests.support.sounds import noise, write_sound


def wav_bytes(
    *,
    rate: int = 8000,
    channels: int = 1,
    bits: int = 16,
    data: bytes = b"\x00\x10" * 400,
    data_size: int | None = None,
) -> bytes:
    """A PCM WAV written by hand, so its header can say things soundfile would never write."""
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", 1, channels, rate, rate * block, block, bits)
    size = len(data) if data_size is None else data_size
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", size) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


def au_bytes(*, rate: int = 8000, channels: int = 1, data: bytes = b"\x7f\x80" * 400) -> bytes:
    """A mu-law AU file written by hand (big-endian header of six words)."""
    return struct.pack(">4sIIIII", b".snd", 24, len(data), 1, rate, channels) + data


def refusal(path: Path, **limits: float) -> str:
    with pytest.raises(AudioError) as caught:
        load_audio(path, **limits)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path.name}: ")
    return message


def test_a_wav_becomes_float32_frames_by_channels(tmp_path: Path) -> None:
    source = noise(0.5, 16000, channels=2)
    clip = load_audio(write_sound(tmp_path / "stereo.wav", source, 16000))
    assert isinstance(clip, Clip)
    assert clip.samples.dtype == np.float32 and clip.samples.shape == (8000, 2)
    assert (clip.samplerate, clip.channels, clip.frames) == (16000, 2, 8000)
    assert clip.duration == pytest.approx(0.5)
    assert np.abs(clip.samples - source).max() <= 1 / 32768 + 1e-7
    assert clip.path == tmp_path / "stereo.wav" and clip.name == "stereo.wav"
    assert [(part.path, part.start, part.duration) for part in clip.parts] == [(clip.path, 0.0, 0.5)]


def test_clip_samples_are_read_only(tmp_path: Path) -> None:
    clip = load_audio(write_sound(tmp_path / "a.wav", noise(0.1, 8000), 8000))
    with pytest.raises(ValueError):
        clip.samples[0, 0] = 1.0


@pytest.mark.parametrize(
    ("name", "format", "subtype", "tolerance"),
    [
        ("mulaw.au", "AU", "ULAW", 0.04),
        ("alaw.au", "AU", "ALAW", 0.04),
        ("speech.flac", "FLAC", "PCM_16", 1 / 32768 + 1e-7),
        ("float.wav", "WAV", "FLOAT", 0.0),
        ("sphere.nist", "NIST", "PCM_16", 1 / 32768 + 1e-7),
    ],
)
def test_the_formats_of_recorded_dialogues_decode(
    tmp_path: Path, name: str, format: str, subtype: str, tolerance: float
) -> None:
    source = noise(0.3, 8000)
    clip = load_audio(write_sound(tmp_path / name, source, 8000, format=format, subtype=subtype))
    assert clip.samplerate == 8000 and clip.samples.shape == source.shape
    assert np.abs(clip.samples - source).max() <= tolerance


def test_a_hand_written_mulaw_au_decodes(tmp_path: Path) -> None:
    path = tmp_path / "prompt.au"
    path.write_bytes(au_bytes())
    clip = load_audio(path)
    assert (clip.samplerate, clip.channels, clip.frames) == (8000, 1, 800)


def test_sample_log_speech_decodes(sample_wavs: list[Path]) -> None:
    clip = load_audio(sample_wavs[0])
    assert clip.samplerate == 8000 and clip.channels == 1
    assert 0.5 < clip.duration < 30
    assert np.abs(clip.samples).max() > 0.05  # speech, not silence


def test_non_finite_float_samples_are_silenced(tmp_path: Path) -> None:
    source = np.array([[0.5], [np.nan], [np.inf], [-np.inf], [3.0]], dtype=np.float32)
    clip = load_audio(write_sound(tmp_path / "bad-values.wav", source, 8000, subtype="FLOAT"))
    assert clip.samples[:, 0].tolist() == [0.5, 0.0, 1.0, -1.0, 1.0]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    assert "does not exist" in refusal(tmp_path / "turn03.wav")


def test_a_folder_is_not_played(tmp_path: Path) -> None:
    (tmp_path / "turn03.wav").mkdir()
    assert "not a regular file" in refusal(tmp_path / "turn03.wav")


def test_a_zero_byte_file_is_empty(tmp_path: Path) -> None:
    (tmp_path / "turn03.wav").write_bytes(b"")
    assert "empty (0 bytes)" in refusal(tmp_path / "turn03.wav")


def test_corrupt_data_is_not_a_readable_audio_file(tmp_path: Path) -> None:
    path = tmp_path / "turn03.wav"
    path.write_bytes(bytes(np.random.default_rng(1).integers(0, 256, 5000, dtype=np.uint8)))
    assert "not a readable audio file" in refusal(path)


def test_a_header_without_data_chunk_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "turn03.wav"
    path.write_bytes(b"RIFF\x24\x00\x00\x00WAVE")
    assert "not a readable audio file" in refusal(path)


def test_a_wav_with_no_frames_holds_no_audio(tmp_path: Path) -> None:
    path = tmp_path / "turn03.wav"
    path.write_bytes(wav_bytes(data=b""))
    assert "holds no audio" in refusal(path)


@pytest.mark.parametrize("maker", [wav_bytes, au_bytes], ids=["wav", "au"])
def test_a_0_hz_header_is_named_as_such(tmp_path: Path, maker) -> None:
    path = tmp_path / "turn03.wav"
    path.write_bytes(maker(rate=0))
    assert "sample rate of 0 Hz" in refusal(path)


def test_an_absurd_sample_rate_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "turn03.wav"
    path.write_bytes(wav_bytes(rate=4_000_000_000 // 2))
    assert "Hz is outside" in refusal(path)


def test_a_header_with_65535_channels_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "turn03.wav"
    path.write_bytes(wav_bytes(channels=65535, bits=8))
    assert "not a readable audio file" in refusal(path)


def test_a_header_claiming_more_data_than_the_file_holds_plays_what_is_there(tmp_path: Path) -> None:
    path = tmp_path / "turn03.wav"
    path.write_bytes(wav_bytes(data_size=0xFFFFFFF0))
    assert load_audio(path).frames == 400


def test_an_enormous_sparse_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "turn03.wav"
    with open(path, "wb") as stream:
        stream.write(wav_bytes(data=b"", data_size=0xFFFFFFF0))
        stream.truncate(2 << 30)  # 2 GiB, sparse: costs no disk
    assert "too large to play" in refusal(path)
    # Under a generous byte cap the length is what refuses it (about 37 hours at 8 kHz).
    assert "longer than the 1:00:00" in refusal(path, max_bytes=4 << 30)


def test_limits_can_be_lowered(tmp_path: Path) -> None:
    path = write_sound(tmp_path / "turn03.wav", noise(2.0, 8000), 8000)
    assert "0:02 long; longer than the 0:01" in refusal(path, max_seconds=1.0)
    assert "too large to play" in refusal(path, max_bytes=1000)
