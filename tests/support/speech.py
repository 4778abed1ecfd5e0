"""Real synthetic speech for the voice-activity tests: espeak-ng words with known silences between them, made
with sox (both skipped where the tools are missing)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from annotator.audio import load_audio

needs_tools = pytest.mark.skipif(
    not (shutil.which("espeak-ng") and shutil.which("sox")),
    reason="espeak-ng and sox make the speech (apt-get install espeak-ng sox)",
)


def _run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=60)


def spoken_word(folder: Path, word: str) -> Path:
    """WORD said by espeak-ng, at 8 kHz mono, its leading and trailing silence trimmed by sox."""
    raw, trimmed = folder / f"{word}-raw.wav", folder / f"{word}.wav"
    _run("espeak-ng", "-w", str(raw), word)
    _run(
        "sox",
        str(raw),
        "-r",
        "8000",
        "-c",
        "1",
        "-b",
        "16",
        str(trimmed),
        "silence",
        "1",
        "0.005",
        "0.5%",
        "reverse",
        "silence",
        "1",
        "0.005",
        "0.5%",
        "reverse",
    )
    return trimmed


def words_with_silence(folder: Path, gap_s: float) -> tuple[Path, float, float]:
    """ "hello", GAP_S of silence, "world": the file and where the silence starts and ends (seconds)."""
    hello, world = spoken_word(folder, "hello"), spoken_word(folder, "world")
    silence, joined = folder / "silence.wav", folder / "hello-world.wav"
    _run("sox", "-n", "-r", "8000", "-c", "1", "-b", "16", str(silence), "trim", "0", str(gap_s))
    _run("sox", str(hello), str(silence), str(world), str(joined))
    start = load_audio(hello).duration
    return joined, start, start + gap_s
