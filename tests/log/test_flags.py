"""Flags, comments, time spent and review state: stored through the one writer, announced, DTD-valid,
and removed without a trace."""

from __future__ import annotations

import pytest
from lxml import etree

from annotator.errors import AnnotationError
from annotator.log.annotations import (
    add_time_spent,
    set_comment,
    set_concepts,
    set_flags,
    set_reviewed,
    set_task_completion,
    set_time_spent,
    set_transcription,
)
from annotator.log.concepts import Concepts
from annotator.log.document import LogDocument
from annotator.log.flags import parse_flags, session_reviewer, turn_comment, turn_flags, turn_time_spent
from tests.support.dtd_validity import validity_errors


def _sample(sample_logs, turn_id: str = "6"):
    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    return document, next(t for t in document.sessions[0].turns if t.id == turn_id)


def test_flags_are_stored_in_their_order_announced_and_read_back_after_save(sample_logs, tmp_path):
    document, turn = _sample(sample_logs)
    heard = []
    document.add_listener(heard.append)
    assert set_flags(turn, ["noise", "inaudible"]) is True
    assert set_flags(turn, ["inaudible", "noise"]) is False
    assert turn_flags(turn.facts()) == ("inaudible", "noise")
    assert set_comment(turn, "  a  dog barks ") is True
    assert turn_comment(turn.facts()) == "a dog barks"
    assert [(c.kind, c.old, c.new) for c in heard] == [
        ("flags", None, "inaudible noise"),
        ("comment", None, "a dog barks"),
    ]
    target = tmp_path / "saved.xml"
    document.save(target)
    assert b'<GC_DATA key=":flags" dtype="string">inaudible noise</GC_DATA>' in target.read_bytes()
    again = LogDocument.load(target)
    facts = next(t for t in again.sessions[0].turns if t.id == "6").facts()
    assert (turn_flags(facts), turn_comment(facts)) == (("inaudible", "noise"), "a dog barks")


def test_an_unknown_flag_is_refused_before_the_tree_changes(sample_logs):
    _document, turn = _sample(sample_logs)
    before = etree.tostring(turn.el)
    with pytest.raises(AnnotationError, match="'loud' is no flag"):
        set_flags(turn, ["noise", "loud"])
    with pytest.raises(AnnotationError, match="U\\+0001"):
        set_comment(turn, "x\x01")
    assert etree.tostring(turn.el) == before
    assert parse_flags("cross-talk  truncated non-native") == ("cross-talk", "truncated", "non-native")


def test_time_spent_adds_up_to_a_tenth_of_a_second(sample_logs):
    document, turn = _sample(sample_logs)
    heard = []
    document.add_listener(heard.append)
    assert add_time_spent(turn, 12.34) is True
    assert add_time_spent(turn, 0.02) is False  # still 12.3 once rounded to a tenth
    assert add_time_spent(turn, 5.0) is True
    assert turn_time_spent(turn.facts()) == pytest.approx(17.3)
    assert [(c.kind, c.old, c.new) for c in heard] == [("time_spent", None, "12.3"), ("time_spent", "12.3", "17.3")]
    assert set_time_spent(turn, None) is True and turn_time_spent(turn.facts()) == 0.0


def test_every_note_shares_the_turns_annotation_and_removing_all_restores_the_log_byte_for_byte(sample_logs, tmp_path):
    document, turn = _sample(sample_logs)
    session = document.sessions[0]
    source = next(p for p in sample_logs if "003" in p.name)
    set_transcription(turn, "leaving from zürich")
    set_flags(turn, ["cross-talk"])
    set_concepts(turn, Concepts("give_source", ((":source", "Zürich"),)))
    set_comment(turn, "second voice")
    set_time_spent(turn, 30)
    set_reviewed(session, "alice")
    annotations = turn.el.findall("GC_ANNOT")
    assert len(annotations) == 1
    assert [d.get("key") for d in annotations[0]] == [
        ":transcription",
        ":flags",
        ":concepts",
        ":comment",
        ":time_spent",
    ]
    assert session_reviewer(session.el) == "alice"
    for undo in (
        lambda: set_flags(turn, []),
        lambda: set_transcription(turn, None),
        lambda: set_time_spent(turn, 0),
        lambda: set_concepts(turn, None),
        lambda: set_comment(turn, ""),
        lambda: set_reviewed(session, None),
    ):
        assert undo() is True
    target = tmp_path / "saved.xml"
    document.save(target)
    assert target.read_bytes() == source.read_bytes()


def test_a_review_sits_beside_the_task_completion_and_names_the_reviewer(sample_logs):
    document, _turn = _sample(sample_logs)
    session = document.sessions[0]
    heard = []
    document.add_listener(heard.append)
    set_task_completion(session, "1")
    assert set_reviewed(session, "") is True  # reviewed, no name known
    assert session_reviewer(session.el) == ""
    assert set_reviewed(session, "bob") is True
    assert session.task_completion == "1"
    assert [(c.kind, c.turn, c.old, c.new) for c in heard][1:] == [
        ("reviewed", None, None, ""),
        ("reviewed", None, "", "bob"),
    ]


def test_notes_add_no_dtd_validity_error(sample_logs, tmp_path):
    source = next(p for p in sample_logs if "003" in p.name)
    document, turn = _sample(sample_logs)
    set_flags(turn, ["inaudible", "truncated"])
    set_comment(turn, "cut at the end")
    add_time_spent(turn, 42.0)
    set_flags(next(t for t in document.sessions[0].turns if t.id == "4"), ["noise"])
    set_reviewed(document.sessions[0], "alice")
    target = tmp_path / "saved.xml"
    document.save(target)
    assert b":time_spent" in target.read_bytes() and b":reviewed" in target.read_bytes()
    assert validity_errors(target) == validity_errors(source)


def test_a_transcription_added_to_a_flagged_turn_is_indented_like_its_neighbours(sample_logs, tmp_path):
    document, turn = _sample(sample_logs)
    set_flags(turn, ["noise"])
    set_transcription(turn, "leaving from zürich")
    target = tmp_path / "saved.xml"
    document.save(target)
    text = target.read_text(encoding="iso-8859-1")
    block = text[text.index('<GC_ANNOT turnid="6"') : text.index("</GC_ANNOT>") + len("</GC_ANNOT>")]
    lines = block.splitlines()
    assert len(lines) == 4, block  # the opening tag, one GC_DATA a line, the closing tag
    opening, closing = (
        len(line) - len(line.lstrip()) for line in (text[: text.index(block)].rsplit("\n", 1)[1] + lines[0], lines[-1])
    )
    assert [len(line) - len(line.lstrip()) for line in lines[1:-1]] == [opening + 2, opening + 2], block
    assert closing == opening and lines[-1].strip() == "</GC_ANNOT>", block
