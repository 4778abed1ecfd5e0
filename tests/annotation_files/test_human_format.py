"""MITRE human-annotation files: round trip, both spellings of task completion, safe parsing, naming."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from lxml import etree

from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef
from annotator.annotation_files.fold import extract, fold, read_annotations
from annotator.annotation_files.human_format import human_path_for, read_human_file, write_human_file
from annotator.errors import AnnotationFileError
from annotator.log.document import LogDocument
from tests.support.fold_strategies import log_with_annotations
from tests.support.xml_builders import log_text, operation, session, system_turn, user_turn, write_log


@settings(max_examples=150, deadline=None)
@given(log_with_annotations())
@pytest.mark.slow
def test_write_then_read_gives_the_set_back(tmp_path_factory, case):
    log, annotations = case
    folder = tmp_path_factory.mktemp("human")
    doc = LogDocument.load(write_log(folder / "x-hublog.xml", log.text, log.encoding))
    path = human_path_for(doc.path)
    write_human_file(path, annotations, doc.sessions)
    assert read_human_file(path) == annotations
    assert read_annotations(path) == annotations
    fold(doc, read_human_file(path))
    assert extract(doc) == annotations


def test_written_file_copies_session_times_and_turn_tidx(tmp_path: Path):
    tidx_turn = (
        '<GC_TURN id="-02" stime="1002" etime="1004">'
        + operation("-2", 1002, 1003, "record", "audio", 'tidx="17" type_new_turn="user"')
        + "</GC_TURN>"
    )
    text = log_text([session("travel:001", [system_turn("01", 1000, "hi"), tidx_turn], "1000.000", "1100.5")])
    doc = LogDocument.load(write_log(tmp_path / "a-hublog.xml", text))
    annotations = AnnotationSet(task_completion={SessionRef("travel:001"): "1", SessionRef("elsewhere"): "0"})
    annotations.add_transcription("travel:001", "-02", "to zürich & <back>")
    annotations.add_transcription("travel:001", "01", "hello")
    write_human_file(tmp_path / "a-human.xml", annotations, doc.sessions)
    written = (tmp_path / "a-human.xml").read_bytes()
    assert written.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG_ANNOTATIONS annot_version="2">')
    assert b"\r" not in written
    root = etree.fromstring(written)
    first, other = root.findall("GC_SESSION")
    assert first.attrib == {"id": "travel:001", "stime": "1000.000", "etime": "1100.5"}
    assert other.attrib == {"id": "elsewhere"}, "a session no log holds is written without times"
    assert first[0].attrib == {"type_task_completion": "1"}
    assert [(d.get("turnid"), d.get("tidx"), d.text) for d in first.findall("GC_DATA")] == [
        ("01", None, "hello"),
        ("-02", "17", "to zürich & <back>"),
    ], "in log order, ids as written"
    assert first[1].get("type_utt_text") == "transcription" and first[1].get("dtype") == "string"


def test_reads_mitre_spelling_and_annotations_wrapped_in_gc_annot(tmp_path: Path):
    path = tmp_path / "x-human.xml"
    path.write_text(
        '<?xml version="1.0" encoding="ISO-8859-1"?>\n'
        '<GC_LOG_ANNOTATIONS annot_version="2">\n'
        ' <GC_SESSION id="s1" stime="1" etime="9">\n'
        '  <GC_ANNOT task_completion="0"/>\n'
        '  <GC_DATA type_utt_text="transcription" dtype="string" turnid="01" tidx="3">i want\n   zürich</GC_DATA>\n'
        '  <GC_DATA turnid="3">no type is a transcription too</GC_DATA>\n'
        '  <GC_DATA type_utt_text="asr" turnid="5">not a transcription</GC_DATA>\n'
        '  <GC_ANNOT turnid="-07"><GC_DATA key=":transcription">inside an annot</GC_DATA></GC_ANNOT>\n'
        '  <GC_DATA type_utt_text="transcription" turnid="9"> </GC_DATA>\n'
        " </GC_SESSION>\n"
        ' <GC_SESSION id="s2"><GC_ANNOT type_task_completion="1"/></GC_SESSION>\n'
        "</GC_LOG_ANNOTATIONS>\n",
        encoding="latin-1",
    )
    annotations = read_human_file(path)
    S1 = SessionRef("s1")  # noqa: N806
    assert annotations == AnnotationSet(
        {
            TurnRef(S1, 1): "i want zürich",
            TurnRef(S1, 3): "no type is a transcription too",
            TurnRef(S1, -7): "inside an annot",
        },
        {S1: "0", SessionRef("s2"): "1"},
    )
    assert annotations.turn_ids[TurnRef(S1, 1)] == "01"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            '<!DOCTYPE GC_LOG_ANNOTATIONS [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<GC_LOG_ANNOTATIONS><GC_SESSION id="s"><GC_DATA turnid="1">&x;</GC_DATA></GC_SESSION></GC_LOG_ANNOTATIONS>',
            "declares entities",
        ),
        (
            '<!DOCTYPE GC_LOG_ANNOTATIONS [<!ENTITY a "ha"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
            '<GC_LOG_ANNOTATIONS><GC_SESSION id="s"><GC_DATA turnid="1">&b;</GC_DATA></GC_SESSION></GC_LOG_ANNOTATIONS>',
            "declares entities",
        ),
        ('<GC_LOG_ANNOTATIONS><GC_SESSION id="s">', "not well-formed XML"),
        ("<GC_ANNOTATIONS/>", "not a MITRE human-annotation file: the root is <GC_ANNOTATIONS>"),
        (
            '<GC_LOG_ANNOTATIONS>\n<GC_SESSION>\n<GC_ANNOT task_completion="1"/></GC_SESSION></GC_LOG_ANNOTATIONS>',
            ":3: no session id",
        ),
        (
            '<GC_LOG_ANNOTATIONS>\n<GC_SESSION id="s">\n\n<GC_DATA>text</GC_DATA></GC_SESSION></GC_LOG_ANNOTATIONS>',
            ":4: a transcription without a turnid",
        ),
        (
            '<GC_LOG_ANNOTATIONS><GC_SESSION id="s"><GC_DATA turnid="1">a</GC_DATA>\n<GC_DATA turnid="01">b</GC_DATA>'
            "</GC_SESSION></GC_LOG_ANNOTATIONS>",
            ":2: two transcriptions for s turn 1",
        ),
    ],
)
def test_bad_and_unsafe_files_are_refused_naming_the_file(tmp_path: Path, body: str, expected: str):
    path = tmp_path / "bad-human.xml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(AnnotationFileError) as raised:
        read_human_file(path)
    message = str(raised.value)
    assert message.startswith(str(path)) and expected in message and "\n" not in message
    with pytest.raises(AnnotationFileError):
        read_annotations(path)


def test_a_named_dtd_is_never_read(tmp_path: Path):
    path = tmp_path / "named-dtd-human.xml"
    path.write_text(
        '<!DOCTYPE GC_LOG_ANNOTATIONS SYSTEM "file:///etc/passwd">\n<GC_LOG_ANNOTATIONS>'
        '<GC_SESSION id="s"><GC_DATA turnid="1">a</GC_DATA></GC_SESSION></GC_LOG_ANNOTATIONS>',
        encoding="utf-8",
    )
    assert read_human_file(path) == AnnotationSet({TurnRef(SessionRef("s"), 1): "a"})


def test_missing_file(tmp_path: Path):
    with pytest.raises(AnnotationFileError, match="nothing-human.xml: cannot read"):
        read_human_file(tmp_path / "nothing-human.xml")


def test_unwritable_text_is_an_annotation_file_error(tmp_path: Path):
    annotations = AnnotationSet({TurnRef(SessionRef("s"), 1): "bell \x07"})
    with pytest.raises(AnnotationFileError, match="out.xml: cannot write"):
        write_human_file(tmp_path / "out.xml", annotations)
    assert not (tmp_path / "out.xml").exists()


@pytest.mark.parametrize(
    ("log", "human"),
    [
        ("calls/travel-20261121-001-hublog.xml", "calls/travel-20261121-001-human.xml"),
        ("calls/TRAVEL-HUBLOG.XML", "calls/TRAVEL-human.xml"),
        ("calls/plain.xml", "calls/plain-human.xml"),
        ("calls/no-extension", "calls/no-extension-human.xml"),
    ],
)
def test_human_path_for(log: str, human: str):
    assert human_path_for(Path(log)) == Path(human)


def test_user_turn_helper_still_builds_what_we_read(tmp_path: Path):
    """Guard for the builders used above: a user turn's tidx-less operations give no tidx."""
    text = log_text([session("s", [user_turn("1", 1000, "hi")])])
    doc = LogDocument.load(write_log(tmp_path / "l.xml", text))
    write_human_file(tmp_path / "h.xml", AnnotationSet({TurnRef(SessionRef("s"), 1): "hi"}), doc.sessions)
    assert b"tidx" not in (tmp_path / "h.xml").read_bytes()
