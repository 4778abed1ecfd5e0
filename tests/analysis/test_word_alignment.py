"""The one word alignment: the live diff's words count exactly what the metrics count."""

from __future__ import annotations

import pytest

from annotator.analysis.word_alignment import EQUAL, INSERTED, MISSED, SUBSTITUTED, too_long_to_diff, word_diff
from annotator.log.document import LogDocument


@pytest.mark.parametrize(
    ("said", "heard", "kinds", "rate"),
    [
        ("i want to fly to boston", "i want to fly to austin", [EQUAL] * 5 + [SUBSTITUTED], 1 / 6),
        ("[noise] from chicago please", "um from chicago please", [INSERTED, EQUAL, EQUAL, EQUAL], 1 / 3),
        ("Yes, please.", "yes", [EQUAL, MISSED], 0.5),
        ("", "hello", [INSERTED], None),
        ("hello", "", [MISSED], 1.0),
        ("", "", [], 0.0),
    ],
)
def test_word_diff_counts_what_the_metrics_count(said, heard, kinds, rate):
    diff = word_diff(said, heard)
    assert [word.kind for word in diff.words] == kinds
    assert diff.rate == (pytest.approx(rate) if rate is not None else None)


def test_word_diff_agrees_with_the_metrics_turn_wer(annotated_log):
    from annotator.analysis.metrics import turn_wer

    for turn in LogDocument.load(annotated_log).sessions[0].user_turns:
        assert word_diff(turn.transcription, turn.asr_text).rate == pytest.approx(turn_wer(turn))


def test_the_live_diff_limit_counts_normalised_words_on_either_side():
    assert too_long_to_diff("word " * 2000, "word") is None
    assert too_long_to_diff("yes", "word " * 2001) == 2001
    assert too_long_to_diff("[noise] " * 3000, "") is None  # non-speech tokens are not words
