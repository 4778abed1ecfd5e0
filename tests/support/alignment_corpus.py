"""Logs whose turns have speech to align: each user turn's audio_input a file said by espeak-ng
(tests.support.spoken_sentences), its text what was said."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.spoken_sentences import Spoken
from tests.support.xml_builders import log_text, session, user_turn, write_log


def write_corpus(folder: Path, said: list[Spoken], per_log: int = 10) -> Path:
    """FOLDER made a corpus: logs of PER_LOG user turns, turn N's audio uN.wav (a copy of said[N])."""
    folder.mkdir(parents=True, exist_ok=True)
    for first in range(0, len(said), per_log):
        turns = []
        for number in range(first, min(first + per_log, len(said))):
            shutil.copyfile(said[number].path, folder / f"u{number}.wav")
            turns.append(user_turn(str(number), 1000.0 + 3 * number, said[number].text))
        write_log(folder / f"log{first // per_log}.xml", log_text([session(f"s{first}", turns)]))
    return folder
