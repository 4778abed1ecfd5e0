"""Word error rate of the recognizer against the human transcription (METRICS.md).

Both sides are normalised with annotator.log.text.normalize_words, joined with
single spaces and aligned by jiwer, which gives the substitution, deletion and
insertion counts. A session's rate is the sum of the turns' errors over the sum
of their reference words (the NIST way), not the mean of the turn rates.

A turn's recognizer text is Turn.asr_text (GC_DATA type_utt_text="asr", else
type="text_input"). A turn whose recognizer data exist but are all empty has an
empty hypothesis (every reference word is a deletion), not a missing one: the
recognizer did answer, with nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import jiwer

from annotator.log.text import normalize_words
from annotator.log.views import Turn


@dataclass(frozen=True)
class WerCounts:
    """The alignment of one hypothesis against one reference (or the sum of several)."""

    substitutions: int = 0
    deletions: int = 0
    insertions: int = 0
    reference_words: int = 0

    @property
    def errors(self) -> int:
        return self.substitutions + self.deletions + self.insertions

    @property
    def rate(self) -> float | None:
        """errors / reference words; 0.0 for nothing against nothing; None for words against nothing."""
        if self.reference_words:
            return self.errors / self.reference_words
        return 0.0 if self.errors == 0 else None

    def __add__(self, other: WerCounts) -> WerCounts:
        return WerCounts(
            self.substitutions + other.substitutions,
            self.deletions + other.deletions,
            self.insertions + other.insertions,
            self.reference_words + other.reference_words,
        )


NO_REFERENCE_WORDS = "the transcription has no words after normalisation but the recognizer heard {n}"


def align(reference: str, hypothesis: str) -> WerCounts:
    """S/D/I of HYPOTHESIS against REFERENCE after word normalisation."""
    ref_words = normalize_words(reference)
    hyp_words = normalize_words(hypothesis)
    # jiwer refuses or misjudges empty sides; the counts are obvious there.
    if not ref_words:
        return WerCounts(insertions=len(hyp_words))
    if not hyp_words:
        return WerCounts(deletions=len(ref_words), reference_words=len(ref_words))
    out = jiwer.process_words(" ".join(ref_words), " ".join(hyp_words))
    return WerCounts(out.substitutions, out.deletions, out.insertions, len(ref_words))


def recognizer_text(turn: Turn) -> str | None:
    """The turn's recognizer text; "" when its recognizer data are all empty; None when it has none."""
    text = turn.asr_text
    if text is None and turn.asr_data:
        return ""
    return text


def turn_wer_counts(turn: Turn, transcription: str | None) -> tuple[WerCounts | None, str | None]:
    """The alignment of the turn's recognizer text against TRANSCRIPTION (the turn's, looked up
    by the caller), or None and the reason why it cannot be made. The reason is also given
    with counts whose rate is None (words heard against an empty transcription)."""
    if transcription is None:
        return None, "the turn has no transcription"
    hypothesis = recognizer_text(turn)
    if hypothesis is None:
        return None, 'the turn has no recognizer text (no GC_DATA with type_utt_text="asr" or type="text_input")'
    counts = align(transcription, hypothesis)
    if counts.rate is None:
        return counts, NO_REFERENCE_WORDS.format(n=counts.insertions)
    return counts, None


def turn_wer(turn: Turn) -> float | None:
    """WER of the turn's recognizer text against its transcription; None when either is missing
    or when the transcription has no words but the recognizer heard some."""
    counts, _reason = turn_wer_counts(turn, turn.transcription)
    return None if counts is None else counts.rate
