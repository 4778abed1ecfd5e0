"""Reference concepts travel through extract and fold: the annotations CSV, turns.csv and the MITRE human file."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pandas as pd
import pytest

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.fold import canonical_without_annotations, extract
from annotator.cli.main import main
from annotator.errors import AnnotationFileError
from annotator.export.table_schema import read_table
from annotator.log.annotations import set_concepts, set_transcription
from annotator.log.concepts import Concepts, parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from tests.support.csv_exports import assert_same_export
from tests.support.dtd_validity import validity_errors

SOURCE_FIX = Concepts("give_source", ((":source", "Zürich"), (":date/:month", "may")))
ODD = Concepts("a(b)", ((":x", "1, 2=3"), (":back", "\\")))  # every character the compact form escapes


@pytest.fixture
def sample_003(sample_logs, tmp_path: Path) -> Path:
    """A copy of sample session 003 (its audio beside it), untouched."""
    source = next(p for p in sample_logs if "003" in p.name)
    shutil.copytree(source.parent, tmp_path / "raw")
    return tmp_path / "raw" / source.name


@pytest.fixture
def annotated_003(sample_003: Path, tmp_path: Path) -> Path:
    """Sample 003 with concepts on three turns: turn 6 corrected with a transcription, turn 4 concepts
    alone, turn 2 a frame that needs every escape."""
    document = LogDocument.load(sample_003)
    turns = {turn.id: turn for turn in document.sessions[0].turns}
    set_transcription(turns["6"], "leaving from zürich")
    set_concepts(turns["6"], SOURCE_FIX)
    set_concepts(turns["4"], Concepts("help"))
    set_concepts(turns["2"], ODD)
    (tmp_path / "annotated").mkdir()
    return document.save(tmp_path / "annotated" / sample_003.name)


def _frames(path: Path) -> dict[str, Concepts]:
    turns = LogDocument.load(path).sessions[0].turns
    return {turn.id: found for turn in turns if (found := reference_concepts(turn.facts())) is not None}


@pytest.mark.parametrize("suffix", [".csv", ".xml"])
def test_extract_then_fold_brings_the_concepts_back_and_nothing_else_changes(
    annotated_003: Path, sample_003: Path, tmp_path: Path, suffix: str, capsys
):
    annotations = tmp_path / f"annotations{suffix}"
    assert main(["extract", str(annotated_003), "-o", str(annotations)]) == 0, capsys.readouterr().err
    folded = tmp_path / "folded.xml"
    assert main(["fold", str(sample_003), str(annotations), "-o", str(folded)]) == 0, capsys.readouterr().err
    assert _frames(folded) == {"6": SOURCE_FIX, "4": Concepts("help"), "2": ODD}
    assert extract(LogDocument.load(folded)) == extract(LogDocument.load(annotated_003))
    assert canonical_without_annotations(folded.read_bytes()) == canonical_without_annotations(sample_003.read_bytes())
    assert validity_errors(folded) == validity_errors(sample_003)


def test_the_annotations_csv_carries_the_compact_form(annotated_003: Path, tmp_path: Path, capsys):
    table = tmp_path / "annotations.csv"
    assert main(["extract", str(annotated_003), "-o", str(table)]) == 0, capsys.readouterr().err
    rows = pd.read_csv(table, dtype=str, keep_default_na=False)
    assert list(rows.columns)[-1] == "concepts"
    by_turn = dict(zip(rows["turn_id"], zip(rows["transcription"], rows["concepts"])))
    assert by_turn["6"] == ("leaving from zürich", "give_source(:source=Zürich, :date/:month=may)")
    assert by_turn["4"] == ("", "help()")  # concepts alone: a row with an empty transcription
    assert by_turn["2"][1] == r"a\(b\)(:x=1\, 2\=3, :back=\\)"


def test_the_human_file_holds_the_frame_after_the_transcription(annotated_003: Path, tmp_path: Path, capsys):
    human = tmp_path / "annotations.xml"
    assert main(["extract", str(annotated_003), "-o", str(human)]) == 0
    assert "extracted 1 transcription(s), 3 concept frame(s) and" in capsys.readouterr().err
    text = human.read_text(encoding="utf-8")
    transcription = text.index('type_utt_text="transcription" dtype="string" turnid="6"')
    frame = text.index('<GC_DATA key=":concepts" type_utt_text="concepts" turnid="6">')
    assert (
        transcription < frame < text.index('<GC_FRAME name="give_source">')
        and '<GC_DATA key=":source" dtype="string">Zürich</GC_DATA>' in text
    )


def test_turns_csv_concepts_fold_back(annotated_003: Path, sample_003: Path, tmp_path: Path, capsys):
    out = tmp_path / "export"
    assert main(["export", str(annotated_003), "-o", str(out)]) == 0, capsys.readouterr().err
    folded = tmp_path / "folded.xml"
    assert main(["fold", str(sample_003), str(out / "turns.csv"), "-o", str(folded)]) == 0, capsys.readouterr().err
    assert _frames(folded) == _frames(annotated_003)


def test_a_malformed_concepts_cell_is_one_line_naming_file_row_and_column(sample_003: Path, tmp_path: Path, capsys):
    table = tmp_path / "annotations.csv"
    with table.open("w", newline="", encoding="utf-8") as stream:
        writer = csv.writer(stream)
        writer.writerow(["session_id", "turn_id", "transcription", "concepts"])
        session_id = LogDocument.load(sample_003).sessions[0].id
        writer.writerow([session_id, "6", "leaving from zürich", "give_source(:source=Zürich)"])
        writer.writerow([session_id, "4", "", "help(:what"])
    folded = tmp_path / "folded.xml"
    assert main(["fold", str(sample_003), str(table), "-o", str(folded)]) == 2
    [line] = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"annotator: {table}: row 3: column concepts: ") and "no '='" in line
    assert not folded.exists()


def test_folding_takes_the_parse_unchanged_as_a_reference(sample_003: Path, tmp_path: Path, capsys):
    """A reference equal to the parse is still a reference: stored, extracted, folded."""
    document = LogDocument.load(sample_003)
    turn = next(t for t in document.sessions[0].turns if t.id == "6")
    set_concepts(turn, parsed_concepts(turn.facts()))
    table = tmp_path / "annotations.csv"
    (tmp_path / "a").mkdir()
    assert main(["extract", str(document.save(tmp_path / "a" / sample_003.name)), "-o", str(table)]) == 0
    folded = tmp_path / "folded.xml"
    assert main(["fold", str(sample_003), str(table), "-o", str(folded)]) == 0, capsys.readouterr().err
    assert _frames(folded) == {"6": Concepts("give_source", ((":source", "Munich"),))}


def test_logs_without_concepts_keep_the_annotations_csv_as_it_was(annotated_log: Path, tmp_path: Path, capsys):
    table = tmp_path / "annotations.csv"
    assert main(["extract", str(annotated_log), "-o", str(table)]) == 0, capsys.readouterr().err
    assert "concepts" not in table.read_text(encoding="utf-8").splitlines()[0]


def test_turns_and_sessions_csv_score_the_parse_the_same_streamed_or_loaded(annotated_003: Path, tmp_path: Path):
    streamed = assert_same_export([annotated_003], tmp_path)
    turns = read_table(streamed["turns.csv"], "turns").set_index("turn_id")
    assert turns.loc["6", "concepts"] == "give_source(:source=Zürich, :date/:month=may)"
    # the parse: give_source(:source=Munich); the reference adds :date/:month: 1 S + 1 D over 3 pairs
    assert turns.loc["6", "concept_error_rate"] == pytest.approx(2 / 3)
    assert turns.loc["6", "concept_accuracy"] == pytest.approx(1 / 3)
    unscored = turns.drop(index=["6", "4", "2"])
    assert unscored["concepts"].isna().all() and unscored["concept_error_rate"].isna().all()
    sessions = read_table(streamed["sessions.csv"], "sessions")
    assert sessions["concept_sentence_accuracy"].dtype == "float64" and turns["concept_accuracy"].dtype == "float64"
    assert sessions.loc[0, "concept_sentence_accuracy"] == 0.0  # of 3 scored turns, none fully right


def test_two_files_giving_one_turn_different_frames_disagree():
    first, second = AnnotationSet(), AnnotationSet()
    first.add_concepts("s", "6", SOURCE_FIX)
    second.add_concepts("s", "06", Concepts("give_source", ((":source", "Munich"),)))
    same = AnnotationSet()
    same.add_concepts("s", "6", SOURCE_FIX)
    assert AnnotationSet.merged([first, same]).concepts == first.concepts
    with pytest.raises(AnnotationFileError, match="two concept frames for s turn 6: 'give_source"):
        AnnotationSet.merged([first, second])
