"""Concept error rate: the parse against the annotator's reference concepts, per turn and per session."""

from __future__ import annotations

import pytest

from annotator.analysis.concept_metrics import (
    ConceptCounts,
    cached_turn_concept_counts,
    session_concepts,
    turn_concept_counts,
)
from annotator.analysis.metrics import session_metrics
from annotator.analysis.metrics_live import LiveMetrics
from annotator.cli.main import main
from annotator.log.annotations import set_concepts
from annotator.log.concepts import Concepts, parse_compact, parsed_concepts
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, operation, session, system_turn, user_turn, write_log


def _sample(sample_logs) -> LogDocument:
    return LogDocument.load(next(p for p in sample_logs if "003" in p.name))


def _turn(document: LogDocument, turn_id: str):
    return next(t for t in document.sessions[0].turns if t.id == turn_id)


def test_sample_003_turn_6_munich_for_zurich_is_one_error_in_two_pairs(sample_logs):
    document = _sample(sample_logs)
    turn = _turn(document, "6")
    assert cached_turn_concept_counts(turn) is None  # no reference concepts: empty, not zero
    set_concepts(turn, Concepts("give_source", ((":source", "Zürich"),)))
    counts = cached_turn_concept_counts(turn)
    assert counts == ConceptCounts(substitutions=1, reference_words=2)
    assert (counts.error_rate, counts.accuracy) == (0.5, 0.5)


@pytest.mark.parametrize(
    "reference, hypothesis, expected",
    [
        ("f(:a=Zürich)", "f(:a=zürich.)", ConceptCounts(0, 0, 0, 2)),  # values normalised like words
        ("f(:a=1, :b=2)", "g(:a=1)", ConceptCounts(1, 1, 0, 3)),  # frame name substituted, :b deleted
        ("f(:a=1)", "f(:a=1, :c=3, :d=4)", ConceptCounts(0, 0, 2, 2)),  # two insertions
        ("f(:x/[0]=a, :x/[0]=b)", "f(:x/[0]=b)", ConceptCounts(1, 1, 0, 3)),  # repeated paths pair in order
        ("f(:a=1)", None, ConceptCounts(0, 2, 0, 2)),  # no parse: everything is deleted
        ("help()", "help()", ConceptCounts(0, 0, 0, 1)),
    ],
)
def test_pairs_align_by_path(reference, hypothesis, expected):
    hyp = None if hypothesis is None else parse_compact(hypothesis)
    assert turn_concept_counts(parse_compact(reference), hyp) == expected


def test_accuracy_goes_below_zero_when_the_parse_inserts_more_than_the_reference_holds():
    counts = turn_concept_counts(parse_compact("f()"), parse_compact("f(:a=1, :b=2)"))
    assert (counts.error_rate, counts.accuracy) == (2.0, -1.0)


def test_a_session_sums_its_scored_turns_and_counts_the_fully_right_ones(sample_logs):
    document = _sample(sample_logs)
    assert session_concepts(document.sessions[0]).error_rate is None
    set_concepts(_turn(document, "6"), Concepts("give_source", ((":source", "Zürich"),)))
    right = next(
        t
        for t in document.sessions[0].turns
        if t.id != "6" and cached_turn_concept_counts(t) is None and _parse(t) is not None
    )
    set_concepts(right, _parse(right))
    figures = session_concepts(document.sessions[0])
    pairs = 2 + 1 + len(_parse(right).slots)
    assert (figures.scored_turns, figures.correct_turns) == (2, 1)
    assert figures.counts == ConceptCounts(1, 0, 0, pairs)
    assert figures.error_rate == pytest.approx(1 / pairs)
    assert figures.sentence_accuracy == 0.5


def test_a_changed_reference_is_scored_again(sample_logs):
    document = _sample(sample_logs)
    turn = _turn(document, "6")
    set_concepts(turn, Concepts("give_source", ((":source", "Zürich"),)))
    assert cached_turn_concept_counts(turn).errors == 1
    set_concepts(turn, Concepts("give_source", ((":source", "Munich"),)))
    assert cached_turn_concept_counts(turn).errors == 0
    set_concepts(turn, None)
    assert cached_turn_concept_counts(turn) is None


def _parse(turn):
    return parsed_concepts(turn.facts())


def test_session_metrics_carry_the_concept_figures_and_follow_each_change_live(sample_logs):
    document = _sample(sample_logs)
    session = document.sessions[0]
    live = LiveMetrics(session)
    document.add_listener(live.on_change)
    empty = session_metrics(session)
    assert [empty.values[name] for name in ("concept_error_rate", "concept_accuracy", "concept_sentence_accuracy")] == [
        None,
        None,
        None,
    ]
    assert empty.reasons["concept_error_rate"] == "no turn has reference concepts"
    turn = _turn(document, "6")
    set_concepts(turn, Concepts("give_source", ((":source", "Zürich"),)))
    full = session_metrics(session)
    assert (full.values["concept_error_rate"], full.values["concept_accuracy"]) == (0.5, 0.5)
    assert full.values["concept_sentence_accuracy"] == 0.0
    assert full.turn_concepts == {turn.index: ConceptCounts(1, 0, 0, 2)}
    assert live.metrics.values == full.values and live.metrics.turn_concepts == full.turn_concepts
    assert live.metrics.reasons == full.reasons
    set_concepts(turn, None)
    assert live.metrics.values == session_metrics(session).values == empty.values
    assert live.metrics.turn_concepts == {} and live.metrics.reasons == empty.reasons


def test_annotator_info_shows_the_concept_figures(sample_logs, tmp_path, capsys):
    document = _sample(sample_logs)
    (tmp_path / "a").mkdir()
    bare = document.save(tmp_path / "a" / "bare-hublog.xml")
    set_concepts(_turn(document, "6"), Concepts("give_source", ((":source", "Zürich"),)))
    (tmp_path / "b").mkdir()
    annotated = document.save(tmp_path / "b" / "annotated-hublog.xml")
    assert main(["info", str(bare), str(annotated)]) == 0
    lines = [line.strip() for line in capsys.readouterr().out.splitlines() if line.strip().startswith("concepts")]
    assert lines == [
        "concepts     no reference concepts",
        "concepts     CER 0.500, accuracy 0.500, 0 of 1 turn(s) fully right",
    ]


NESTED_PARSE = (
    '<GC_DATA key=":parse_frame" type="concept"><GC_FRAME name="flight">'
    '<GC_DATA key=":destination">Denver</GC_DATA><GC_DATA key=":date"><GC_FRAME name="date">'
    '<GC_DATA key=":month">May</GC_DATA><GC_DATA key=":day">3</GC_DATA></GC_FRAME></GC_DATA>'
    "</GC_FRAME></GC_DATA>"
)


def test_a_generated_log_with_a_nested_parse_is_scored_on_its_flattened_paths(tmp_path):
    turns = [
        system_turn("1", 1000, "where to"),
        user_turn(
            "2", 1002, "to denver on may third", extra=operation("2", 1002, 1003, "parse", "nl", "", NESTED_PARSE)
        ),
        system_turn("3", 1004, "when"),
        user_turn("4", 1006, "yes"),
    ]
    document = LogDocument.load(write_log(tmp_path / "log.xml", log_text([session("s", turns)])))
    first, second = document.sessions[0].turns[1], document.sessions[0].turns[3]
    set_concepts(
        first,
        Concepts(
            "flight", ((":destination", "Reno"), (":date/:month", "may"), (":date/:day", "3"), (":return", "june"))
        ),
    )
    set_concepts(second, Concepts("confirm"))  # no parse at all: the frame pair is deleted
    assert cached_turn_concept_counts(first) == ConceptCounts(1, 1, 0, 5)
    assert cached_turn_concept_counts(second) == ConceptCounts(0, 1, 0, 1)
    figures = session_metrics(document.sessions[0]).values
    assert figures["concept_error_rate"] == pytest.approx(3 / 6)
    assert figures["concept_sentence_accuracy"] == 0.0
