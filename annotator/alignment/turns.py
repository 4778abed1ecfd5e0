"""Which turns of a log have something to align, and with what: a user turn's audio_input with its
transcription (else what the recognizer heard), a system turn's audio_output with its prompt's text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from annotator.log.audio_refs import AudioResolver
from annotator.log.document import LogDocument

DIRECTIONS = {"user": "input", "system": "output"}


@dataclass(frozen=True)
class TurnToAlign:
    session_id: str
    turn_id: str
    speaker: str  # "user" or "system"
    audio: Path | None  # the turn's audio file, when found
    audio_problem: str | None  # why there is none (no audio named, or where it was looked for)
    text: str | None  # the words to place on it


def turns_to_align(document: LogDocument, resolver: AudioResolver) -> Iterator[TurnToAlign]:
    """The turns of DOCUMENT that name audio or hold words, in document order (a turn with neither has
    nothing to align and is left out)."""
    for session in document.sessions:
        for turn in session.turns:
            speaker = turn.speaker
            if speaker not in DIRECTIONS:
                continue
            if speaker == "user":
                text = turn.transcription if turn.transcription is not None else turn.asr_text
            else:
                text = turn.system_text
            found = resolver.resolve(turn, DIRECTIONS[speaker])
            if found is None and not (text or "").strip():
                continue
            audio: Path | None
            problem: str | None
            if found is None:
                audio, problem = None, f"the turn names no audio_{DIRECTIONS[speaker]}"
            else:
                audio, problem = found.path, found.problem
            yield TurnToAlign(session.id, turn.id, speaker, audio, problem, text)
