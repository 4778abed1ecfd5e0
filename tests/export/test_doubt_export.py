"""The `doubt` column of turns.csv: the turn's doubt score (docs/metrics.md "Doubt"), empty for system
turns, the same bytes from the streaming export and from a loaded tree, a float in the typed tables."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pyarrow.parquet as pq

from annotator.analysis.doubt import session_doubts
from annotator.export.csv_export import export_csv
from annotator.export.table_schema import SCHEMAS
from annotator.log.document import LogDocument
from tests.support.csv_exports import assert_same_export
from tests.support.doubt_logs import write_doubt_log
from tests.support.repository import sample_log_paths


def _turn_rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((out / "turns.csv").read_text(encoding="utf-8"))))


def test_turns_csv_gives_each_user_turn_its_doubt_and_system_turns_none(tmp_path: Path):
    export_csv(sample_log_paths(), tmp_path / "out")
    rows = _turn_rows(tmp_path / "out")
    expected = []
    for path in sample_log_paths():
        for s in LogDocument.load(path).sessions:
            expected += ["" if d is None else repr(d.score) for d in session_doubts(s.turn_facts())]
    assert [row["doubt"] for row in rows] == expected
    assert {row["doubt"] for row in rows if row["speaker"] == "system"} == {""}
    user = [float(row["doubt"]) for row in rows if row["speaker"] == "user"]
    assert len(user) == 18 and all(0.0 <= value <= 1.0 for value in user)
    munich = next(r for r in rows if r["session_id"].endswith("003") and r["turn_id"] == "6")
    assert munich["doubt"] == "0.846667"  # "leaving from munich": denied by the caller; measured


def test_streamed_and_tree_exports_agree_on_the_doubt_of_generated_logs(tmp_path: Path):
    log = write_doubt_log(tmp_path / "doubt-hublog.xml", 5, seed=3)
    written = assert_same_export([log], tmp_path)
    doubts = [row["doubt"] for row in csv.DictReader(io.StringIO(written["turns.csv"].decode("utf-8")))]
    assert sum(1 for d in doubts if d) > 20 and any(float(d) > 0.5 for d in doubts if d)


def test_doubt_is_a_float_in_the_parquet_tables(tmp_path: Path):
    assert SCHEMAS["turns"]["doubt"] == "float64"
    from annotator.export.parquet import export_parquet

    export_parquet(sample_log_paths(), tmp_path / "pq")
    table = pq.read_table(next((tmp_path / "pq").glob("turns*.parquet")))
    assert str(table.schema.field("doubt").type) == "double"
    values = table.column("doubt").to_pylist()
    assert values.count(None) == 18 and max(v for v in values if v is not None) <= 1.0
