"""Annotation CSVs: read the exporter's turns.csv and sessions.csv and our own
annotations CSV; write our own.

Our annotations CSV has the columns file, session_id, turn_id, transcription,
task_completion: one row per transcribed turn, and one row with an empty
turn_id per session that has a task completion. Every cell is read as text
("-01", "0" and "NA" stay as written) and spreadsheet-formula neutralisation
is undone on read and applied on write.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from annotator.errors import AnnotationFileError
from annotator.input_files import open_input_file, read_problem
from annotator.log.annotation_set import AnnotationSet
from annotator.log.atomic import write_atomic
from annotator.log.spreadsheet_cells import neutralise_cell, unneutralise_cell

if TYPE_CHECKING:
    from annotator.log.views import Session

__all__ = ["ANNOTATION_COLUMNS", "neutralise_cell", "read_annotation_csv", "unneutralise_cell", "write_annotation_csv"]

ANNOTATION_COLUMNS = ("file", "session_id", "turn_id", "transcription", "task_completion")


def read_annotation_csv(path: str | Path) -> AnnotationSet:
    """Transcriptions from rows with turn_id and transcription, task completion from task_completion cells."""
    path = Path(path)
    frame = _read_frame(path)
    columns = set(frame.columns)
    has_turns = {"turn_id", "transcription"} <= columns
    if "session_id" not in columns or not has_turns and "task_completion" not in columns:
        raise AnnotationFileError(
            f"{path}: {_missing_columns(columns)}; an annotation CSV needs session_id and either "
            "turn_id + transcription (turns.csv) or task_completion (sessions.csv)")
    annotations = AnnotationSet()
    for number, row in enumerate(frame.to_dict("records"), start=2):  # row 1 is the header
        cells = {name: unneutralise_cell(value) for name, value in row.items() if name in ANNOTATION_COLUMNS}
        if not any(value.strip() for value in cells.values() if value is not None):
            continue
        try:
            _read_row(annotations, cells, has_turns)
        except ValueError as error:
            raise AnnotationFileError(f"{path}: row {number}: {error}") from None
    return annotations


def _read_row(annotations: AnnotationSet, cells: dict[str, str], has_turns: bool) -> None:
    session_id = cells["session_id"]
    transcription = cells.get("transcription", "") if has_turns else ""
    if transcription.strip():
        if not cells.get("turn_id", "").strip():
            raise ValueError("a transcription without a turn_id")
        annotations.add_transcription(session_id, cells["turn_id"], transcription)
    task_completion = cells.get("task_completion", "")
    if task_completion.strip():
        annotations.add_task_completion(session_id, task_completion)


def _read_frame(path: Path) -> pd.DataFrame:
    try:
        with open_input_file(path) as stream:
            frame = pd.read_csv(stream, dtype=str, keep_default_na=False, encoding="utf-8-sig")
    except pd.errors.EmptyDataError:
        raise AnnotationFileError(f"{path}: the file is empty, not an annotation CSV") from None
    except UnicodeDecodeError as error:
        raise AnnotationFileError(f"{path}: not UTF-8 text (byte offset {error.start})") from None
    except pd.errors.ParserError as error:
        raise AnnotationFileError(f"{path}: not a readable CSV: {' '.join(str(error).split())}") from None
    except OSError as error:
        raise AnnotationFileError(f"{path}: {read_problem(error)}") from None
    frame.columns = [str(name).strip() for name in frame.columns]
    return frame


def _missing_columns(columns: set[str]) -> str:
    wanted = ["session_id"] if "session_id" not in columns else []
    if "turn_id" in columns or "transcription" in columns:
        wanted += [name for name in ("turn_id", "transcription") if name not in columns]
    elif "session_id" in columns:
        wanted.append("task_completion")
    return "missing column(s) " + ", ".join(wanted)


def write_annotation_csv(path: str | Path, annotations: AnnotationSet, sessions: Iterable[Session] = ()) -> None:
    """Write our annotations CSV (UTF-8, LF); the file column names each session's log relative to PATH."""
    path = Path(path)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(ANNOTATION_COLUMNS)
    for session_id, session, refs in annotations.in_order(sessions):
        file = _file_cell(path, session)
        if session_id in annotations.task_completion:
            writer.writerow(_cells(file, session_id, "", "", annotations.task_completion[session_id]))
        for ref in refs:
            writer.writerow(_cells(file, session_id, annotations.turn_id(ref), annotations.transcriptions[ref], ""))
    write_atomic(path, buffer.getvalue().encode("utf-8"))


def _cells(*values: str) -> list[str]:
    return [neutralise_cell(value) for value in values]


def _file_cell(csv_path: Path, session: Session | None) -> str:
    if session is None:
        return ""
    log_path = session.document.path
    try:
        relative = os.path.relpath(log_path.resolve(), csv_path.resolve().parent)
    except ValueError:  # another drive (Windows)
        return log_path.resolve().as_posix()
    return Path(relative).as_posix()
