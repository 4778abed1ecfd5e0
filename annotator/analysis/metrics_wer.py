"""Word error rate of the recognizer against the human transcription (docs/metrics.md).

Both sides are normalised with annotator.log.text.normalize_words, joined with
single spaces and aligned by jiwer, which gives the substitution, deletion and
insertion counts. A session's rate is the sum of the turns' errors over the sum
of their reference words (the NIST way), not the mean of the turn rates.

A turn's recognizer text is its TurnFacts.asr_text (GC_DATA type_utt_text="asr",
else type="text_input"). A turn whose recognizer data exist but are all empty
has an empty hypothesis (every reference word is a deletion), not a missing
one: the recognizer did answer, with nothing.

Speed: identical word lists need no alignment, and the turns of a session are
aligned by one jiwer call (jiwer's cost is mostly per call); the counts are
the same as aligning each turn on its own, since each sentence is aligned
separately inside that call.
"""

from __future__ import annotations

from dataclasses import dataclass

import jiwer

from annotator.log.elements import Turn
from annotator.log.text import normalize_words
from annotator.log.turn_facts import TurnFacts, scan_turn


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
NO_TRANSCRIPTION = "the turn has no transcription"
NO_RECOGNIZER_TEXT = 'the turn has no recognizer text (no GC_DATA with type_utt_text="asr" or type="text_input")'

Words = list[str]


def align(reference: str, hypothesis: str) -> WerCounts:
    """S/D/I of HYPOTHESIS against REFERENCE after word normalisation."""
    return align_words([(normalize_words(reference), normalize_words(hypothesis))])[0]


def align_words(pairs: list[tuple[Words, Words]]) -> list[WerCounts]:
    """S/D/I of each (reference words, hypothesis words) pair, already normalised."""
    counts: list[WerCounts | None] = []
    references: list[str] = []
    hypotheses: list[str] = []
    for ref_words, hyp_words in pairs:
        # jiwer refuses or misjudges empty sides; the counts are obvious there, and for equal words.
        if not ref_words:
            counts.append(WerCounts(insertions=len(hyp_words)))
        elif not hyp_words:
            counts.append(WerCounts(deletions=len(ref_words), reference_words=len(ref_words)))
        elif ref_words == hyp_words:
            counts.append(WerCounts(reference_words=len(ref_words)))
        else:
            counts.append(None)
            references.append(" ".join(ref_words))
            hypotheses.append(" ".join(hyp_words))
    if references:
        aligned = iter(jiwer.process_words(references, hypotheses).alignments)
        counts = [_chunk_counts(next(aligned), len(ref_words)) if c is None else c
                  for c, (ref_words, _hyp) in zip(counts, pairs)]
    return counts  # type: ignore[return-value]  # every None was replaced


def _chunk_counts(chunks: list, reference_words: int) -> WerCounts:
    """A sentence's counts from jiwer's alignment chunks (as jiwer sums them)."""
    substitutions = deletions = insertions = 0
    for chunk in chunks:
        if chunk.type == "substitute":
            substitutions += chunk.ref_end_idx - chunk.ref_start_idx
        elif chunk.type == "delete":
            deletions += chunk.ref_end_idx - chunk.ref_start_idx
        elif chunk.type == "insert":
            insertions += chunk.hyp_end_idx - chunk.hyp_start_idx
    return WerCounts(substitutions, deletions, insertions, reference_words)


def facts_recognizer_text(facts: TurnFacts) -> str | None:
    """The recognizer text of a turn's facts; "" when its recognizer data are all empty; None when it has none."""
    if facts.asr_text is None and facts.asr_data:
        return ""
    return facts.asr_text


def recognizer_text(turn: Turn) -> str | None:
    """The turn's recognizer text; "" when its recognizer data are all empty; None when it has none."""
    return facts_recognizer_text(scan_turn(turn.el))


def turns_wer_counts(turns: list[tuple[Words | None, str | None]]) -> list[tuple[WerCounts | None, str | None]]:
    """turn_wer_counts for several turns given as (transcription words or None, recognizer text or None),
    aligned together."""
    results: list[tuple[WerCounts | None, str | None]] = []
    pairs: list[tuple[Words, Words]] = []
    for ref_words, hypothesis in turns:
        if ref_words is None:
            results.append((None, NO_TRANSCRIPTION))
        elif hypothesis is None:
            results.append((None, NO_RECOGNIZER_TEXT))
        else:
            results.append((None, None))
            pairs.append((ref_words, normalize_words(hypothesis)))
    aligned = iter(align_words(pairs))
    for index, (counts, reason) in enumerate(results):
        if counts is None and reason is None:
            counts = next(aligned)
            results[index] = (counts, NO_REFERENCE_WORDS.format(n=counts.insertions) if counts.rate is None else None)
    return results


def turn_wer_counts(turn: Turn, transcription: str | None) -> tuple[WerCounts | None, str | None]:
    """The alignment of the turn's recognizer text against TRANSCRIPTION (the turn's, looked up
    by the caller), or None and the reason why it cannot be made. The reason is also given
    with counts whose rate is None (words heard against an empty transcription)."""
    ref_words = None if transcription is None else normalize_words(transcription)
    return turns_wer_counts([(ref_words, recognizer_text(turn))])[0]


def turn_wer(turn: Turn) -> float | None:
    """WER of the turn's recognizer text against its transcription; None when either is missing
    or when the transcription has no words but the recognizer heard some."""
    counts, _reason = turn_wer_counts(turn, turn.transcription)
    return None if counts is None else counts.rate
