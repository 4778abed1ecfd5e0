"""`--to parquet` and annotator.tables(): the CSV export's tables, typed, read back and compared with the CSV."""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import annotator
from annotator.export.csv_export import export_csv
from annotator.export.table_schema import SCHEMAS, read_table
from tests.support.big_log import make_big_log
from tests.support.cli import run_annotator
from tests.support.csv_exports import reversed_map
from tests.support.repository import SAMPLE_LOGS
from tests.support.xml_builders import data, log_text, session, system_turn, user_turn, write_log

TABLES = ("sessions", "turns", "events")


run = partial(run_annotator, timeout=None)


def csv_frames(paths: list[Path], out: Path) -> dict[str, pd.DataFrame]:
    export_csv(paths, out)
    return {table: read_table((out / f"{table}.csv").read_bytes(), table) for table in TABLES}


@pytest.fixture(scope="module")
def generated_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_big_log(tmp_path_factory.mktemp("big") / "big-hublog.xml", target_mb=0.5)


@pytest.mark.parametrize("which", ["samples", "generated"])
@pytest.mark.slow
def test_parquet_reads_back_as_the_csv_does(tmp_path: Path, which: str, generated_log: Path):
    source = SAMPLE_LOGS if which == "samples" else generated_log
    done = run("export", source, "--to", "parquet", "-o", tmp_path / "pq")
    assert done.returncode == 0, done.stderr
    expected = csv_frames([source], tmp_path / "csv")
    for table in TABLES:
        written = pd.read_parquet(tmp_path / "pq" / f"{table}.parquet")
        pd.testing.assert_frame_equal(written, expected[table], check_dtype=True)
        assert len(written) > 0


@pytest.mark.slow
def test_pyarrow_sees_the_declared_types(tmp_path: Path):
    assert run("export", SAMPLE_LOGS, "--to", "parquet", "-o", tmp_path).returncode == 0
    turns = pq.read_schema(tmp_path / "turns.parquet")
    assert turns.names == list(SCHEMAS["turns"])
    assert turns.field("stime").type == pa.float64()
    assert turns.field("index").type == pa.int64()
    assert turns.field("turn_occurrence").type == pa.int64()
    assert pa.types.is_string(turns.field("speaker").type) or pa.types.is_large_string(turns.field("speaker").type)
    sessions = pq.read_table(tmp_path / "sessions.parquet")
    assert sessions.schema.field("error_messages").type == pa.int64()
    assert sessions.schema.field("session_duration_s").type == pa.float64()
    events = pq.read_table(tmp_path / "events.parquet")
    assert events.column("type").null_count > 0  # empty cells are nulls, not ""
    assert "" not in events.column("type").to_pylist()


def test_an_empty_cell_is_null_and_a_word_like_na_stays_text(tmp_path: Path):
    log = write_log(
        tmp_path / "log.xml",
        log_text(
            [
                session(
                    "NA",
                    [
                        system_turn("1", 1000, "null"),
                        user_turn("2", 1002, "NaN"),
                        '<GC_ANNOT turnid="2">'
                        + data(":transcription", "none", 'type_utt_text="transcription"')
                        + "</GC_ANNOT>",
                    ],
                )
            ]
        ),
    )
    frames = annotator.tables(log)
    assert frames.sessions["session_id"].tolist() == ["NA"]
    assert frames.turns["asr_text"].tolist()[1] == "NaN"
    assert frames.turns["transcription"].isna().tolist() == [True, False]
    assert frames.turns["wer"].isna().tolist() == [True, False]


@pytest.mark.slow
def test_parquet_is_all_or_nothing_and_guarded(tmp_path: Path):
    broken = tmp_path / "logs" / "broken.xml"
    broken.parent.mkdir()
    broken.write_bytes(b'<?xml version="1.0"?>\n<GC_LOG><GC_SESSION id="s">')
    done = run("export", SAMPLE_LOGS, broken, "--to", "parquet", "-o", tmp_path / "out")
    assert done.returncode == 2
    assert done.stderr.startswith(f"annotator: {broken}:") and done.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()
    log = next(SAMPLE_LOGS.glob("*/*-hublog.xml"))
    refused = run("export", log, "--to", "parquet", "-o", log.parent)
    assert refused.returncode == 2 and "nothing written" in refused.stderr


def test_without_pyarrow_one_line_says_what_to_install(tmp_path: Path):
    script = (
        "import sys; sys.modules['pyarrow'] = None; from annotator.cli.main import main; "
        f"sys.exit(main(['export', {str(SAMPLE_LOGS)!r}, '--to', 'parquet', '-o', {str(tmp_path / 'out')!r}]))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr == "annotator: --to parquet needs pyarrow, which this install lacks: pip install pyarrow\n"
    assert not (tmp_path / "out").exists()


def test_tables_are_the_csv_read_with_the_schema(tmp_path: Path):
    frames = annotator.tables(SAMPLE_LOGS)
    expected = csv_frames([SAMPLE_LOGS], tmp_path)
    for table in TABLES:
        pd.testing.assert_frame_equal(getattr(frames, table), expected[table])
    assert frames.turns["stime"].dtype == "float64" and frames.turns["index"].dtype == "int64"
    assert len(frames.sessions) == 3


def test_tables_through_any_file_map_and_from_a_list(tmp_path: Path):
    logs = sorted(SAMPLE_LOGS.glob("*/*-hublog.xml"))
    serial = annotator.tables(logs)
    other = annotator.tables([str(p) for p in logs], file_map=reversed_map)
    for table in TABLES:
        pd.testing.assert_frame_equal(getattr(serial, table), getattr(other, table))
