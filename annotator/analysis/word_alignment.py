"""The one alignment of two word sequences: the WER counts of the metrics and the words of the live diff.

The reference is what was said (the human transcription), the hypothesis what
the recognizer heard. Both are normalised with annotator.log.text.normalize_words
(the normalisation of every word count) and aligned as jiwer aligns them (its
Levenshtein opcodes, from rapidfuzz), which gives each stretch of words as equal,
substituted, deleted (said, not heard: MISSED) or inserted (heard, not said).
The counts are the sums of those stretches; the rate is errors over reference
words, 0.0 for nothing against nothing and None for words heard against nothing
said.

Empty sides and identical word lists need no alignment.

The alignment costs the product of the two lengths, so a caller on the GUI
thread aligns only up to LIVE_DIFF_MAX_WORDS words on either side and says so
beyond (too_long_to_diff).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from jiwer import AlignmentChunk
from rapidfuzz.distance import Levenshtein

from annotator.log.text import normalize_words

EQUAL, SUBSTITUTED, MISSED, INSERTED = "equal", "substituted", "missed", "inserted"
_KINDS = {"equal": EQUAL, "substitute": SUBSTITUTED, "delete": MISSED, "insert": INSERTED}
_JIWER_TAGS = {"equal": "equal", "replace": "substitute", "delete": "delete", "insert": "insert"}
LIVE_DIFF_MAX_WORDS = 2000  # a turn is a sentence or a few; a pasted document is not aligned while typing

Words = list[str]


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

    def __add__(self, other: WerCounts) -> Self:
        return self.plus(other)

    def plus(self, other: WerCounts, sign: int = 1) -> Self:
        """These counts with OTHER's added (SIGN -1: taken out), of this class (concept counts stay so)."""
        return type(self)(
            self.substitutions + sign * other.substitutions,
            self.deletions + sign * other.deletions,
            self.insertions + sign * other.insertions,
            self.reference_words + sign * other.reference_words,
        )


@dataclass(frozen=True)
class DiffWord:
    kind: str  # EQUAL, SUBSTITUTED (heard instead of said), MISSED (said, not heard), INSERTED (heard, not said)
    said: str | None  # the reference's word
    heard: str | None  # the hypothesis's word


@dataclass(frozen=True)
class WordDiff:
    """The aligned words of one pair, in order, and their counts."""

    words: list[DiffWord]
    counts: WerCounts

    @property
    def rate(self) -> float | None:
        return self.counts.rate


def align(reference: str, hypothesis: str) -> WerCounts:
    """S/D/I of HYPOTHESIS against REFERENCE after word normalisation."""
    return align_words([(normalize_words(reference), normalize_words(hypothesis))])[0]


def align_words(pairs: list[tuple[Words, Words]]) -> list[WerCounts]:
    """S/D/I of each (reference words, hypothesis words) pair, already normalised."""
    return [_counts(chunks, len(ref_words)) for chunks, (ref_words, _hyp) in zip(_alignments(pairs), pairs)]


def word_diff(said: str | None, heard: str | None) -> WordDiff:
    """Align HEARD (the recognizer's hypothesis) against SAID (the transcription, the reference), word by word."""
    reference, hypothesis = normalize_words(said), normalize_words(heard)
    [chunks] = _alignments([(reference, hypothesis)])
    words: list[DiffWord] = []
    for chunk in chunks:
        kind = _KINDS[chunk.type]
        said_part = reference[chunk.ref_start_idx : chunk.ref_end_idx]
        heard_part = hypothesis[chunk.hyp_start_idx : chunk.hyp_end_idx]
        if kind == MISSED:
            words += [DiffWord(kind, word, None) for word in said_part]
        elif kind == INSERTED:
            words += [DiffWord(kind, None, word) for word in heard_part]
        else:  # equal and substituted stretches pair the words one to one
            words += [DiffWord(kind, s, h) for s, h in zip(said_part, heard_part)]
    return WordDiff(words, _counts(chunks, len(reference)))


def too_long_to_diff(said: str | None, heard: str | None) -> int | None:
    """The larger word count of the two sides when it is over LIVE_DIFF_MAX_WORDS, else None."""
    longest = max(len(normalize_words(said)), len(normalize_words(heard)))
    return longest if longest > LIVE_DIFF_MAX_WORDS else None


def _alignments(pairs: list[tuple[Words, Words]]) -> list[list[AlignmentChunk]]:
    """The chunks of each pair, as jiwer gives them.

    jiwer itself is given no text: it splits what it is given into new word strings, which for a huge
    transcription held several copies of it (1.5 million words: 95 MB where the text is 10). Each pair's
    words are numbered instead (a word's number is one object however often it occurs, so a word list
    costs a pointer a word) and aligned as jiwer aligns its numbers, by rapidfuzz's Levenshtein opcodes;
    and only its middle: the words both sides begin and end with are equal stretches of every optimal
    alignment."""
    chunks = []
    for ref_words, hyp_words in pairs:
        if not ref_words or not hyp_words or ref_words == hyp_words:
            chunks.append(_obvious_chunks(len(ref_words), len(hyp_words), ref_words == hyp_words))
            continue
        start, end = _common_ends(ref_words, hyp_words)
        trim = (start, end, len(ref_words), len(hyp_words))
        numbers: dict[str, int] = {}
        ref_middle = _numbered(ref_words, start, len(ref_words) - end, numbers)
        hyp_middle = _numbered(hyp_words, start, len(hyp_words) - end, numbers)
        if not ref_middle or not hyp_middle:
            chunks.append(_trimmed(_obvious_chunks(len(ref_middle), len(hyp_middle), False), trim))
        else:
            chunks.append(_trimmed(_opcode_chunks(ref_middle, hyp_middle), trim))
    return chunks


def _numbered(words: Words, start: int, stop: int, numbers: dict[str, int]) -> list[int]:
    """WORDS[START:STOP] as numbers, the same word the same number (shared with the other side through NUMBERS)."""
    return [numbers.setdefault(words[index], len(numbers)) for index in range(start, stop)]


def _opcode_chunks(reference: list[int], hypothesis: list[int]) -> list[AlignmentChunk]:
    return [
        AlignmentChunk(_JIWER_TAGS[op.tag], op.src_start, op.src_end, op.dest_start, op.dest_end)
        for op in Levenshtein.opcodes(reference, hypothesis)
    ]


def _common_ends(reference: Words, hypothesis: Words) -> tuple[int, int]:
    """How many words the two sides begin with in common, and then end with in common."""
    shortest = min(len(reference), len(hypothesis))
    start = 0
    while start < shortest and reference[start] == hypothesis[start]:
        start += 1
    end = 0
    while end < shortest - start and reference[-1 - end] == hypothesis[-1 - end]:
        end += 1
    return start, end


def _trimmed(middle: list[AlignmentChunk], trim: tuple[int, int, int, int]) -> list[AlignmentChunk]:
    """The chunks of a whole pair from those of its MIDDLE; TRIM is (common start, common end, reference
    length, hypothesis length): equal stretches for the common ends."""
    start, end, ref_len, hyp_len = trim
    chunks = [AlignmentChunk("equal", 0, start, 0, start)] if start else []
    chunks += [
        AlignmentChunk(
            c.type, c.ref_start_idx + start, c.ref_end_idx + start, c.hyp_start_idx + start, c.hyp_end_idx + start
        )
        for c in middle
    ]
    if end:
        chunks.append(AlignmentChunk("equal", ref_len - end, ref_len, hyp_len - end, hyp_len))
    return chunks


def _obvious_chunks(ref_len: int, hyp_len: int, same: bool) -> list[AlignmentChunk]:
    if same:
        return [AlignmentChunk("equal", 0, ref_len, 0, hyp_len)] if ref_len else []
    return ([AlignmentChunk("delete", 0, ref_len, 0, 0)] if ref_len else []) + (
        [AlignmentChunk("insert", 0, 0, 0, hyp_len)] if hyp_len else []
    )


def _counts(chunks: list[AlignmentChunk], reference_words: int) -> WerCounts:
    """A pair's counts from its chunks (as jiwer sums them)."""
    substitutions = deletions = insertions = 0
    for chunk in chunks:
        if chunk.type == "substitute":
            substitutions += chunk.ref_end_idx - chunk.ref_start_idx
        elif chunk.type == "delete":
            deletions += chunk.ref_end_idx - chunk.ref_start_idx
        elif chunk.type == "insert":
            insertions += chunk.hyp_end_idx - chunk.hyp_start_idx
    return WerCounts(substitutions, deletions, insertions, reference_words)
