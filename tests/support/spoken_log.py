"""A log whose turns are real speech (espeak-ng at 8 kHz, spoken_sentences.py), for the tests of the words placed
on a turn's audio in the window: turn 0 says "no I said Seattle not Chicago" but its text has "banana" in place
of "Seattle", a word the aligner is unsure of; turn 1 says a five-second sentence and its recognizer text is what
it says. A window opens the log on turn 0 (its first turn to transcribe), so turn 1 is aligned by a window whose
aligner has started."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.spoken_sentences import Spoken, spoken
from tests.support.xml_builders import log_text, session, user_turn, write_log

SAID = (
    "no I said Seattle not Chicago",
    "I would like to fly from Boston to Denver on Monday in the morning and come back on Friday",
)
TEXTS = ("no I said banana not Chicago", SAID[1])
UNSURE_WORD = "banana"


def say_all(folder: Path) -> list[Spoken]:
    """Each sentence of SAID said into FOLDER at 8 kHz."""
    return [spoken(folder, text, 8000, f"said{number}") for number, text in enumerate(SAID)]


def write_spoken_log(folder: Path, speech: list[Spoken]) -> Path:
    """FOLDER/spoken-hublog.xml: one session of the two user turns, their audio u0.wav and u1.wav beside it."""
    folder.mkdir(parents=True, exist_ok=True)
    turns = []
    for number, (said, text) in enumerate(zip(speech, TEXTS)):
        shutil.copyfile(said.path, folder / f"u{number}.wav")
        turns.append(user_turn(str(number), 1000.0 + 10 * number, text))
    return write_log(folder / "spoken-hublog.xml", log_text([session("spoken", turns)]))
