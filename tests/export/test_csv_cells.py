"""The CSV export's cells: formula-like text neutralised for spreadsheets and read back intact, any text
round-tripping through turns.csv and pandas, and CSV lines read back as their cells."""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.annotation_files.spreadsheet_cells import neutralise_cell, unneutralise_cell
from annotator.export.csv_cells import csv_line, text_cell
from annotator.export.csv_export import export_csv
from annotator.log.text import clean_text
from tests.support.csv_exports import read
from tests.support.xml_builders import log_text, operation, session, system_turn, user_turn, write_log

FORMULA = '=HYPERLINK("http://evil.example/?a=1,b=2","click me")'


def _log_saying(folder: Path, said: str, heard: str = "yes", transcription: str | None = None) -> Path:
    annotation = (
        ""
        if transcription is None
        else f'<GC_ANNOT turnid="2"><GC_DATA key=":t" type_utt_text="transcription">{_xml(transcription)}'
        "</GC_DATA></GC_ANNOT>"
    )
    turns = [system_turn("1", 1000, _xml(said)), user_turn("2", 1002, _xml(heard), extra=annotation)]
    return write_log(folder / "log.xml", log_text([session("s:1", turns)]))


def _xml(text: str) -> str:
    # A literal CR would be read as a line end; the character reference keeps it.
    return escape(text).replace("\r", "&#13;")


def test_formula_text_gets_an_apostrophe_and_comes_back_intact(tmp_path: Path):
    path = _log_saying(tmp_path, FORMULA, heard="+44 call me", transcription="@everyone -rf")
    export_csv([path], tmp_path / "out")
    turns = read(tmp_path / "out", "turns.csv")
    assert turns.loc[0, "system_text"] == "'" + FORMULA
    assert turns.loc[1, "asr_text"] == "'+44 call me" and turns.loc[1, "transcription"] == "'@everyone -rf"
    assert unneutralise_cell(turns.loc[0, "system_text"]) == FORMULA
    assert unneutralise_cell(turns.loc[1, "transcription"]) == "@everyone -rf"
    raw = (tmp_path / "out" / "turns.csv").read_text(encoding="utf-8")
    assert '"\'=HYPERLINK(""http://evil.example/?a=1,b=2"",""click me"")"' in raw
    assert turns.loc[0, "turn_id"] == "1"  # numbers are not neutralised
    events = read(tmp_path / "out", "events.csv")
    assert list(events["stime"])[0] == "1000.0"


def test_risky_attribute_values_are_neutralised_in_events(tmp_path: Path):
    ops = operation("1", 1000, 1001, name="=cmd|' /C calc'!A0", server="@srv", attrs='type="-2+3"')
    turn = f'<GC_TURN id="-1" stime="1000" etime="1002">{ops}</GC_TURN>'
    path = write_log(tmp_path / "log.xml", log_text([session("s", [turn])]))
    export_csv([path], tmp_path / "out")
    row = read(tmp_path / "out", "events.csv").iloc[0]
    assert row["name"] == "'=cmd|' /C calc'!A0" and row["server"] == "'@srv" and row["type"] == "'-2+3"
    assert row["turn_id"] == "-1" and row["turnid"] == "1"


XML_TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\ufffe\uffff", min_codepoint=0x09).filter(
        lambda c: c in "\t\n\r" or ord(c) >= 0x20
    )
    | st.sampled_from(list("=+-@,\"'\n\r\t ;")),
    max_size=40,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(said=XML_TEXT, heard=XML_TEXT, transcription=XML_TEXT)
@pytest.mark.slow
def test_any_text_round_trips_through_turns_csv_and_pandas(said: str, heard: str, transcription: str):
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        path = _log_saying(folder, said, heard, transcription)
        export_csv([path], folder / "out")
        turns = read(folder / "out", "turns.csv")
    assert unneutralise_cell(turns.loc[0, "system_text"]) == clean_text(said)
    assert unneutralise_cell(turns.loc[1, "asr_text"]) == clean_text(heard)
    assert unneutralise_cell(turns.loc[1, "transcription"]) == clean_text(transcription)
    assert len(turns) == 2


@given(
    cells=st.lists(
        st.text(max_size=12) | st.sampled_from([",", '"', "\r", "\n", "", "a,b", '"q"']), min_size=1, max_size=8
    )
)
def test_csv_lines_read_back_as_their_cells(cells: list[str]):
    line = csv_line(cells)
    assert line.endswith("\n")
    back = next(csv.reader(io.StringIO(line, newline=""))) if line != "\n" else [""]
    assert back == cells


@given(text=st.text(max_size=10))
def test_text_cell_neutralises_exactly_like_neutralise_cell(text: str):
    assert text_cell(text) == neutralise_cell(text)


# --- the one-pass turn scan agrees with the views -------------------------------------------------
