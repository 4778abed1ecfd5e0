"""Word-by-word alignment of what the recognizer heard against what the annotator typed.

Qt-free: both sides are normalised with annotator.log.text.normalize_words
(the normalisation of every word count and WER) and aligned with jiwer, so
the live diff in the editor counts exactly what the metrics count.
"""

from __future__ import annotations

from dataclasses import dataclass

import jiwer

from annotator.log.text import normalize_words

EQUAL, SUBSTITUTED, MISSED, INSERTED = "equal", "substituted", "missed", "inserted"


@dataclass(frozen=True)
class DiffWord:
    kind: str  # EQUAL, SUBSTITUTED (heard instead of said), MISSED (said, not heard), INSERTED (heard, not said)
    said: str | None  # the transcription's word
    heard: str | None  # the recognizer's word


@dataclass(frozen=True)
class WordDiff:
    words: list[DiffWord]
    reference_words: int

    def count(self, kind: str) -> int:
        return sum(1 for word in self.words if word.kind == kind)

    @property
    def errors(self) -> int:
        return sum(1 for word in self.words if word.kind != EQUAL)

    @property
    def rate(self) -> float | None:
        """Errors over the transcription's words; None when it has none but the recognizer heard some."""
        if self.reference_words:
            return self.errors / self.reference_words
        return 0.0 if not self.errors else None


def word_diff(said: str | None, heard: str | None) -> WordDiff:
    """Align HEARD (the recognizer's hypothesis) against SAID (the transcription, the reference)."""
    reference, hypothesis = normalize_words(said), normalize_words(heard)
    if not reference or not hypothesis:  # jiwer refuses empty sides; the answer is obvious there
        words = [DiffWord(MISSED, w, None) for w in reference] + [DiffWord(INSERTED, None, w) for w in hypothesis]
        return WordDiff(words, len(reference))
    out = jiwer.process_words(" ".join(reference), " ".join(hypothesis))
    words: list[DiffWord] = []
    for chunk in out.alignments[0]:
        said_part = reference[chunk.ref_start_idx:chunk.ref_end_idx]
        heard_part = hypothesis[chunk.hyp_start_idx:chunk.hyp_end_idx]
        if chunk.type == "equal":
            words += [DiffWord(EQUAL, w, w) for w in said_part]
        elif chunk.type == "substitute":
            words += [DiffWord(SUBSTITUTED, s, h) for s, h in zip(said_part, heard_part)]
        elif chunk.type == "delete":
            words += [DiffWord(MISSED, w, None) for w in said_part]
        elif chunk.type == "insert":
            words += [DiffWord(INSERTED, None, w) for w in heard_part]
    return WordDiff(words, len(reference))
