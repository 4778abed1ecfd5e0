"""Which turns of a log have something to align, and with what: a user turn's audio_input with its
transcription (else what the recognizer heard), a system turn's audio_output with its prompt's text."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from annotator.log.audio_refs import AudioResolver
from annotator.log.document import LogDocument
from annotator.log.text import clean_text
from annotator.log.turn_facts import TurnFacts

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
            found = turn_to_align(session.id, turn.id, turn.facts(), resolver)
            if found is not None:
                yield found


def turn_to_align(session_id: str, turn_id: str, facts: TurnFacts, resolver: AudioResolver) -> TurnToAlign | None:
    """What the turn whose facts are FACTS has to align; None when it names no audio and holds no words.
    Made from the facts alone, so that a streamed export (whose turns are emptied once read) finds the
    same turns, audio and words as `annotator align` does."""
    speaker = facts.speaker
    if speaker not in DIRECTIONS:
        return None
    text = text_to_align(facts)
    data = facts.audio(DIRECTIONS[speaker])
    if data is None:
        if not (text or "").strip():
            return None
        return TurnToAlign(session_id, turn_id, speaker, None, f"the turn names no audio_{DIRECTIONS[speaker]}", text)
    located = resolver.locate(clean_text(data.text) or "")
    return TurnToAlign(session_id, turn_id, speaker, located.path, located.problem, text)


def text_to_align(facts: TurnFacts) -> str | None:
    """The words the turn's own audio says: a user turn's transcription (else what the recognizer heard), a
    system turn's prompt; None for a turn of no known speaker."""
    if facts.speaker == "user":
        return facts.transcription if facts.transcription is not None else facts.asr_text
    if facts.speaker == "system":
        return facts.system_text
    return None
