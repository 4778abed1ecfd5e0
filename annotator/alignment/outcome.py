"""What aligning a turn gives: its words placed, or why it was not aligned. Apart from the engine so that
the exports, which read alignments from the cache, do not load numpy and the decoder's code to do so."""

from __future__ import annotations

from dataclasses import dataclass

from annotator.errors import AnnotatorError

ENGINE_VERSION = "1"  # part of every alignment's key in the cache: raised when the same input aligns otherwise

NO_AUDIO, SILENT, NO_WORDS, TOO_LONG, FAILED = "no audio", "silent audio", "no words", "too long", "failed"
REASONS = (NO_AUDIO, SILENT, NO_WORDS, TOO_LONG, FAILED)


@dataclass(frozen=True)
class AlignedWord:
    text: str  # the word as written in the turn's text
    start: float  # seconds from the start of the turn's audio file
    end: float
    score: float  # the word's mean acoustic log-likelihood per 10 ms frame (natural log; higher is better)
    unsure: bool  # the score is below engine.UNSURE_BELOW: the audio may not say this word


class NotAligned(AnnotatorError):
    """The turn was not aligned: REASON (one of REASONS) and, in the message, why."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason

    def __reduce__(self):
        return type(self), (self.reason, str(self))
