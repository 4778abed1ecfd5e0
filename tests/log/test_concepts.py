"""Concept frames: reading the parse, the compact form, and storing reference concepts in the log."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from annotator.errors import AnnotationError
from annotator.log.annotations import set_concepts, set_transcription
from annotator.log.concepts import Concepts, frame_concepts, parse_compact, parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from tests.support.dtd_validity import validity_errors

SOURCE_FIX = Concepts("give_source", ((":source", "Zürich"),))


def _sample_turn(sample_logs, turn_id: str = "6"):
    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    return document, next(t for t in document.sessions[0].turns if t.id == turn_id)


def test_the_parse_of_sample_turn_6_says_munich(sample_logs):
    _document, turn = _sample_turn(sample_logs)
    assert parsed_concepts(turn.facts()) == Concepts("give_source", ((":source", "Munich"),))
    assert parsed_concepts(turn.facts()).compact() == "give_source(:source=Munich)"
    assert reference_concepts(turn.facts()) is None


def test_nested_frames_and_lists_flatten_into_paths():
    frame = etree.fromstring(
        '<GC_FRAME name="flight"><GC_DATA key=":date"><GC_FRAME name="date"><GC_DATA key=":month">may</GC_DATA>'
        '<GC_DATA key=":day"> 3 </GC_DATA></GC_FRAME></GC_DATA><GC_DATA key=":stops"><GC_LIST>'
        '<GC_DATA>denver</GC_DATA><GC_DATA key=":stops[1]">reno</GC_DATA></GC_LIST></GC_DATA>'
        '<GC_DATA key=":empty"/></GC_FRAME>'
    )
    assert frame_concepts(frame) == Concepts(
        "flight",
        (
            (":date/:month", "may"),
            (":date/:day", "3"),
            (":stops/[0]", "denver"),
            (":stops/:stops[1]", "reno"),
            (":empty", ""),
        ),
    )


@pytest.mark.parametrize(
    "text, expected",
    [
        ("give_source(:source=Zürich)", SOURCE_FIX),
        ("help()", Concepts("help")),
        ("()", Concepts("")),
        ("f(:a=1, :b/:c=two words)", Concepts("f", ((":a", "1"), (":b/:c", "two words")))),
        (r"f(:a=x\,y\)\=z\\)", Concepts("f", ((":a", r"x,y)=z\ "[:-1]),))),
        ("", None),
    ],
)
def test_the_compact_form_reads_back(text, expected):
    assert parse_compact(text) == expected


@pytest.mark.parametrize("bad", ["give_source", "f(:a)", "f(:a=1", "f(:a=1) trailing"])
def test_a_malformed_compact_form_says_what_is_wrong(bad):
    with pytest.raises(AnnotationError, match="concepts"):
        parse_compact(bad)


_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12).map(lambda t: " ".join(t.split()))


@given(st.builds(Concepts, _text, st.lists(st.tuples(_text.filter(bool), _text), max_size=4).map(tuple)))
def test_every_frame_round_trips_through_the_compact_form(concepts):
    assert parse_compact(concepts.compact()) == concepts


def test_stored_concepts_read_back_and_survive_save_and_reopen(sample_logs, tmp_path):
    document, turn = _sample_turn(sample_logs)
    heard = []
    document.add_listener(heard.append)
    assert set_concepts(turn, SOURCE_FIX) is True
    assert set_concepts(turn, SOURCE_FIX) is False
    assert reference_concepts(turn.facts()) == SOURCE_FIX
    assert parsed_concepts(turn.facts()).slots == ((":source", "Munich"),)  # the parse is not the reference
    assert [(c.kind, c.old, c.new) for c in heard] == [("concepts", None, "give_source(:source=Zürich)")]
    target = tmp_path / "saved.xml"
    document.save(target)
    again = LogDocument.load(target)
    turn_again = next(t for t in again.sessions[0].turns if t.id == "6")
    assert reference_concepts(turn_again.facts()) == SOURCE_FIX


def test_concepts_share_the_transcriptions_annotation_and_removing_both_restores_the_turn(sample_logs):
    document, turn = _sample_turn(sample_logs)
    before = etree.tostring(turn.el)
    set_transcription(turn, "leaving from zürich")
    set_concepts(turn, Concepts("give_source", ((":source", "Zürich"), (":date/:month", "may"))))
    annotations = turn.el.findall("GC_ANNOT")
    assert len(annotations) == 1 and [d.get("key") for d in annotations[0]] == [":transcription", ":concepts"]
    assert turn.transcription == "leaving from zürich"
    set_concepts(turn, None)
    set_transcription(turn, None)
    assert etree.tostring(turn.el) == before
    set_concepts(turn, SOURCE_FIX)
    set_concepts(turn, None)
    assert etree.tostring(turn.el) == before


def test_a_control_character_is_refused_before_the_tree_changes(sample_logs):
    _document, turn = _sample_turn(sample_logs)
    before = etree.tostring(turn.el)
    with pytest.raises(AnnotationError, match="U\\+0001"):
        set_concepts(turn, Concepts("f", ((":a", "x\x01"),)))
    assert etree.tostring(turn.el) == before


def test_concept_annotations_add_no_dtd_validity_error(sample_logs, tmp_path):
    source = next(p for p in sample_logs if "003" in p.name)
    document, turn = _sample_turn(sample_logs)
    set_transcription(turn, "leaving from zürich")
    set_concepts(turn, Concepts("give_source", ((":source", "Zürich"), (":date/:month", "may"))))
    set_concepts(next(t for t in document.sessions[0].turns if t.id == "4"), Concepts("help"))
    target = tmp_path / "saved.xml"
    document.save(target)
    assert b":concepts" in target.read_bytes()
    assert validity_errors(target) == validity_errors(source)  # the sample's own quirks (mime_type), no more
