"""Flags, comments, time spent and reviews through extract and fold: the annotations CSV, the MITRE human
file (our documented extension) and the export's turns.csv/sessions.csv all bring them back exactly."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from annotator.annotation_files.fold import canonical_without_annotations, extract
from annotator.cli.main import main
from annotator.log.annotations import set_comment, set_flags, set_reviewed, set_time_spent, set_transcription
from annotator.log.document import LogDocument
from annotator.log.flags import session_reviewer, turn_comment, turn_flags, turn_time_spent
from tests.support.dtd_validity import validity_errors


@pytest.fixture
def sample_003(sample_logs, tmp_path: Path) -> Path:
    source = next(p for p in sample_logs if "003" in p.name)
    shutil.copytree(source.parent, tmp_path / "raw")
    return tmp_path / "raw" / source.name


@pytest.fixture
def noted_003(sample_003: Path, tmp_path: Path) -> Path:
    """Sample 003 with turn 6 transcribed, flagged and commented (a comma, a quote), turn 4 flagged only,
    time on both, and the session reviewed by alice."""
    document = LogDocument.load(sample_003)
    turns = {turn.id: turn for turn in document.sessions[0].turns}
    set_transcription(turns["6"], "leaving from zürich")
    set_flags(turns["6"], ["cross-talk", "noise"])
    set_comment(turns["6"], 'a "second" voice, far away')
    set_time_spent(turns["6"], 61.5)
    set_flags(turns["4"], ["truncated"])
    set_time_spent(turns["4"], 8)
    set_reviewed(document.sessions[0], "alice")
    (tmp_path / "noted").mkdir()
    return document.save(tmp_path / "noted" / sample_003.name)


def _notes(path: Path) -> tuple[dict, str | None]:
    session = LogDocument.load(path).sessions[0]
    return (
        {
            turn.id: (turn_flags(turn.facts()), turn_comment(turn.facts()), turn_time_spent(turn.facts()))
            for turn in session.turns
            if turn.facts().notes
        },
        session_reviewer(session.el),
    )


EXPECTED = (
    {"4": (("truncated",), None, 8.0), "6": (("cross-talk", "noise"), 'a "second" voice, far away', 61.5)},
    "alice",
)


@pytest.mark.parametrize("suffix", [".csv", ".xml"])
def test_extract_then_fold_brings_the_notes_back_and_nothing_else_changes(
    noted_003: Path, sample_003: Path, tmp_path: Path, suffix: str, capsys
):
    annotations = tmp_path / f"annotations{suffix}"
    assert main(["extract", str(noted_003), "-o", str(annotations)]) == 0, capsys.readouterr().err
    folded = tmp_path / "folded.xml"
    assert main(["fold", str(sample_003), str(annotations), "-o", str(folded)]) == 0, capsys.readouterr().err
    assert _notes(folded) == EXPECTED
    assert extract(LogDocument.load(folded)) == extract(LogDocument.load(noted_003))
    assert canonical_without_annotations(folded.read_bytes()) == canonical_without_annotations(sample_003.read_bytes())
    assert validity_errors(folded) == validity_errors(sample_003)


def test_the_annotations_csv_and_human_file_carry_the_documented_columns_and_elements(
    noted_003: Path, tmp_path: Path, capsys
):
    table = tmp_path / "annotations.csv"
    human = tmp_path / "annotations.xml"
    assert main(["extract", str(noted_003), "-o", str(table)]) == 0, capsys.readouterr().err
    assert main(["extract", str(noted_003), "-o", str(human)]) == 0, capsys.readouterr().err
    with table.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    assert [(r["turn_id"], r["flags"], r["time_spent_s"], r["reviewed"], r["reviewed_by"]) for r in rows] == [
        ("", "", "", "1", "alice"),
        ("4", "truncated", "8.0", "", ""),
        ("6", "cross-talk noise", "61.5", "", ""),
    ]
    text = human.read_text(encoding="utf-8")
    assert '<GC_DATA key=":flags" dtype="string" type_utt_text="flags" turnid="6">cross-talk noise</GC_DATA>' in text
    assert '<GC_DATA key=":reviewed" type_utt_text="reviewed" dtype="string">alice</GC_DATA>' in text


def test_the_exports_turns_and_sessions_csv_fold_back(noted_003: Path, sample_003: Path, tmp_path: Path, capsys):
    out = tmp_path / "export"
    assert main(["export", str(noted_003), "-o", str(out)]) == 0, capsys.readouterr().err
    folded = tmp_path / "folded.xml"
    assert main(["fold", str(sample_003), str(out / "turns.csv"), str(out / "sessions.csv"), "-o", str(folded)]) == 0, (
        capsys.readouterr().err
    )
    assert _notes(folded) == EXPECTED


def test_an_unknown_flag_in_a_csv_is_one_line_naming_file_row_and_column(sample_003: Path, tmp_path: Path, capsys):
    table = tmp_path / "annotations.csv"
    table.write_text("session_id,turn_id,flags\ntravel:20261121:003,6,loud\n", encoding="utf-8")
    before = sample_003.read_bytes()
    assert main(["fold", str(sample_003), str(table), "-o", str(tmp_path / "folded.xml")]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("annotator: ") and "row 2" in error and "flags" in error and "'loud' is no flag" in error
    assert "\n" not in error and sample_003.read_bytes() == before and not (tmp_path / "folded.xml").exists()


def test_a_team_members_file_keeps_their_notes_and_brings_them_back(sample_003: Path):
    from annotator.team.work import TeamWork

    doc = LogDocument.load(sample_003)
    work = TeamWork(doc, "carol")
    turn = next(t for t in doc.sessions[0].turns if t.id == "6")
    set_flags(turn, ["inaudible"])
    set_time_spent(turn, 12)
    set_reviewed(doc.sessions[0], "carol")
    work.save()
    work.close()
    assert LogDocument.load(sample_003).sessions[0].turns[turn.index].facts().notes is None, "the log is not written"
    again = LogDocument.load(sample_003)
    TeamWork(again, "carol")
    back = again.sessions[0].turns[turn.index].facts()
    assert (turn_flags(back), turn_time_spent(back), session_reviewer(again.sessions[0].el)) == (
        ("inaudible",),
        12.0,
        "carol",
    )
