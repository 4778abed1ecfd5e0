"""`annotator export --to parquet`: sessions.parquet, turns.parquet and events.parquet.

The three tables of the CSV export, typed (annotator.export.table_schema) and
written with pyarrow, all or nothing (annotator.outputs.staging) and behind the
output guard like the CSV files. pyarrow is the optional extra `parquet`.
"""

from __future__ import annotations

from pathlib import Path

from annotator.corpus.parallel import FileMap, serial_map
from annotator.errors import AnnotatorError
from annotator.export.dialogue_text import ExportOptions, ExportReport
from annotator.export.tables import TABLES, tables_from
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress

NEEDS_PYARROW = "--to parquet needs pyarrow: pip install 'communicator-annotator[parquet]'"


class ParquetUnavailableError(AnnotatorError):
    """pyarrow is not installed."""


def export_parquet(paths: list[Path], out_dir: Path, options: ExportOptions | None = None,
                   progress: Progress | None = None, guard: OutputGuard | None = None,
                   file_map: FileMap = serial_map) -> ExportReport:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ParquetUnavailableError(NEEDS_PYARROW) from None
    found = tables_from(paths, progress=progress, file_map=file_map)
    frames = {"sessions": found.sessions, "turns": found.turns, "events": found.events}
    names = [f"{table}.parquet" for table in TABLES]
    with StagedFolder(out_dir, guard) as staged:
        for table, name in zip(TABLES, names):
            with staged.open(name) as stream:
                pyarrow.parquet.write_table(pyarrow.Table.from_pandas(frames[table], preserve_index=False), stream)
    return ExportReport("parquet", out_dir, [out_dir / name for name in names], len(found.sessions),
                        len(found.turns), summary=f"exported {len(found.sessions)} session(s), {len(found.turns)} "
                                                  f"turn(s), {len(found.events)} operation(s)/message(s)/event(s) "
                                                  f"to {out_dir} (Parquet)")
