"""Export logs to four CSV files: sessions.csv, turns.csv, events.csv and words.csv.

    summary = export_csv([Path("corpus/")], Path("out/"))

Each log is streamed once (annotator.export.csv_stream; the tree is never
built whole) and each session walked once; the rows are described in
annotator.export.csv_rows, the words' in annotator.export.words_rows (read
from the alignment cache, never aligned here). Each log's rows are made apart (a FileMap may
make them in other processes) and written here in the order of the logs. The files are UTF-8 without BOM with LF line
ends, written all or nothing (annotator.outputs.staging): the four are
built in a staging folder and replace the previous ones only when every log
has been exported, so a failure leaves the old files as they were and a new
output folder is not made at all. File names in the cells are written by
annotator.file_name_text (any name, reversibly).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from annotator.corpus.parallel import FileMap, Outcome, raise_if_failed, serial_map
from annotator.corpus.paths import common_root, expand_log_paths
from annotator.corpus_index.location import alignment_cache_file
from annotator.errors import AnnotatorError, LogReadError
from annotator.export.csv_audio import AudioCells
from annotator.export.csv_cells import csv_line
from annotator.export.csv_rows import (
    EVENT_COLUMNS,
    OCCURRENCE_PLACEHOLDER,
    SESSION_COLUMNS,
    TURN_COLUMNS,
    document_rows,
)
from annotator.export.csv_stream import file_cell, file_rows
from annotator.export.words_rows import WORD_COLUMNS, word_lines
from annotator.log.document import LogDocument
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress

__all__ = ["EVENT_COLUMNS", "SESSION_COLUMNS", "TURN_COLUMNS", "WORD_COLUMNS", "ExportSummary", "export_csv"]

FILE_NAMES = ("sessions.csv", "turns.csv", "events.csv", "words.csv")
PLACEHOLDER = OCCURRENCE_PLACEHOLDER.encode("ascii")


@dataclass
class ExportSummary:
    out_dir: Path
    logs: list[Path] = field(default_factory=list)  # exported
    skipped: list[Path] = field(default_factory=list)  # annotation files met among the logs
    errors: list[LogReadError] = field(default_factory=list)  # unreadable logs (with skip_unreadable)
    sessions: int = 0
    turns: int = 0
    events: int = 0
    words: int = 0
    aligned_turns: int = 0
    unaligned_turns: int = 0  # with audio and words, not in the alignment cache: `annotator align` makes them
    unalignable_turns: int = 0  # the aligner could not place them, or they have no audio

    @property
    def files(self) -> list[Path]:
        return [self.out_dir / name for name in FILE_NAMES]

    def __str__(self) -> str:
        text = (
            f"exported {len(self.logs)} log(s): {self.sessions} session(s), {self.turns} turn(s), "
            f"{self.events} operation(s)/message(s)/event(s) to {self.out_dir}"
        )
        if words := self.words_note():
            text += f"; {words}"
        if self.skipped:
            text += f"; skipped {len(self.skipped)} annotation file(s)"
        if self.errors:
            text += f"; {len(self.errors)} log(s) unreadable:"
            text += "".join(f"\n  {error}" for error in self.errors)
        return text

    def words_note(self) -> str:
        """How many words were written, and how many turns have none, each with what can be done about it;
        "" when no turn has audio or words."""
        if not (self.aligned_turns or self.unaligned_turns or self.unalignable_turns):
            return ""
        note = f"words: {self.words} word(s) of {self.aligned_turns} aligned turn(s)"
        if self.unaligned_turns:
            note += (
                f", {self.unaligned_turns} turn(s) have no alignment yet: `annotator align` on the same logs makes them"
            )
        if self.unalignable_turns:
            note += (
                f", {self.unalignable_turns} turn(s) cannot be aligned (no audio, or the aligner could not place them)"
            )
        return note


def export_csv(
    paths: list[Path],
    out_dir: Path,
    progress: Progress | None = None,
    skip_unreadable: bool = False,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportSummary:
    """Write OUT_DIR/sessions.csv, turns.csv, events.csv and words.csv for the logs at PATHS (files or folders).

    A log that cannot be read raises its LogReadError (and nothing is written),
    unless SKIP_UNREADABLE, in which case it is left out and its error listed in
    the summary. PROGRESS, if given, wraps the iteration over the log files.
    GUARD, if given, checks each file before it is replaced. FILE_MAP runs the
    per-file work (annotator.export.csv_stream.file_rows): the files are the
    same bytes whatever map ran it, written in the order of the logs.
    """
    return write_csv(log_rows(paths, progress, file_map), Path(out_dir), skip_unreadable, guard)


def log_rows(paths: list[Path], progress: Progress | None = None, file_map: FileMap = serial_map) -> Iterator[Outcome]:
    """(log, its FileRows, None for an annotation file, or its error) for the logs at PATHS, in order."""
    paths = [Path(p) for p in paths]
    root = common_root(paths) if paths else Path.cwd()
    work = functools.partial(file_rows, root=root, cache_file=alignment_cache_file())
    return file_map(work, expand_log_paths(paths), progress)


def export_document_csv(doc: LogDocument, out_dir: Path, guard: OutputGuard | None = None) -> ExportSummary:
    """The four files for one loaded document, as it is in memory (its tree, edits included)."""
    rows = document_rows(
        doc, file_cell(doc.path, common_root([doc.path])), AudioCells(doc.folder), alignment_cache_file()
    )
    return write_csv(iter([(doc.path, rows)]), Path(out_dir), False, guard)


def write_csv(
    outcomes: Iterator[Outcome], out_dir: Path, skip_unreadable: bool, guard: OutputGuard | None
) -> ExportSummary:
    """Write the four files from each log's rows (or its error), in the order given."""
    summary = ExportSummary(out_dir)
    with StagedFolder(out_dir, guard) as staged, ExitStack() as streams:
        files = {name: streams.enter_context(staged.open(name)) for name in FILE_NAMES}
        for name, block in csv_blocks(outcomes, summary, skip_unreadable):
            files[name].write(block)
    return summary


def csv_blocks(
    outcomes: Iterator[Outcome], summary: ExportSummary, skip_unreadable: bool
) -> Iterator[tuple[str, bytes]]:
    """(file name, bytes to append to it): the four header lines, then each log's rows in the order
    of OUTCOMES, sessions sharing an id numbered across the logs in that order. SUMMARY counts them.
    An unreadable log is listed in SUMMARY and left out with SKIP_UNREADABLE; otherwise the other
    logs are still read, to name them all, and at the end the one error (or UnreadableFiles) is raised."""
    sessions, turns, events, words = FILE_NAMES
    yield sessions, csv_line(SESSION_COLUMNS).encode("utf-8")
    yield turns, csv_line(TURN_COLUMNS).encode("utf-8")
    yield events, csv_line(EVENT_COLUMNS).encode("utf-8")
    yield words, csv_line(WORD_COLUMNS).encode("utf-8")
    session_ids: Counter[str] = Counter()
    failed: list[AnnotatorError] = []
    for path, rows in outcomes:
        if isinstance(rows, AnnotatorError):
            if skip_unreadable and isinstance(rows, LogReadError):
                summary.errors.append(rows)
            else:
                failed.append(rows)
            continue
        if failed:
            continue  # nothing will be written: the other logs are read only to name every unreadable one
        if rows is None:
            summary.skipped.append(path)
            continue
        for session in rows.sessions:
            session_ids[session.key] += 1
            occurrence = str(session_ids[session.key]).encode("ascii")
            yield sessions, session.session_line.replace(PLACEHOLDER, occurrence)
            yield turns, session.turn_lines.replace(PLACEHOLDER, occurrence)
            summary.turns += session.n_turns
        for block in rows.events:
            yield events, block
        yield words, word_lines(rows.words)
        summary.words += rows.words.n_words
        summary.aligned_turns += len(rows.words.turns)
        summary.unaligned_turns += rows.words.missing
        summary.unalignable_turns += rows.words.unalignable
        summary.sessions += len(rows.sessions)
        summary.events += rows.n_events
        summary.logs.append(path)
    if len(failed) == 1:
        raise failed[0]
    raise_if_failed(failed)
