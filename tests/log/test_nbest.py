"""The n-best rule of annotator.log.nbest on the sample logs and on logs shaped otherwise."""

from __future__ import annotations

from pathlib import Path

from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from annotator.log.nbest import Hypothesis, hypotheses
from tests.support.xml_builders import data, log_text, operation, session


def _turn_with(tmp_path: Path, body: str) -> tuple:
    turn = (
        '<GC_TURN id="2" stime="10" etime="12">'
        + operation("2", 10, 11, "recognize", "recognizer", 'type_new_turn="user"', body)
        + "</GC_TURN>"
    )
    path = tmp_path / "log.xml"
    path.write_text(log_text([session("s1", [turn])]), encoding="utf-8")
    document = LogDocument.load(path)
    return hypotheses(document.sessions[0].turns[0].facts())


def test_the_sample_turn_has_the_callers_words_second(sample_logs):
    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    turn = next(t for t in document.sessions[0].turns if t.id == "6")
    assert hypotheses(turn.facts()) == (
        Hypothesis(1, "leaving from munich", -652.9817),
        Hypothesis(2, "leaving from zürich", None),
        Hypothesis(3, "leaving from köln", None),
    )


def test_a_system_turn_and_a_turn_without_a_list_have_none(sample_logs, tmp_path):
    document = LogDocument.load(sample_logs[0])
    system = next(t for t in document.sessions[0].turns if t.speaker == "system")
    assert hypotheses(system.facts()) == ()
    assert _turn_with(tmp_path, data(":input_string", "to boston", 'type="text_input" type_utt_text="asr"')) == ()


def test_key_indices_order_the_list_whatever_the_document_order(tmp_path):
    body = (
        data(":nbest_list[2]", "third", 'type="text_input_hypothesis"')
        + data(":nbest_list[0]", "first", 'type="text_input_hypothesis"')
        + data(":nbest_list[1]", " second\n  one ", 'type="text_input_hypothesis"')
    )
    assert [(h.rank, h.text) for h in _turn_with(tmp_path, body)] == [(1, "first"), (2, "second one"), (3, "third")]


def test_flat_keyed_data_without_a_type_are_hypotheses_too(tmp_path):
    body = data(":nbest_list[1]", "b") + data(":nbest_list[0]", "a") + data(":input_string", "a", 'type="text_input"')
    assert [h.text for h in _turn_with(tmp_path, body)] == ["a", "b"]


def test_without_indices_document_order_decides_and_empty_texts_are_left_out(tmp_path):
    body = (
        data(":hyp", "one", 'type="text_input_hypothesis"')
        + data(":hyp", "  ", 'type="text_input_hypothesis"')
        + data(":hyp", "two", 'type="text_input_hypothesis"')
    )
    assert [(h.rank, h.text) for h in _turn_with(tmp_path, body)] == [(1, "one"), (2, "two")]


def test_per_hypothesis_scores_win_over_the_rec_scores_frame(tmp_path):
    frame = (
        '<GC_DATA key=":rec_scores"><GC_FRAME name="scores"><GC_DATA key=":total_score" dtype="string">'
        '"-651.3735"</GC_DATA></GC_FRAME></GC_DATA>'
    )
    with_scores = (
        data(":nbest_list[0]", "a", 'type="text_input_hypothesis" score="-10.5"')
        + data(":nbest_list[1]", "b", 'type="text_input_hypothesis" score="-12"')
        + frame
    )
    assert [h.score for h in _turn_with(tmp_path, with_scores)] == [-10.5, -12.0]
    only_frame = data(":nbest_list[0]", "a", 'type="text_input_hypothesis"') + frame
    assert [h.score for h in _turn_with(tmp_path, only_frame)] == [-651.3735]


def test_an_unreadable_score_is_no_score(tmp_path):
    body = data(":nbest_list[0]", "a", 'type="text_input_hypothesis" score="n/a"')
    assert _turn_with(tmp_path, body) == (Hypothesis(1, "a", None),)


def test_the_concept_frame_and_the_scores_are_found_beside_the_list(sample_logs):
    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    turn = next(t for t in document.sessions[0].turns if t.id == "6")
    assert [el.get("key") for el in turn.facts().concept_data] == [":parse_frame"]
    assert [el.get("key") for el in turn.facts().score_data] == [":rec_scores"]


def test_the_list_is_read_once_per_facts_and_again_after_the_turn_changes(sample_logs):
    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    turn = next(t for t in document.sessions[0].turns if t.id == "6")
    first = hypotheses(turn.facts())
    assert hypotheses(turn.facts()) is first  # the oracle, the doubt and the pane share one reading
    set_transcription(turn, "leaving from zürich")
    again = hypotheses(turn.facts())
    assert again is not first and again == first
