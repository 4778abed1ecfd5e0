"""Sentences said by espeak-ng with each word's true start (tests.support.espeak_words, in a child process),
at the rate asked for (sox resamples): the truth the aligner's tests and its benchmark measure against."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]

needs_speech = pytest.mark.skipif(
    not shutil.which("sox"), reason="sox resamples espeak-ng's speech (apt-get install sox)"
)


@dataclass(frozen=True)
class Spoken:
    path: Path
    text: str
    starts: list[float]  # each word's true start, seconds from the file's start (NaN: not known, see espeak_words)
    end: float  # where the speech ends


def spoken(folder: Path, text: str, rate: int, name: str = "spoken") -> Spoken:
    """TEXT said into FOLDER/NAME.wav at RATE Hz, mono, 16-bit."""
    raw, out = folder / f"{name}-raw.wav", folder / f"{name}.wav"
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.espeak_words", str(raw), text],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPOSITORY,
        check=True,
    )
    truth = json.loads(done.stdout)
    subprocess.run(["sox", str(raw), "-r", str(rate), "-c", "1", "-b", "16", str(out)], check=True, timeout=60)
    raw.unlink()
    return Spoken(out, text, truth["starts"], truth["end"])


_PLACES = ["Boston", "Pittsburgh", "Denver", "San Francisco", "Atlanta", "Seattle", "Chicago", "Miami", "Dallas"]
_DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
_TIMES = ["in the morning", "in the afternoon", "in the evening", "around noon", "after six"]
_MADE_UP = ["Zbigniew", "Quorlax", "Brunhilde", "twenty-three", "café", "O'Hare"]
_PATTERNS = [
    "I would like to fly from {a} to {b} on {day} {time}",
    "I need a flight to {b} leaving {day} {time}",
    "yes I want to go from {a} to {b}",
    "my name is {name} and I am flying to {b}",
    "can you find me a hotel in {b} for {day} night",
    "no I said {b} not {a}",
    "book the flight at {number} o'clock on {day}",
    "is there anything cheaper going to {b} {time}",
]


def sentences(count: int, seed: int = 37) -> list[str]:
    """COUNT travel sentences like a caller's, some with words no dictionary holds."""
    chooser = random.Random(seed)
    made = []
    for _ in range(count):
        a, b = chooser.sample(_PLACES, 2)
        made.append(
            chooser.choice(_PATTERNS).format(
                a=a,
                b=b,
                day=chooser.choice(_DAYS),
                time=chooser.choice(_TIMES),
                name=chooser.choice(_MADE_UP),
                number=chooser.choice(["seven", "eight", "twenty-three"]),
            )
        )
    return made
