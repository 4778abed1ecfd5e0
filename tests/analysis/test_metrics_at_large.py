"""Session metrics at large: the sample logs, a pass read once against a fresh pass, and properties of the word
alignment behind WER (generated word lists against a plain edit distance and against aligning each turn alone)."""

from __future__ import annotations

import jiwer
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.analysis.metrics import SESSION_METRIC_COLUMNS, session_metrics, turn_wer
from annotator.analysis.metrics_scan import SessionPass, transcriptions_by_turn
from annotator.analysis.word_alignment import WerCounts, align, align_words
from annotator.log.document import LogDocument
from annotator.log.text import normalize_words


def test_sample_logs(sample_logs):
    by_name = {path.parent.name: LogDocument.load(path) for path in sample_logs}
    annotated = session_metrics(by_name["travel-20261121-001"].sessions[0])
    assert annotated.values["task_completion"] == "1"
    assert annotated.values["word_error_rate"] > 0
    assert annotated.values["time_to_completion"] > 0
    assert annotated.values["mean_user_words_per_turn"] > 0
    millis = session_metrics(by_name["travel-20261121-002"].sessions[0])
    assert millis.values["error_messages"] >= 1 and millis.values["system_reprompts"] >= 1
    assert 0 < millis.values["session_duration_s"] < 600  # milliseconds read as milliseconds
    assert millis.values["word_error_rate"] is None and millis.reasons["word_error_rate"]
    latin1 = session_metrics(by_name["travel-20261121-003"].sessions[0])
    assert latin1.values["help_messages"] >= 1
    for doc in by_name.values():
        for s in doc.sessions:
            metrics = session_metrics(s)
            assert list(metrics.values) == SESSION_METRIC_COLUMNS
            assert all(name in metrics.reasons for name, value in metrics.values.items() if value is None)
            assert transcriptions_by_turn(s) == {
                t.index: t.transcription for t in s.turns if t.transcription is not None
            }
            assert metrics.turn_wer == {t.index: turn_wer(t) for t in s.user_turns}


def _edit_distance(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["to", "boston", "denver", "a", "flight", "[noise]"]), max_size=8),
    st.lists(st.sampled_from(["to", "boston", "austin", "a", "flight", "uh"]), max_size=8),
)
@pytest.mark.slow
def test_alignment_errors_are_the_word_edit_distance(reference: list[str], hypothesis: list[str]):
    counts = align(" ".join(reference), " ".join(hypothesis))
    ref_words = [w for w in reference if w != "[noise]"]
    assert counts.reference_words == len(ref_words)
    assert counts.errors == _edit_distance(ref_words, hypothesis)
    assert counts.reference_words - counts.deletions + counts.insertions == len(hypothesis)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.sampled_from(["to", "boston", "denver", "a", "[noise]"]), max_size=6),
            st.lists(st.sampled_from(["to", "boston", "austin", "a"]), max_size=6),
        ),
        max_size=6,
    )
)
@pytest.mark.slow
def test_aligning_turns_together_counts_as_aligning_each_alone(pairs: list[tuple[list[str], list[str]]]):
    # a session's turns go to jiwer in one call, and equal word lists skip it
    words = [(normalize_words(" ".join(ref)), normalize_words(" ".join(hyp))) for ref, hyp in pairs]
    alone = [align(" ".join(ref), " ".join(hyp)) for ref, hyp in pairs]
    assert align_words(words) == alone
    for (ref, hyp), counts in zip(words, alone):
        if ref and ref == hyp:
            assert counts == WerCounts(reference_words=len(ref))
        if ref and hyp and ref != hyp:
            out = jiwer.process_words(" ".join(ref), " ".join(hyp))
            assert (counts.substitutions, counts.deletions, counts.insertions) == (
                out.substitutions,
                out.deletions,
                out.insertions,
            )


def test_metrics_from_a_pass_read_once_equal_the_metrics_of_a_fresh_pass(sample_logs):
    for path in sample_logs:
        for s in LogDocument.load(path).sessions:
            walk = SessionPass(s)
            assert sum(1 for _ in walk) == len(list(s.el.iter("GC_OPERATION", "GC_MESSAGE", "GC_EVENT")))
            assert session_metrics(s, walk) == session_metrics(s)
            assert walk.scan.sides == [t.speaker for t in s.turns]
