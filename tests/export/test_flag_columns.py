"""The annotator's notes in the exports: turns.csv flags, comment and time_spent_s; sessions.csv
time_spent_s, reviewed and reviewed_by; the same from the tree and the streaming export, typed in Parquet."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pandas as pd
import pytest

from annotator.export.csv_export import export_csv
from annotator.log.annotations import set_comment, set_flags, set_reviewed, set_time_spent
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.csv_exports import files, tree_csv
from tests.support.repository import SAMPLE_LOGS


@pytest.fixture
def noted_log(tmp_path: Path) -> Path:
    """Sample log 003 with two turns flagged, one commented (with a comma), times spent and a review."""
    source = next(SAMPLE_LOGS.glob("*003*/*hublog.xml"))
    folder = tmp_path / "logs"
    shutil.copytree(source.parent, folder)
    path = folder / source.name
    doc = LogDocument.load(path)
    first, second = doc.sessions[0].user_turns[:2]
    set_flags(first, ["noise", "inaudible"])
    set_comment(first, "dog barks, then a door")
    set_time_spent(first, 40.25)
    set_flags(second, ["non-native"])
    set_time_spent(second, 12)
    set_reviewed(doc.sessions[0], "alice")
    doc.save()
    return path


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_both_exports_carry_the_notes_byte_for_byte_alike(noted_log: Path, tmp_path: Path):
    export_csv([noted_log], tmp_path / "stream")
    tree_csv([noted_log], tmp_path / "tree")
    assert files(tmp_path / "stream") == files(tmp_path / "tree")
    turns = [row for row in _rows(tmp_path / "stream" / "turns.csv") if row["speaker"] == "user"]
    assert [(r["flags"], r["comment"], r["time_spent_s"]) for r in turns[:3]] == [
        ("inaudible noise", "dog barks, then a door", "40.2"),
        ("non-native", "", "12.0"),
        ("", "", ""),
    ]
    [session] = _rows(tmp_path / "stream" / "sessions.csv")
    assert (session["time_spent_s"], session["reviewed"], session["reviewed_by"]) == ("52.2", "1", "alice")


def test_an_unnoted_session_says_not_reviewed_and_no_time(tmp_path: Path):
    source = next(SAMPLE_LOGS.glob("*003*/*hublog.xml"))
    export_csv([source], tmp_path / "out")
    [session] = _rows(tmp_path / "out" / "sessions.csv")
    assert (session["time_spent_s"], session["reviewed"], session["reviewed_by"]) == ("", "0", "")
    assert {row["flags"] for row in _rows(tmp_path / "out" / "turns.csv")} == {""}


@pytest.mark.slow
def test_parquet_types_the_notes(noted_log: Path, tmp_path: Path):
    done = run_annotator("export", noted_log, "--to", "parquet", "-o", tmp_path / "pq", timeout=None)

    assert done.returncode == 0, done.stderr
    turns = pd.read_parquet(tmp_path / "pq" / "turns.parquet")
    sessions = pd.read_parquet(tmp_path / "pq" / "sessions.parquet")
    assert turns["time_spent_s"].dtype == "float64" and turns["flags"].dtype == "string"
    assert turns["time_spent_s"].sum() == pytest.approx(52.2)
    assert list(turns["flags"].dropna()) == ["inaudible noise", "non-native"]
    assert (sessions["time_spent_s"][0], sessions["reviewed"][0], sessions["reviewed_by"][0]) == (
        pytest.approx(52.2),
        "1",
        "alice",
    )
