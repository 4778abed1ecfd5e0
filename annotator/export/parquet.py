"""`annotator export --to parquet`: sessions.parquet, turns.parquet, events.parquet and words.parquet.

The four tables of the CSV export, typed (annotator.export.table_schema) and
written with pyarrow, all or nothing (annotator.outputs.staging) and behind the
output guard like the CSV files. pyarrow is part of the install, imported only here.

Each table is written while the logs' rows still arrive (from other processes
with a parallel FileMap): its CSV lines are typed a few megabytes at a time and
written in row groups of ROW_GROUP_ROWS as they fill, so that on several cores
the typing and writing overlap the workers instead of following them. The
files are the same bytes however the rows were made, and the row groups are
those of one write of the whole table.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import IO, TYPE_CHECKING

from annotator.corpus.parallel import FileMap, serial_map
from annotator.errors import AnnotatorError
from annotator.export.csv_export import ExportSummary, csv_blocks, log_rows
from annotator.export.dialogue_text import ExportOptions, ExportReport
from annotator.export.table_schema import read_table
from annotator.export.tables import TABLES
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress

if TYPE_CHECKING:
    import pyarrow
    import pyarrow.parquet

NEEDS_PYARROW = "--to parquet needs pyarrow, which this install lacks: pip install pyarrow"
# CSV bytes typed at once: large enough that pandas' start per call is nothing, small enough that
# what is left to type after the last log arrives is a fraction of a second.
BATCH_BYTES = 4 << 20
ROW_GROUP_ROWS = 1 << 20  # pyarrow's default for one write_table of the whole table


class ParquetUnavailableError(AnnotatorError):
    """pyarrow is not installed."""


def export_parquet(
    paths: list[Path],
    out_dir: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise ParquetUnavailableError(NEEDS_PYARROW) from None
    summary = ExportSummary(Path(out_dir))
    names = [f"{table}.parquet" for table in TABLES]
    with StagedFolder(out_dir, guard) as staged, ExitStack() as streams:
        writers = {
            f"{table}.csv": TableWriter(table, streams.enter_context(staged.open(name)))
            for table, name in zip(TABLES, names)
        }
        for writer in writers.values():  # on an error, each writer lets go before its stream closes
            streams.callback(writer.end)
        for name, block in csv_blocks(log_rows(paths, progress, file_map), summary, skip_unreadable=False):
            writers[name].add(block)
        for writer in writers.values():
            writer.close()
    return ExportReport(
        "parquet",
        out_dir,
        [out_dir / name for name in names],
        summary.sessions,
        summary.turns,
        summary=f"exported {summary.sessions} session(s), {summary.turns} turn(s), "
        f"{summary.events} operation(s)/message(s)/event(s) to {out_dir} (Parquet)"
        + (f"; {words}" if (words := summary.words_note()) else ""),
    )


class TableWriter:
    """One table's Parquet file, written from its CSV bytes as they come (the header line first)."""

    def __init__(self, table: str, stream: IO[bytes]):
        self.table = table
        self.stream = stream
        self.header: bytes | None = None
        self.lines: list[bytes] = []
        self.size = 0
        self.typed: list[pyarrow.Table] = []  # typed, not yet written: fewer than ROW_GROUP_ROWS rows
        self.rows = 0
        self.writer: pyarrow.parquet.ParquetWriter | None = None

    def add(self, block: bytes) -> None:
        if self.header is None:
            self.header = block
            return
        self.lines.append(block)
        self.size += len(block)
        if self.size >= BATCH_BYTES:
            self._type_lines()

    def close(self) -> None:
        """Write what is left (an empty table is a file with the columns and no rows)."""
        import pyarrow.parquet

        self._type_lines()
        if self.rows:
            self._write(self._pending(self.rows))
        if self.writer is None:
            self.writer = pyarrow.parquet.ParquetWriter(self.stream, self.typed[0].schema)
        self.end()

    def end(self) -> None:
        """Close the Parquet writer (again: nothing), so that it never writes to its stream once that is closed."""
        if self.writer is not None and self.writer.is_open:
            self.writer.close()

    def _type_lines(self) -> None:
        import pyarrow

        if not self.lines and self.typed:
            return
        assert self.header is not None, "csv_blocks gives each table its header line first"
        frame = read_table(self.header + b"".join(self.lines), self.table)
        self.lines, self.size = [], 0
        self.typed.append(pyarrow.Table.from_pandas(frame, preserve_index=False))
        self.rows += len(frame)
        while self.rows >= ROW_GROUP_ROWS:
            self._write(self._pending(ROW_GROUP_ROWS))

    def _pending(self, rows: int) -> pyarrow.Table:
        """The first ROWS rows typed and not yet written, taken from those kept."""
        import pyarrow

        whole = pyarrow.concat_tables(self.typed)
        self.typed = [whole.slice(rows)]
        self.rows -= rows
        return whole.slice(0, rows)

    def _write(self, table: pyarrow.Table) -> None:
        import pyarrow.parquet

        if self.writer is None:
            self.writer = pyarrow.parquet.ParquetWriter(self.stream, table.schema)
        self.writer.write_table(table, row_group_size=ROW_GROUP_ROWS)
