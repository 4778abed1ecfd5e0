"""Word error rate of the recognizer against the human transcription (docs/metrics.md).

Each turn's words are aligned by annotator.analysis.word_alignment (the one
alignment, which the editor's live diff uses too). A session's rate is the sum
of the turns' errors over the sum of their reference words (the NIST way), not
the mean of the turn rates.

A turn's recognizer text is its TurnFacts.asr_text (GC_DATA type_utt_text="asr",
else type="text_input"). A turn whose recognizer data exist but are all empty
has an empty hypothesis (every reference word is a deletion), not a missing
one: the recognizer did answer, with nothing.

Speed: the turns of a session are aligned together (see align_words); a turn's own counts
(cached_turn_wer_counts) are made once per change of the turn and kept in the document's
facts cache (annotator.log.facts_cache), so a table cell never aligns words again.
"""

from __future__ import annotations

from annotator.analysis.word_alignment import WerCounts, Words, align_words
from annotator.log.elements import Turn
from annotator.log.text import normalize_words
from annotator.log.turn_facts import TurnFacts

NO_REFERENCE_WORDS = "the transcription has no words after normalisation but the recognizer heard {n}"
NO_TRANSCRIPTION = "the turn has no transcription"
WER_COUNTS = "wer_counts"  # the facts cache's name for a turn's counts
NO_RECOGNIZER_TEXT = 'the turn has no recognizer text (no GC_DATA with type_utt_text="asr" or type="text_input")'


def facts_recognizer_text(facts: TurnFacts) -> str | None:
    """The recognizer text of a turn's facts; "" when its recognizer data are all empty; None when it has none."""
    if facts.asr_text is None and facts.asr_data:
        return ""
    return facts.asr_text


def recognizer_text(turn: Turn) -> str | None:
    """The turn's recognizer text; "" when its recognizer data are all empty; None when it has none."""
    return facts_recognizer_text(turn.facts())


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
    aligned = iter(align_words(pairs) if pairs else ())  # nothing to align: no call at all
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


def facts_wer_counts(_turn: Turn, facts: TurnFacts) -> tuple[WerCounts | None, str | None]:
    """turn_wer_counts of a turn against its own transcription, from its facts."""
    ref_words = None if facts.transcription is None else normalize_words(facts.transcription)
    return turns_wer_counts([(ref_words, facts_recognizer_text(facts))])[0]


def cached_turn_wer_counts(turn: Turn) -> tuple[WerCounts | None, str | None]:
    """turn_wer_counts of the turn against its transcription, aligned once per change of the turn."""
    return turn.session.document.facts_cache.derived(turn, WER_COUNTS, facts_wer_counts)


def turn_wer(turn: Turn) -> float | None:
    """WER of the turn's recognizer text against its transcription; None when either is missing
    or when the transcription has no words but the recognizer heard some."""
    counts, _reason = cached_turn_wer_counts(turn)
    return None if counts is None else counts.rate
