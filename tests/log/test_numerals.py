"""Numbers read from logs and annotation files: turn ids match numerically only when they are
plain numerals, times are the standard's decimal numerals, nothing Python's int()/float() accept
beyond that (underscores, exponents, nan/inf, non-ASCII digits) sneaks in."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

from annotator.analysis.validation import validate_document
from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.fold import fold, read_annotations
from annotator.annotation_files.spreadsheet_cells import neutralise_cell, unneutralise_cell
from annotator.errors import AnnotationFileError
from annotator.export.csv_export import export_csv
from annotator.imports.convlab import file_stems
from annotator.log.document import LogDocument
from annotator.log.times import parse_number
from annotator.log.turn_ids import turn_key
from annotator.timeline.data import build_timeline
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("10", 10),
        ("010", 10),
        ("-01", -1),
        ("+5", 5),
        ("-0", 0),
        (" 5 ", 5),
        ("\t7\n", 7),
        ("1_0", "1_0"),
        ("1_01", "1_01"),
        ("٣", "٣"),
        ("1e3", "1e3"),
        ("nan", "nan"),
        ("inf", "inf"),
        ("1.5", "1.5"),
        ("x-1", "x-1"),
        ("5\u00a0", "5\u00a0"),
        ("+-5", "+-5"),
        ("", None),
        ("  ", None),
        (None, None),
    ],
)
def test_turn_key_is_numeric_only_for_plain_numerals(raw, key):
    assert turn_key(raw) == key
    assert type(turn_key(raw)) is type(key)


def test_a_very_long_numeral_is_still_a_number():
    digits = "1" + "0" * 5000
    assert turn_key(digits) == turn_key("00" + digits) != turn_key(digits + "0")


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("941473394.66", 941473394.66),
        ("1000", 1000.0),
        ("-0", 0.0),
        ("+5", 5.0),
        (" 5", 5.0),
        ("5 ", 5.0),
        ("0012.50", 12.5),
        (".5", 0.5),
        ("5.", 5.0),
        ("nan", None),
        ("NaN", None),
        ("inf", None),
        ("-Infinity", None),
        ("1e3", None),
        ("1E3", None),
        ("1_000", None),
        ("٣", None),
        ("1\u00a0", None),
        ("\x0b5", None),
        ("0x10", None),
        ("", None),
        (".", None),
        ("-", None),
        ("1.2.3", None),
        ("1" + "0" * 400, None),
        (None, None),
    ],
)
def test_times_are_the_standards_decimal_numerals(raw, value):
    parsed = parse_number(raw)
    assert parsed == value
    assert parsed is None or math.isfinite(parsed)


def _log(tmp_path: Path, turns: list[str], name: str = "log.xml", **times) -> LogDocument:
    return LogDocument.load(write_log(tmp_path / name, log_text([session("s1", turns, **times)])))


def test_turn_1_0_is_not_turn_10(tmp_path: Path):
    doc = _log(tmp_path, [system_turn("1_0", 1000, "hi"), user_turn("10", 1002, "boston")])
    s = doc.sessions[0]
    assert s.turn("10").id == "10" and s.turn("1_0").id == "1_0" and s.turn("0010").id == "10"
    assert not [f for f in validate_document(doc, audio=False) if f.code == "duplicate-turn-id"]


def test_a_csv_row_for_turn_1_01_is_not_folded_into_turn_101(tmp_path: Path):
    doc = _log(tmp_path, [system_turn("100", 1000, "hi"), user_turn("101", 1002, "boston")])
    before = doc.serialize()
    (tmp_path / "a.csv").write_text("session_id,turn_id,transcription\ns1,1_01,to boston\n")
    with pytest.raises(AnnotationFileError, match="unknown turns: s1 turn 1_01"):
        fold(doc, read_annotations(tmp_path / "a.csv"))
    assert doc.serialize() == before
    (tmp_path / "b.csv").write_text("session_id,turn_id,transcription\ns1,0101,to boston\n")
    assert fold(doc, read_annotations(tmp_path / "b.csv")) == 1
    assert doc.sessions[0].turn("101").transcription == "to boston"


def test_a_time_of_1_000_is_not_a_number_anywhere(tmp_path: Path):
    turn = system_turn("1", 1000, "hi").replace('stime="1000"', 'stime="1_000"', 1)
    doc = _log(tmp_path, [turn, user_turn("2", 1002, "boston")], start=1000.0, end=1010.0)
    first = doc.sessions[0].turns[0]
    assert first.get("stime") == "1_000" and first.stime is None and first.duration is None
    bad = [f for f in validate_document(doc, audio=False) if f.code == "bad-time"]
    assert [f.message for f in bad] == ["GC_TURN 1: stime '1_000' is not a number"]
    export_csv([doc.path], tmp_path / "out")
    with open(tmp_path / "out" / "turns.csv", newline="", encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert (rows[0]["stime"], rows[0]["duration_s"]) == ("", "")
    assert rows[1]["stime"] == "1002.0"


@pytest.mark.parametrize("bad", ["1e3", "nan", "inf", "1_000", "٣"])
def test_operation_and_message_times_python_would_read_are_empty_cells(tmp_path: Path, bad: str):
    turn = user_turn("2", 1002, "boston").replace('stime="1003"', f'stime="{bad}"', 1)
    doc = _log(tmp_path, [system_turn("1", 1000, "hi"), turn], start=1000.0, end=1010.0)
    export_csv([doc.path], tmp_path / "out")
    with open(tmp_path / "out" / "events.csv", newline="", encoding="utf-8") as stream:
        rows = [row for row in csv.DictReader(stream) if row["turn_id"] == "2"]
    assert (rows[1]["stime"], rows[1]["etime"], rows[1]["duration_s"]) == ("", "1003.5", "")
    assert rows[0]["stime"] == "1002.0"


@pytest.mark.parametrize("bad", ["1e3", "nan", "1_000", "٣"])
def test_the_timeline_leaves_out_times_that_are_not_numerals(tmp_path: Path, bad: str):
    turn = (
        user_turn("2", 1002, "boston")
        .replace('stime="1003"', f'stime="{bad}"', 1)
        .replace('etime="1003.5"', f'etime="{bad}"', 1)
    )
    doc = _log(tmp_path, [system_turn("1", 1000, "hi"), turn], start=1000.0, end=1010.0)
    assert build_timeline(doc.sessions[0]).untimed == 1


def test_the_annotation_set_keys_turns_by_the_same_rule():
    annotations = AnnotationSet()
    annotations.add_transcription("s", "1_0", "one")
    annotations.add_transcription("s", "10", "two")
    annotations.add_transcription("s", "010", "two")
    assert len(annotations.transcriptions) == 2


def test_a_cell_of_non_ascii_digits_after_a_minus_is_neutralised_like_any_formula():
    assert neutralise_cell("-٣") == "'-٣" and neutralise_cell("-3") == "-3"
    assert unneutralise_cell(neutralise_cell("-٣")) == "-٣"


def test_a_convlab_dialogue_id_with_non_ascii_digits_is_not_renumbered():
    plain, arabic = file_stems(["travel-train-3", "travel-train-٣"])
    assert plain == "travel-train-00003" and arabic != plain
