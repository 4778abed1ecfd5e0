"""The CSV export's four tables as pandas DataFrames, typed: annotator.tables().

    import annotator
    t = annotator.tables("corpus/")            # a log, a folder, or a list of them
    t.sessions, t.turns, t.events, t.words     # DataFrames with the CSV's columns
    t.turns.groupby("speaker")["duration_s"].mean()

The frames hold exactly what `annotator export --to csv` writes (the same
streaming per-file work, annotator.export.csv_stream), read with the types of
annotator.export.table_schema, the same as `--to parquet`.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.corpus.parallel import FileMap, serial_map
from annotator.errors import LogReadError
from annotator.export.csv_export import ExportSummary, csv_blocks, log_rows
from annotator.export.table_schema import read_table
from annotator.progress import Progress

if TYPE_CHECKING:
    import pandas

TABLES = ("sessions", "turns", "events", "words")
PathArgument = str | bytes | os.PathLike


@dataclass
class Tables:
    sessions: pandas.DataFrame
    turns: pandas.DataFrame
    events: pandas.DataFrame
    words: pandas.DataFrame  # every word of the aligned turns (words.csv: read from the alignment cache)
    errors: list[LogReadError]  # logs left out as unreadable (with skip_unreadable)
    skipped: list[Path]  # human-annotation files met among the logs


def tables(
    paths: PathArgument | list[PathArgument],
    *,
    file_map: FileMap = serial_map,
    skip_unreadable: bool = False,
    progress: Progress | None = None,
) -> Tables:
    """The sessions, turns, events and words tables of the logs at PATHS (a log, a folder of logs, or a list; each
    a str, bytes or os.PathLike; a log met through several of them counts once).

    Columns, order and values are those of the CSV export (docs/command-line.md, "CSV export"); times and durations
    are float64 seconds, counts and indexes integers, an empty cell is null (pandas.NA / NaN), text is
    pandas' "string". A log that cannot be read raises its LogReadError (one line naming the file and
    the place), unless SKIP_UNREADABLE, which leaves it out and lists it in .errors. FILE_MAP runs the
    per-file work (annotator.corpus.parallel): any map gives the same frames.
    """
    return tables_from(_as_paths(paths), file_map=file_map, skip_unreadable=skip_unreadable, progress=progress)


def tables_from(
    paths: list[Path],
    *,
    file_map: FileMap = serial_map,
    skip_unreadable: bool = False,
    progress: Progress | None = None,
) -> Tables:
    summary = ExportSummary(Path("."))
    blocks: dict[str, list[bytes]] = defaultdict(list)
    for name, block in csv_blocks(log_rows(paths, progress, file_map), summary, skip_unreadable):
        blocks[name].append(block)
    frames = {table: read_table(b"".join(blocks[f"{table}.csv"]), table) for table in TABLES}
    return Tables(
        frames["sessions"], frames["turns"], frames["events"], frames["words"], summary.errors, summary.skipped
    )


def _as_paths(paths: PathArgument | list[PathArgument]) -> list[Path]:
    """PATHS as a list of Paths: a str, bytes (how a name that is not UTF-8 is given) or os.PathLike, or a
    list of them; TypeError naming what was given otherwise."""
    given = [paths] if isinstance(paths, (str, bytes, os.PathLike)) else paths
    try:
        return [Path(os.fsdecode(path)) for path in given]
    except TypeError:
        raise TypeError(
            f"annotator.tables: give a path (str, bytes or os.PathLike) or a list of them, not {type(paths).__name__}"
        ) from None
