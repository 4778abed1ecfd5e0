"""Annotation CSVs: our own round trip, the exporter's turns.csv / sessions.csv, formula neutralisation, errors."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.annotation_files.annotation_csv import (
    ANNOTATION_COLUMNS,
    neutralise_cell,
    read_annotation_csv,
    unneutralise_cell,
    write_annotation_csv,
)
from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef
from annotator.errors import AnnotationFileError
from annotator.log.document import LogDocument
from tests.support.fold_strategies import TEXT
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

FORMULA_TEXT = st.tuples(st.sampled_from(["=", "+", "-", "@", "'=", "''+", ""]), TEXT).map("".join)
TURN_ID = st.sampled_from(["1", "01", "-01", "-1.5", "7", "+3", "x-1"])
OCCURRENCE = st.sampled_from([None, 1, 2, 10])


@st.composite
def csv_sets(draw) -> AnnotationSet:
    annotations = AnnotationSet()
    for session_id in draw(st.lists(st.sampled_from(["travel:001", "=cmd", "-s", "NA", "0"]), max_size=3, unique=True)):
        which = draw(OCCURRENCE)
        if draw(st.booleans()):
            annotations.add_task_completion(
                session_id, draw(st.sampled_from(["0", "1", "NA", "-1"])), session_occurrence=which
            )
        for turn_id in draw(st.lists(TURN_ID, max_size=4)):
            try:
                annotations.add_transcription(
                    session_id, turn_id, draw(FORMULA_TEXT), session_occurrence=which, turn_occurrence=draw(OCCURRENCE)
                )
            except ValueError:
                pass  # "1" and "01" name one turn: the first text stays
    return annotations


@settings(max_examples=200, deadline=None)
@given(csv_sets())
@pytest.mark.slow
def test_our_csv_round_trips(tmp_path_factory, annotations):
    path = tmp_path_factory.mktemp("csv") / "annotations.csv"
    write_annotation_csv(path, annotations)
    back = read_annotation_csv(path)
    assert back == annotations
    assert {ref: back.turn_id(ref) for ref in back.transcriptions} == {
        ref: annotations.turn_id(ref) for ref in annotations.transcriptions
    }


@settings(max_examples=300)
@given(st.text())
@pytest.mark.slow
def test_unneutralise_undoes_neutralise(text):
    assert unneutralise_cell(neutralise_cell(text)) == text


@pytest.mark.parametrize(
    ("text", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+cmd", "'+cmd"),
        ("-x", "'-x"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-01", "-01"),
        ("-1.5", "-1.5"),
        ("+3", "+3"),
        ("plain", "plain"),
        ("'=x", "''=x"),
        ("it's", "it's"),
        ("", ""),
    ],
)
def test_neutralised_cells(text, cell):
    assert neutralise_cell(text) == cell


def test_written_file_is_utf8_lf_with_neutralised_cells_and_log_paths(tmp_path: Path):
    text = log_text([session("travel:001", [system_turn("01", 1000, "hi"), user_turn("-02", 1002, "boston", "-2")])])
    (tmp_path / "logs").mkdir()
    doc = LogDocument.load(write_log(tmp_path / "logs" / "a.xml", text))
    annotations = AnnotationSet(task_completion={SessionRef("travel:001"): "1"})
    annotations.add_transcription("travel:001", "-02", "=zürich & co")
    path = tmp_path / "out" / "annotations.csv"
    path.parent.mkdir()
    write_annotation_csv(path, annotations, doc.sessions)
    raw = path.read_bytes()
    assert b"\r" not in raw and "zürich".encode() in raw
    rows = list(csv.reader(raw.decode("utf-8").splitlines()))
    assert rows == [
        list(ANNOTATION_COLUMNS),
        ["../logs/a.xml", "travel:001", "", "", "1", "", ""],
        ["../logs/a.xml", "travel:001", "-02", "'=zürich & co", "", "", ""],
    ]


def test_exporter_turns_and_sessions_csv(tmp_path: Path):
    turns = tmp_path / "turns.csv"
    turns.write_text(
        "file,session_id,turn_id,speaker,asr,transcription,wer\n"
        "a.xml,s1,-01,user,bostn,boston please,0.5\n"
        "a.xml,s1,02,system,,,\n"  # an empty transcription is no annotation
        "a.xml,s1,03,user,x,'@home,NA\n",
        encoding="utf-8",
    )
    sessions = tmp_path / "sessions.csv"
    sessions.write_text("session_id,turns,task_completion\ns1,3,0\ns2,4,\n", encoding="utf-8-sig")
    assert read_annotation_csv(turns) == AnnotationSet(
        {TurnRef(SessionRef("s1"), -1): "boston please", TurnRef(SessionRef("s1"), 3): "@home"}
    )
    assert read_annotation_csv(turns).turn_ids[TurnRef(SessionRef("s1"), -1)] == "-01"
    assert read_annotation_csv(sessions) == AnnotationSet(task_completion={SessionRef("s1"): "0"})


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("session_id,turn_id\ns1,1\n", "missing column(s) transcription"),
        ("file,turn_id,transcription\na,1,x\n", "missing column(s) session_id"),
        ("session_id,speaker\ns1,user\n", "missing column(s) task_completion"),
        ("", "empty"),
        ("session_id,turn_id,transcription\ns1,,hello\n", "row 2: a transcription without a turn_id"),
        ("session_id,turn_id,transcription\ns1,1,a\n,2,b\n", "row 3: no session id"),
        ("session_id,turn_id,transcription\ns1,1,a\ns1,01,b\n", "row 3: two transcriptions for s1 turn 1"),
        ("session_id,task_completion\ns1,1\ns1,0\n", "row 3: two task completion values"),
        ('session_id,turn_id,transcription\ns1,1,"a\n', "not a readable CSV"),
    ],
)
def test_errors_name_file_and_row(tmp_path: Path, content: str, expected: str):
    path = tmp_path / "bad.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(AnnotationFileError) as raised:
        read_annotation_csv(path)
    message = str(raised.value)
    assert message.startswith(str(path)) and expected in message and "\n" not in message


def test_unreadable_and_non_utf8_files(tmp_path: Path):
    with pytest.raises(AnnotationFileError, match="missing.csv: cannot read"):
        read_annotation_csv(tmp_path / "missing.csv")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("session_id,turn_id,transcription\ns1,1,zürich\n".encode("latin-1"))
    with pytest.raises(AnnotationFileError, match="latin.csv: not UTF-8"):
        read_annotation_csv(latin)


# --- files as spreadsheets save them ---------------------------------------------------------------
# Excel's "CSV UTF-8" in a locale whose list separator is ";" (German, French...): a byte-order
# mark, ";" between cells, CRLF between rows, a cell quoted when it holds ";", a quote or a line
# break (quotes doubled, line breaks inside a cell LF). LibreOffice Calc's "Text CSV" with field
# delimiter ";" or "{Tab}": no byte-order mark by default, LF (CRLF on Windows), same quoting.
EXCEL_SEMICOLON = (
    b"\xef\xbb\xbfsession_id;turn_id;transcription;task_completion\r\n"
    b"s1;;;1\r\n"
    b's1;-01;"to boston; then ""denver""";\r\n'
    b's1;3;"two\nlines";\r\n'
)
LIBREOFFICE_TAB = (
    b"session_id\tturn_id\ttranscription\ttask_completion\n"
    b"s1\t\t\t1\n"
    b's1\t-01\tto boston; then "denver"\t\n'
    b's1\t3\t"two\nlines"\t\n'
)
LIBREOFFICE_QUOTED_SEMICOLON = (
    b'"session_id";"turn_id";"transcription";"task_completion"\r\n'
    b'"s1";"";"";"1"\r\n'
    b'"s1";"-01";"to boston; then ""denver""";""\r\n'
    b'"s1";"3";"two\nlines";""\r\n'
)
COMMA_WITH_BOM_CRLF = (
    b"\xef\xbb\xbfsession_id,turn_id,transcription,task_completion\r\n"
    b"s1,,,1\r\n"
    b's1,-01,"to boston; then ""denver""",\r\n'
    b's1,3,"two\nlines",\r\n'
)


@pytest.mark.parametrize(
    "content",
    [
        EXCEL_SEMICOLON,
        LIBREOFFICE_TAB,
        LIBREOFFICE_QUOTED_SEMICOLON,
        COMMA_WITH_BOM_CRLF,
        EXCEL_SEMICOLON.replace(b"\r\n", b"\n"),
    ],
    ids=["excel-semicolon", "libreoffice-tab", "libreoffice-quoted-semicolon", "comma-bom-crlf", "semicolon-lf"],
)
def test_spreadsheet_files_are_read_whatever_the_separator(tmp_path: Path, content: bytes):
    path = tmp_path / "annotations.csv"
    path.write_bytes(content)
    annotations = read_annotation_csv(path)
    s1 = SessionRef("s1")
    assert annotations == AnnotationSet(
        {TurnRef(s1, -1): 'to boston; then "denver"', TurnRef(s1, 3): "two lines"}, {s1: "1"}
    )


def test_a_separator_hint_line_is_honoured(tmp_path: Path):
    path = tmp_path / "annotations.csv"
    path.write_bytes(b"sep=;\r\nsession_id;task_completion\r\ns1;0\r\n")
    assert read_annotation_csv(path) == AnnotationSet(task_completion={SessionRef("s1"): "0"})


def test_a_header_in_no_known_separator_names_what_was_tried(tmp_path: Path):
    path = tmp_path / "annotations.csv"
    path.write_bytes(b"session_id|task_completion\ns1|0\n")
    with pytest.raises(AnnotationFileError, match=r"missing column\(s\) session_id"):
        read_annotation_csv(path)
