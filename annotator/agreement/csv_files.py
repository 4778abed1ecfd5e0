"""`annotator agree --csv DIR`: one CSV per table (pairs, task_completion, sessions, disagreements, turns),
written together (all or none, annotator.outputs.staging), UTF-8, cells neutralised against formulas."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from annotator.agreement.tables import Table
from annotator.annotation_files.spreadsheet_cells import neutralise_cell
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder


def csv_bytes(table: Table) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows([neutralise_cell(cell) for cell in row] for row in table.rows)
    return buffer.getvalue().encode("utf-8")


def write_csv_files(folder: Path, tables: list[Table], guard: OutputGuard | None = None) -> list[Path]:
    """Write each table as FOLDER/NAME.csv; the paths written."""
    with StagedFolder(folder, guard) as staged:
        for table in tables:
            staged.write(f"{table.name}.csv", csv_bytes(table))
    return [folder / f"{table.name}.csv" for table in tables]
