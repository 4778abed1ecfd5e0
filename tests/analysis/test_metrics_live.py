"""LiveMetrics moves only the changed turn's share of the sums, and always equals a full session_metrics."""

from __future__ import annotations

from pathlib import Path

from annotator.analysis import metrics_wer, word_alignment
from annotator.analysis.metrics import session_metrics
from annotator.analysis.metrics_live import LiveMetrics
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

SESSION_LEVEL = (
    '<GC_ANNOT turnid="4"><GC_DATA key=":transcription" type_utt_text="transcription">to austin</GC_DATA></GC_ANNOT>'
)


def _same(live: LiveMetrics, session_) -> None:
    full = session_metrics(session_)
    got = live.metrics
    assert got.values == full.values
    assert got.reasons == full.reasons
    assert got.turn_wer == full.turn_wer
    assert got.turn_wer_reasons == full.turn_wer_reasons
    assert got.turn_transcriptions == full.turn_transcriptions
    assert (got.wer_errors, got.wer_reference_words, got.wer_substitutions, got.wer_deletions, got.wer_insertions) == (
        full.wer_errors,
        full.wer_reference_words,
        full.wer_substitutions,
        full.wer_deletions,
        full.wer_insertions,
    )


def test_live_metrics_equal_the_full_ones_after_every_kind_of_change(sample_logs):
    document = LogDocument.load(sample_logs[0])
    session_ = document.sessions[0]
    live = LiveMetrics(session_)
    document.add_listener(live.on_change)
    users = [t for t in session_.turns if t.speaker == "user"]
    edits = [
        (users[0], "i want to fly to austin"),
        (users[1], None),
        (users[0], ""),
        (users[1], "yes please"),
        (users[-1], "no words heard at all"),
        (users[0], "   "),
        (users[-1], None),
    ]
    for turn, text in edits:
        set_transcription(turn, text)
        _same(live, session_)
    for value in ("0", None, "1"):
        set_task_completion(session_, value)
        _same(live, session_)


def test_a_session_level_transcription_and_the_task_span(tmp_path: Path):
    turns = [
        system_turn("1", 1000, "where to"),
        user_turn("2", 1002, "boston"),
        system_turn("3", 1004, "when"),
        user_turn("4", 1006, "to austin"),
        user_turn("5", 1008, "monday"),
    ]
    path = write_log(tmp_path / "log.xml", log_text([session("s", turns, extra=SESSION_LEVEL)]))
    document = LogDocument.load(path)
    session_ = document.sessions[0]
    live = LiveMetrics(session_)
    document.add_listener(live.on_change)
    _same(live, session_)
    set_transcription(session_.turns[3], "to houston")
    _same(live, session_)
    set_transcription(session_.turns[3], None)
    _same(live, session_)
    set_transcription(session_.turns[1], "boston")
    _same(live, session_)


def test_a_change_aligns_the_changed_turn_only(sample_logs, monkeypatch):
    document = LogDocument.load(sample_logs[0])
    session_ = document.sessions[0]
    live = LiveMetrics(session_)
    document.add_listener(live.on_change)
    aligned: list[int] = []
    real = word_alignment.align_words

    def counting(pairs):
        aligned.append(len(pairs))
        return real(pairs)

    monkeypatch.setattr(metrics_wer, "align_words", counting)
    set_transcription(next(t for t in session_.turns if t.speaker == "user"), "i want to go to boston")
    assert aligned == [1]
