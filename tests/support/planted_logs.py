"""Logs with planted words for the search and replace tests: copies of the sample logs whose
transcriptions are set through the annotation writer and saved, as the window would."""

from __future__ import annotations

from pathlib import Path

from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument


def plant(log: Path, transcriptions: dict[str, str]) -> Path:
    """Give LOG's turns (by turn id, first session) these transcriptions and save it over itself."""
    document = LogDocument.load(log)
    session = document.sessions[0]
    for turn_id, text in transcriptions.items():
        set_transcription(session.turn(turn_id), text)
    document.save(log)
    return log
