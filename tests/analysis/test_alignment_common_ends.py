"""Only the middle of two word lists goes to jiwer (its copies of a huge transcription cost 40 times the
log's size in memory): the counts and the word diff are those of aligning the whole, on generated pairs
that share long starts and ends, differ at either end, or one holding the other. The memory is measured
by tests/benchmarks/bench_huge_text.py."""

from __future__ import annotations

import jiwer
import pytest

from annotator.analysis.word_alignment import WerCounts, align_words, word_diff


def _jiwer_whole(reference: list[str], hypothesis: list[str]) -> WerCounts:
    out = jiwer.process_words(" ".join(reference), " ".join(hypothesis))
    return WerCounts(out.substitutions, out.deletions, out.insertions, len(reference))


COMMON = ["fly", "to", "boston", "on", "monday"] * 400
PAIRS = {
    "a word changed in the middle": (COMMON + ["please"] + COMMON, COMMON + ["pleas"] + COMMON),
    "a word missing in the middle": (COMMON + ["please"] + COMMON, COMMON + COMMON),
    "a word added in the middle": (COMMON + COMMON, COMMON + ["uh"] + COMMON),
    "different first words": (["yes"] + COMMON, ["no", "no"] + COMMON),
    "different last words": (COMMON + ["yes"], COMMON + ["no"]),
    "one holds the other": (COMMON, COMMON[:1000]),
    "repeats at the seam": (["a", "a", "a", "b", "a", "a"], ["a", "a", "b", "a", "a", "a"]),
}


@pytest.mark.parametrize("name", PAIRS)
def test_the_counts_are_those_of_the_whole(name: str):
    reference, hypothesis = PAIRS[name]
    [counts] = align_words([(reference, hypothesis)])
    assert counts.errors == _jiwer_whole(reference, hypothesis).errors
    assert counts.reference_words == len(reference)
    diff = word_diff(" ".join(reference), " ".join(hypothesis))
    assert [w.said for w in diff.words if w.said is not None] == reference
    assert [w.heard for w in diff.words if w.heard is not None] == hypothesis
