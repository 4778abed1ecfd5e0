"""The annotation mutators: placement, replacement, events, reversibility."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree

from annotator.errors import AnnotationError
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log


def _pretty_log(tmp_path: Path) -> Path:
    text = log_text([session("s1", [system_turn("1", 1000, "where to?"), user_turn("-02", 1002, "boston", "-2")])])
    tree = etree.ElementTree(etree.fromstring(text.encode()))
    etree.indent(tree, space="  ")
    body = etree.tostring(tree, encoding="UTF-8", xml_declaration=False)
    return write_log(tmp_path / "pretty.xml", '<?xml version="1.0" encoding="UTF-8"?>\n' + body.decode() + "\n")


def test_transcription_goes_first_in_its_turn_and_announces(tmp_path: Path):
    doc = LogDocument.load(_pretty_log(tmp_path))
    changes = []
    doc.add_listener(changes.append)
    turn = doc.sessions[0].turn("-2")
    assert set_transcription(turn, "  boston   please ")
    assert turn.transcription == "boston please"
    first = turn.el[0]
    assert first.tag == "GC_ANNOT" and first.get("turnid") == "-02"
    assert first[0].attrib == {"key": ":transcription", "type_utt_text": "transcription", "dtype": "string"}
    assert [(c.kind, c.old, c.new, c.turn) for c in changes] == [("transcription", None, "boston please", turn)]
    assert doc.is_modified


def test_setting_again_replaces_instead_of_adding(tmp_path: Path):
    doc = LogDocument.load(_pretty_log(tmp_path))
    turn = doc.sessions[0].turns[1]
    set_transcription(turn, "first")
    set_transcription(turn, "second")
    assert len(turn.annotations) == 1 and turn.transcription == "second"
    assert not set_transcription(turn, "second"), "an unchanged value is no change"


def test_clearing_restores_the_original_bytes(tmp_path: Path):
    path = _pretty_log(tmp_path)
    original = path.read_bytes()
    doc = LogDocument.load(path)
    set_transcription(doc.sessions[0].turns[1], "boston")
    set_task_completion(doc.sessions[0], "1")
    assert doc.serialize() != original
    set_transcription(doc.sessions[0].turns[1], None)
    set_task_completion(doc.sessions[0], None)
    assert doc.serialize() == original


def test_task_completion_values_and_mitre_spelling(tmp_path: Path):
    text = log_text([session("s1", [system_turn("1", 1000, "hi")], extra='<GC_ANNOT task_completion="0"/>')])
    doc = LogDocument.load(write_log(tmp_path / "l.xml", text))
    s = doc.sessions[0]
    assert s.task_completion == "0"
    set_task_completion(s, "1")
    assert s.task_completion == "1"
    assert s.annotations[0].attributes == {"type_task_completion": "1"}, "rewritten in the DTD's spelling"
    assert len(s.annotations) == 1


def test_session_level_transcription_moves_into_its_turn(tmp_path: Path):
    mitre = (
        '<GC_ANNOT turnid="2"><GC_DATA key=":transcription" type_utt_text="transcription">bostn</GC_DATA></GC_ANNOT>'
    )
    text = log_text([session("s1", [system_turn("1", 1000, "hi"), user_turn("02", 1002, "boston", "2")], extra=mitre)])
    doc = LogDocument.load(write_log(tmp_path / "l.xml", text))
    turn = doc.sessions[0].turns[1]
    assert turn.transcription == "bostn"
    set_transcription(turn, "boston")
    assert doc.sessions[0].annotations == []
    assert turn.transcription == "boston" and turn.el[0].tag == "GC_ANNOT"


def test_session_level_transcriptions_follow_every_edit(tmp_path: Path):
    """The session-level annotations are indexed once per document revision; the index must never
    answer with an annotation an edit moved or removed."""
    mitre = "".join(
        f'<GC_ANNOT turnid="{n}"><GC_DATA key=":transcription">said {n}</GC_DATA></GC_ANNOT>' for n in (2, 4)
    )
    turns = [
        system_turn("1", 1000, "hi"),
        user_turn("02", 1002, "heard two", "2"),
        system_turn("3", 1004, "and"),
        user_turn("04", 1006, "heard four", "4"),
    ]
    doc = LogDocument.load(write_log(tmp_path / "l.xml", log_text([session("s1", turns, extra=mitre)])))
    two, four = doc.sessions[0].turns[1], doc.sessions[0].turns[3]
    assert (two.transcription, four.transcription) == ("said 2", "said 4")
    set_transcription(two, None)  # removes the session-level annotation of turn 2 only
    assert (two.transcription, four.transcription) == (None, "said 4")
    assert two.facts().transcription is None and four.facts().transcription == "said 4"
    set_transcription(four, "four again")  # moves into the turn
    assert four.transcription == "four again" and doc.sessions[0].annotations == []
    set_transcription(two, "two again")
    assert [turn.transcription for turn in (two, four)] == ["two again", "four again"]


@pytest.mark.parametrize("bad", ["\x01", "\x08", "\ufffe", "\ud800"])
def test_illegal_xml_characters_are_refused_before_the_tree_changes(tmp_path: Path, bad: str):
    path = _pretty_log(tmp_path)
    doc = LogDocument.load(path)
    turn = doc.sessions[0].turns[1]
    with pytest.raises(AnnotationError, match=f"turn -02: .* control character U\\+{ord(bad):04X}"):
        set_transcription(turn, f"bad {bad} char")
    assert doc.serialize() == path.read_bytes(), "no empty GC_ANNOT is left behind"
    assert doc.revision == 0 and turn.transcription is None
    set_transcription(turn, "good")
    with pytest.raises(AnnotationError):
        set_transcription(turn, f"bad {bad} char")
    assert turn.transcription == "good"


def test_control_characters_that_are_whitespace_become_spaces(tmp_path: Path):
    doc = LogDocument.load(_pretty_log(tmp_path))
    turn = doc.sessions[0].turns[1]
    assert set_transcription(turn, "one\x0btwo\x1cthree\x0cfour")
    assert turn.transcription == "one two three four"


def test_is_modified_is_whether_an_annotation_differs_from_the_file(tmp_path: Path):
    """Set back to what the file holds is no modification; a save in place makes the file agree;
    a copy saved elsewhere leaves the document's own file behind."""
    doc = LogDocument.load(_pretty_log(tmp_path))
    turn, session = doc.sessions[0].turn("-2"), doc.sessions[0]
    set_transcription(turn, "boston")
    set_task_completion(session, "1")
    set_transcription(turn, None)
    assert doc.is_modified, "the task completion still differs"
    set_task_completion(session, None)
    assert not doc.is_modified and doc.revision == 4
    set_transcription(turn, "boston")
    doc.save(tmp_path / "copy.xml")
    assert doc.is_modified
    doc.save()
    assert not doc.is_modified
    set_transcription(turn, None)
    assert doc.is_modified, "the file now holds the transcription"
