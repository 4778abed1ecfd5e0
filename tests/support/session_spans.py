"""Logs of one session whose times span long or mistyped lengths, with a real user clip, for the Praat and ELAN
export: what a WAV of the whole session must survive.

    log = spanning_log(tmp_path, "etime", seconds=30 * 86400)   # the session ends 30 days after it starts

The session starts at START (epoch seconds), a system turn then a user turn whose 1 s clip (8 kHz, a tone:
u2.wav, beside the log) is heard 3 s in. SHAPES says how the times are wrong:
- "etime": the session's etime is SECONDS after its stime (a long session, or an etime typed wrong);
- "start-zero": the session's stime is 0 before epoch times (a start typed wrong);
- "start-late": the session's stime is SECONDS after its turns (a start with a digit too many);
- "extra-digits": the session's etime has ten digits too many (the 4.99 EiB of a WAV held in memory).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import soundfile

from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

START = 1_700_000_000.0
CLIP_RATE = 8000
CLIP_AT = START + 3  # where the user's clip is heard (user_turn records from its start)
SHAPES = ("etime", "start-zero", "start-late", "extra-digits")


def spanning_log(folder: Path, shape: str, seconds: float = 0.0) -> Path:
    """A log in FOLDER of one session whose times are SHAPE (SECONDS long where the shape has a length)."""
    turns = [system_turn("1", START, "where to"), user_turn("2", CLIP_AT, "boston")]
    start, end = {
        "etime": (START, START + seconds),
        "start-zero": (0.0, START + 60),
        "start-late": (START + seconds, START + seconds + 60),
        "extra-digits": (START, START * 10**10),
    }[shape]
    soundfile.write(folder / "u2.wav", tone(), CLIP_RATE, subtype="PCM_16")
    stime, etime = (f"{time:.3f}" for time in (start, end))  # as logs write times: no exponent
    return write_log(folder / f"{shape}-hublog.xml", log_text([session(shape, turns, stime, etime)]))  # type: ignore[arg-type]


def tone() -> np.ndarray:
    """1 s of 440 Hz at half scale."""
    return 0.5 * np.sin(2 * np.pi * 440 * np.arange(CLIP_RATE) / CLIP_RATE)
