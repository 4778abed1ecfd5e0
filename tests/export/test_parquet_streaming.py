"""`--to parquet` writes each table while the logs' rows arrive: typed a batch at a time, in row groups as
they fill. Whatever the batches, the files are the bytes of one write of each whole table."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from annotator.export import parquet
from annotator.export.csv_export import export_csv
from annotator.export.parquet import export_parquet
from annotator.export.table_schema import read_table
from tests.support.big_log import make_big_log
from tests.support.csv_exports import reversed_map
from tests.support.repository import SAMPLE_LOGS

TABLES = ("sessions", "turns", "events")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("corpus")
    generated = make_big_log(folder / "big-hublog.xml", target_mb=0.2)
    return sorted(SAMPLE_LOGS.glob("*/*-hublog.xml")) + [generated]


def whole_table_bytes(csv_file: Path, table: str, row_group_size: int) -> bytes:
    """The Parquet bytes of one write of the whole table read from the CSV export."""
    whole = pa.Table.from_pandas(read_table(csv_file.read_bytes(), table), preserve_index=False)
    sink = io.BytesIO()
    pq.write_table(whole, sink, row_group_size=row_group_size)
    return sink.getvalue()


def test_small_batches_and_row_groups_write_the_bytes_of_one_whole_write(
    tmp_path: Path, corpus: list[Path], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(parquet, "BATCH_BYTES", 3000)  # many batches per table, and several per log
    monkeypatch.setattr(parquet, "ROW_GROUP_ROWS", 40)  # row groups that span batches and logs
    export_parquet(corpus, tmp_path / "pq")
    export_csv(corpus, tmp_path / "csv")
    for table in TABLES:
        written = (tmp_path / "pq" / f"{table}.parquet").read_bytes()
        assert written == whole_table_bytes(tmp_path / "csv" / f"{table}.csv", table, 40), table
        groups = pq.ParquetFile(tmp_path / "pq" / f"{table}.parquet").metadata
        sizes = [groups.row_group(n).num_rows for n in range(groups.num_row_groups)]
        assert sizes[:-1] == [40] * (len(sizes) - 1) and 0 < sizes[-1] <= 40
    assert groups.num_row_groups > 10  # events: the batches did cross row groups


def test_the_bytes_do_not_depend_on_the_map_or_the_batches(
    tmp_path: Path, corpus: list[Path], monkeypatch: pytest.MonkeyPatch
):
    export_parquet(corpus, tmp_path / "one-batch")
    monkeypatch.setattr(parquet, "BATCH_BYTES", 1)  # a batch per block of lines
    export_parquet(corpus, tmp_path / "many-batches", file_map=reversed_map)
    for table in TABLES:
        name = f"{table}.parquet"
        assert (tmp_path / "one-batch" / name).read_bytes() == (tmp_path / "many-batches" / name).read_bytes()


def test_a_table_without_rows_is_a_file_with_the_columns(tmp_path: Path):
    log = tmp_path / "empty-hublog.xml"
    log.write_text('<?xml version="1.0"?>\n<GC_LOG></GC_LOG>\n', encoding="utf-8")
    export_parquet([log], tmp_path / "pq")
    for table in TABLES:
        read = pq.read_table(tmp_path / "pq" / f"{table}.parquet")
        assert read.num_rows == 0 and len(read.schema.names) > 3


@pytest.mark.slow
def test_an_unreadable_log_after_row_groups_were_written_leaves_nothing_and_says_one_line(tmp_path: Path):
    logs = tmp_path / "logs"
    logs.mkdir()
    make_big_log(logs / "a-hublog.xml", target_mb=0.2)
    (logs / "b-hublog.xml").write_bytes(b'<?xml version="1.0"?>\n<GC_LOG><GC_SESSION id="s">')
    script = (
        "import sys; from annotator.export import parquet; parquet.ROW_GROUP_ROWS = 10; "
        "from annotator.cli.main import main; "
        f"sys.exit(main(['export', {str(logs)!r}, '--to', 'parquet', '-o', {str(tmp_path / 'out')!r}, '--jobs', '1']))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith(f"annotator: {logs / 'b-hublog.xml'}:") and done.stderr.count("\n") == 1, done.stderr
    assert not (tmp_path / "out").exists()
