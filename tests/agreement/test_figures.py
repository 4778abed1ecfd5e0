"""The word, concept and task completion figures of annotator pairs, on hand-computed cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.agreement.figures import agreement
from annotator.agreement.sources import AnnotatorWork, read_file_work
from annotator.annotation_files.annotation_set import AnnotationSet


def work(
    name: str, turns: dict[str, str], task_completion: str | None = None, session: str = "s1", concepts=None
) -> AnnotatorWork:
    annotations = AnnotationSet()
    for turn_id, text in turns.items():
        annotations.add_transcription(session, turn_id, text)
    if task_completion is not None:
        annotations.add_task_completion(session, task_completion)
    for turn_id, frame in (concepts or {}).items():
        annotations.add_concepts(session, turn_id, frame)
    return AnnotatorWork(name, annotations, [Path(f"{name}.xml")])


def test_wer_in_both_directions_on_a_hand_computed_turn():
    # B's 7 words as reference: A substitutes "fly" for "go" and misses "please": 2/7.
    # A's 6 words as reference: B substitutes one word and inserts one: 2/6.
    a = work("a", {"2": "i want to fly to boston"})
    b = work("b", {"2": "I want to go to Boston please"})
    figures = agreement([a, b]).pairs[0]
    assert figures.words.items == 1
    assert figures.words.wer_a_b == pytest.approx(2 / 7)
    assert figures.words.wer_b_a == pytest.approx(2 / 6)
    assert figures.words.wer_mean == pytest.approx((2 / 7 + 2 / 6) / 2)
    assert figures.words.identical_share == 0.0


def test_turns_equal_after_normalisation_are_identical_and_rates_pool_the_nist_way():
    # Turn 2: equal once case, punctuation and [noise] are dropped. Turn 4: one substitution in 4 words.
    # Turn 6: only A transcribed it, so it is not compared.
    a = work("a", {"2": "[noise] from chicago please", "4": "yes please book it", "6": "thanks"})
    b = work("b", {"2": "From Chicago, please!", "4": "yes please cook it"})
    result = agreement([a, b])
    figures = result.pairs[0]
    assert figures.words.items == 2
    assert figures.words.identical == 1
    assert figures.words.identical_share == 0.5
    assert figures.words.wer_a_b == pytest.approx(1 / 7)  # 1 error over B's 3 + 4 words, not a mean of turn rates
    assert [turn.turn_id for turn in result.turns] == ["2", "4"]
    assert [turn.turn_id for turn in result.most_disagreeing(5)] == ["4"]
    assert result.most_disagreeing(5)[0].wer == pytest.approx(0.25)


def test_a_turn_with_no_words_on_one_side_counts_its_defined_direction():
    a = work("a", {"2": "[noise]"})
    b = work("b", {"2": "hello there"})
    [turn] = agreement([a, b]).turns
    assert turn.a_against_b.rate == 1.0  # both of B's words missed
    assert turn.b_against_a.rate is None  # words against nothing: no rate
    assert turn.wer == 1.0


def test_three_annotators_give_three_pairs_and_an_overall_pooled_over_them():
    a = work("a", {"1": "one two three four"}, "1")
    b = work("b", {"1": "one two three four"}, "1")
    c = work("c", {"1": "one two three"}, "0")
    result = agreement([a, b, c])
    assert [figures.pair for figures in result.pairs] == [("a", "b"), ("a", "c"), ("b", "c")]
    # Errors: 0 (a,b), 1 (a,c), 1 (b,c); words both ways: 4+4, 3+4, 3+4 -> 2 errors each way over 11 or 12.
    assert result.overall.words.items == 3
    assert result.overall.words.a_against_b.errors == 2
    assert result.overall.words.identical == 1
    assert [figures.pair for figures in result.sessions] == [("a", "b"), ("a", "c"), ("b", "c")]
    assert result.sessions[1].task_completion == ("1", "0")
    assert result.fleiss.items == 1 and result.alpha.items == 1


CONCEPT_FILE = """<GC_LOG_ANNOTATIONS annot_version="2"><GC_SESSION id="s1">
<GC_DATA key=":concepts" type_utt_text="concepts" turnid="6">
<GC_FRAME name="give_source"><GC_DATA key=":source" dtype="string">{source}</GC_DATA>
<GC_DATA key=":date"><GC_FRAME name="date"><GC_DATA key=":day">Tuesday</GC_DATA></GC_FRAME></GC_DATA>
</GC_FRAME></GC_DATA></GC_SESSION></GC_LOG_ANNOTATIONS>"""


def test_concepts_are_read_from_human_files_and_scored_as_concept_error_rate(tmp_path):
    works = []
    for name, source in (("a", "Zürich"), ("b", "Munich")):
        path = tmp_path / f"log-human-{name}.xml"
        path.write_text(CONCEPT_FILE.format(source=source), encoding="utf-8")
        works.append(read_file_work(path))
    [frame] = works[0].annotations.concepts.values()
    assert frame.compact() == "give_source(:source=Zürich, :date/:day=Tuesday)"
    a, b = (AnnotatorWork(name, work.annotations, [work.path]) for name, work in zip("ab", works))
    concepts = agreement([a, b]).pairs[0].concepts
    assert concepts.items == 1
    # three pairs each (frame, :source, :date/:day); :source differs: one substitution of three, both ways
    assert concepts.wer_a_b == pytest.approx(1 / 3) and concepts.wer_b_a == pytest.approx(1 / 3)
    assert concepts.identical == 0
