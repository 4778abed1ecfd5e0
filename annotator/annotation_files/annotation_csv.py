"""Annotation CSVs: read the exporter's turns.csv and sessions.csv and our own
annotations CSV; write our own.

Our annotations CSV has the columns file, session_id, turn_id, transcription,
task_completion, session_occurrence, turn_occurrence: one row per transcribed
turn, and one row with an empty turn_id per session that has a task
completion. The occurrences are filled only where sessions (turns of a
session) share an id: which of them the row is about, from 1 (the export's
turns.csv and sessions.csv carry the same columns). Every cell is read as
text ("-01", "0" and "NA" stay as written) and spreadsheet-formula
neutralisation is undone on read and applied on write.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.annotation_files.human_format import SESSION_OCCURRENCE, TURN_OCCURRENCE
from annotator.annotation_files.spreadsheet_cells import neutralise_cell, unneutralise_cell
from annotator.errors import AnnotationError, AnnotationFileError
from annotator.file_name_text import name_text
from annotator.input_files import read_input_text
from annotator.log.concepts import parse_compact
from annotator.log.turn_ids import occurrence_number, strip_id
from annotator.writes.atomic import write_atomic

if TYPE_CHECKING:
    import pandas as pd

    from annotator.log.elements import Session

__all__ = ["ANNOTATION_COLUMNS", "neutralise_cell", "read_annotation_csv", "unneutralise_cell", "write_annotation_csv"]

ANNOTATION_COLUMNS = (
    "file",
    "session_id",
    "turn_id",
    "transcription",
    "task_completion",
    SESSION_OCCURRENCE,
    TURN_OCCURRENCE,
)
CONCEPTS_COLUMN = "concepts"
# The notes (annotator.log.flags) as turns.csv and sessions.csv of the export name them.
NOTE_COLUMNS = {"flags": "flags", "comment": "comment", "time_spent_s": "time_spent"}  # column -> note kind
REVIEW_COLUMNS = ("reviewed", "reviewed_by")


def read_annotation_csv(path: str | Path) -> AnnotationSet:
    """Transcriptions from rows with turn_id and transcription, reference concepts from their concepts cells,
    task completion from task_completion cells."""
    path = Path(path)
    frame = _read_frame(path)
    columns = set(frame.columns)
    has_turns = "turn_id" in columns and bool(columns & {"transcription", CONCEPTS_COLUMN, *NOTE_COLUMNS})
    if "session_id" not in columns or not has_turns and not columns & {"task_completion", "reviewed"}:
        raise AnnotationFileError(
            f"{path}: {_missing_columns(columns)}; an annotation CSV needs session_id and either "
            "turn_id + transcription (turns.csv) or task_completion (sessions.csv)"
        )
    annotations = AnnotationSet()
    for number, row in enumerate(frame.to_dict("records"), start=2):  # row 1 is the header
        cells = {name: unneutralise_cell(value) for name, value in row.items() if name in _READ_COLUMNS}
        if not any(value.strip() for value in cells.values() if value is not None):
            continue
        try:
            _read_row(annotations, cells, has_turns)
        except ValueError as error:
            raise AnnotationFileError(f"{path}: row {number}: {error}") from None
        if (cells.get("file") or "").strip():  # the log the row was written for: folding checks it
            annotations.named_logs.append(
                (strip_id(cells["session_id"]), cells["file"].strip(), f"{path}: row {number}")
            )
    return annotations


def _read_row(annotations: AnnotationSet, cells: dict[str, str], has_turns: bool) -> None:
    session_id = cells["session_id"]
    session_occurrence = occurrence_number(cells.get(SESSION_OCCURRENCE), SESSION_OCCURRENCE)
    transcription = cells.get("transcription", "") if has_turns else ""
    if transcription.strip():
        if not cells.get("turn_id", "").strip():
            raise ValueError("a transcription without a turn_id")
        annotations.add_transcription(
            session_id,
            cells["turn_id"],
            transcription,
            session_occurrence=session_occurrence,
            turn_occurrence=occurrence_number(cells.get(TURN_OCCURRENCE), TURN_OCCURRENCE),
        )
    concepts = cells.get(CONCEPTS_COLUMN, "") if has_turns else ""
    if concepts.strip():
        if not cells.get("turn_id", "").strip():
            raise ValueError("concepts without a turn_id")
        try:
            parsed = parse_compact(concepts)
        except AnnotationError as error:
            raise ValueError(f"column {CONCEPTS_COLUMN}: {error}") from None
        annotations.add_concepts(
            session_id,
            cells["turn_id"],
            parsed,
            session_occurrence=session_occurrence,
            turn_occurrence=occurrence_number(cells.get(TURN_OCCURRENCE), TURN_OCCURRENCE),
        )
    task_completion = cells.get("task_completion", "")
    if task_completion.strip():
        annotations.add_task_completion(session_id, task_completion, session_occurrence=session_occurrence)
    for column, kind in NOTE_COLUMNS.items():
        text = cells.get(column, "") if has_turns else ""
        if text.strip():
            if not cells.get("turn_id", "").strip():
                raise ValueError(f"{column} without a turn_id")
            try:
                annotations.add_note(
                    session_id,
                    cells["turn_id"],
                    kind,
                    text,
                    session_occurrence=session_occurrence,
                    turn_occurrence=occurrence_number(cells.get(TURN_OCCURRENCE), TURN_OCCURRENCE),
                )
            except ValueError as error:
                raise ValueError(f"column {column}: {error}") from None
    if cells.get("reviewed", "").strip() not in ("", "0"):  # the export writes 1 or 0
        annotations.add_reviewed(session_id, cells.get("reviewed_by", ""), session_occurrence=session_occurrence)


def _read_frame(path: Path) -> pd.DataFrame:
    import pandas as pd  # here, not at the top: writing and `annotator extract`'s workers need no pandas

    text = read_input_text(path, lambda reason: AnnotationFileError(f"{path}: {reason}"))
    text, separator = _separator(text)
    try:
        frame = pd.read_csv(io.StringIO(text), sep=separator, dtype=str, keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise AnnotationFileError(f"{path}: the file is empty, not an annotation CSV") from None
    except pd.errors.ParserError as error:
        raise AnnotationFileError(f"{path}: not a readable CSV: {' '.join(str(error).split())}") from None
    frame.columns = [str(name).strip() for name in frame.columns]
    return frame


def _separator(text: str) -> tuple[str, str]:
    """TEXT without a leading "sep=X" line, and the separator: X, else the one of , ; tab that
    splits the header into the most column names we know (spreadsheets in many locales save
    with ";", LibreOffice offers tab), "," when none does better."""
    first_line, _, rest = text.partition("\n")
    hint = first_line.strip()
    if hint.startswith("sep=") and len(hint) == 5:
        return rest, hint[4]

    def known(separator: str) -> int:
        header = next(csv.reader([first_line], delimiter=separator), [])
        return sum(cell.strip() in _KNOWN_COLUMNS for cell in header)

    return text, max(_SEPARATORS, key=known)  # max keeps the first of equals: ","


def _missing_columns(columns: set[str]) -> str:
    wanted = ["session_id"] if "session_id" not in columns else []
    if "turn_id" in columns or "transcription" in columns:
        wanted += [name for name in ("turn_id", "transcription") if name not in columns]
    elif "session_id" in columns:
        wanted.append("task_completion")
    return "missing column(s) " + ", ".join(wanted)


_SEPARATORS = (",", ";", "\t")
_READ_COLUMNS = frozenset(ANNOTATION_COLUMNS) | {CONCEPTS_COLUMN, *NOTE_COLUMNS, *REVIEW_COLUMNS}
_KNOWN_COLUMNS = _READ_COLUMNS | {"index", "speaker", "stime", "etime"}


def write_annotation_csv(path: str | Path, annotations: AnnotationSet, sessions: Iterable[Session] = ()) -> None:
    """Write our annotations CSV (UTF-8, LF); the file column names each session's log relative to PATH.
    The concepts column is written only when some turn has reference concepts, the notes' columns (flags,
    comment, time_spent_s, reviewed, reviewed_by) only when some turn or session has one."""
    path = Path(path)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    concepts = annotations.concepts
    extra = (CONCEPTS_COLUMN,) if concepts else ()
    noted = bool(annotations.notes or annotations.reviewed)
    notes_header = (*NOTE_COLUMNS, *REVIEW_COLUMNS) if noted else ()
    writer.writerow(ANNOTATION_COLUMNS + extra + notes_header)
    for session_ref, session, refs in annotations.in_order(sessions):
        file = _file_cell(path, session)
        which = _number(session_ref.occurrence)
        reviewer = annotations.reviewed.get(session_ref)
        if session_ref in annotations.task_completion or reviewer is not None:
            review = ("", "", "", "1" if reviewer is not None else "", reviewer or "") if noted else ()
            writer.writerow(
                _cells(
                    file,
                    session_ref.id,
                    "",
                    "",
                    annotations.task_completion.get(session_ref, ""),
                    which,
                    "",
                    *("" for _ in extra),
                    *review,
                )
            )
        for ref in refs:
            frame = (concepts[ref].compact() if ref in concepts else "" for _ in extra)
            notes = annotations.notes.get(ref, {})
            note_cells = (*(notes.get(kind, "") for kind in NOTE_COLUMNS.values()), "", "") if noted else ()
            writer.writerow(
                _cells(
                    file,
                    session_ref.id,
                    annotations.turn_id(ref),
                    annotations.transcriptions.get(ref, ""),
                    "",
                    which,
                    _number(ref.occurrence),
                    *frame,
                    *note_cells,
                )
            )
    write_atomic(path, buffer.getvalue().encode("utf-8"))


def _number(occurrence: int | None) -> str:
    return "" if occurrence is None else str(occurrence)


def _cells(*values: str) -> list[str]:
    return [neutralise_cell(value) for value in values]


def _file_cell(csv_path: Path, session: Session | None) -> str:
    """The session's log relative to the CSV, with / separators, as name_text writes file names."""
    if session is None:
        return ""
    log_path = session.document.path
    try:
        relative = os.path.relpath(log_path.resolve(), csv_path.resolve().parent)
    except ValueError:  # another drive (Windows)
        return name_text(log_path.resolve().as_posix())
    return name_text(Path(relative).as_posix())
