"""`annotator agree --csv DIR`: one CSV per table (pairs, task_completion, sessions, disagreements, turns),
written together (all or none, annotator.outputs.staging), UTF-8, cells neutralised against formulas."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import IO

from annotator.agreement.tables import Table
from annotator.annotation_files.csv_quoting import write_csv_row
from annotator.annotation_files.spreadsheet_cells import neutralise_cell
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder


def write_csv(stream: IO[bytes], table: Table) -> None:
    """TABLE as CSV, row by row: a table holding a huge transcription is never whole in memory."""
    write_csv_row(stream, table.columns)
    for row in table.rows:
        write_csv_row(stream, map(neutralise_cell, row))


def write_csv_files(folder: Path, tables: list[Table], guard: OutputGuard | None = None) -> list[Path]:
    """Write each table as FOLDER/NAME.csv; the paths written."""
    with StagedFolder(folder, guard) as staged:
        for table in tables:
            staged.write(f"{table.name}.csv", partial(write_csv, table=table))
    return [folder / f"{table.name}.csv" for table in tables]
