"""Export logs to three CSV files: sessions.csv, turns.csv, events.csv.

    summary = export_csv([Path("corpus/")], Path("out/"))

Each log is loaded once and each session walked once; the rows are described
in annotator.export.csv_rows. The files are UTF-8 without BOM with LF line
ends, written all or nothing (annotator.outputs.staging): the three are
built in a staging folder and replace the previous ones only when every log
has been exported, so a failure leaves the old files as they were and a new
output folder is not made at all. File names in the cells are written by
annotator.file_name_text (any name, reversibly).
"""

from __future__ import annotations

from collections import Counter
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from annotator.analysis.metrics import session_metrics
from annotator.analysis.metrics_scan import SessionPass
from annotator.corpus.paths import ANNOTATION_ROOT, common_root, expand_log_paths, root_tag
from annotator.errors import LogReadError
from annotator.export.csv_audio import AudioCells
from annotator.export.csv_cells import csv_line, text_cell
from annotator.export.csv_rows import (
    EVENT_COLUMNS,
    SESSION_COLUMNS,
    TURN_COLUMNS,
    event_lines,
    session_line,
    turn_lines,
)
from annotator.file_name_text import name_text
from annotator.log.document import LogDocument
from annotator.log.gc_pause import gc_paused
from annotator.log.turn_ids import strip_id
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress

__all__ = ["EVENT_COLUMNS", "SESSION_COLUMNS", "TURN_COLUMNS", "ExportSummary", "export_csv"]

FILE_NAMES = ("sessions.csv", "turns.csv", "events.csv")


@dataclass
class ExportSummary:
    out_dir: Path
    logs: list[Path] = field(default_factory=list)  # exported
    skipped: list[Path] = field(default_factory=list)  # annotation files met among the logs
    errors: list[LogReadError] = field(default_factory=list)  # unreadable logs (with skip_unreadable)
    sessions: int = 0
    turns: int = 0
    events: int = 0

    @property
    def files(self) -> list[Path]:
        return [self.out_dir / name for name in FILE_NAMES]

    def __str__(self) -> str:
        text = (f"exported {len(self.logs)} log(s): {self.sessions} session(s), {self.turns} turn(s), "
                f"{self.events} operation(s)/message(s)/event(s) to {self.out_dir}")
        if self.skipped:
            text += f"; skipped {len(self.skipped)} annotation file(s)"
        if self.errors:
            text += f"; {len(self.errors)} log(s) unreadable:"
            text += "".join(f"\n  {error}" for error in self.errors)
        return text


def export_csv(paths: list[Path], out_dir: Path, progress: Progress | None = None,
               skip_unreadable: bool = False, guard: OutputGuard | None = None) -> ExportSummary:
    """Write OUT_DIR/sessions.csv, turns.csv and events.csv for the logs at PATHS (files or folders).

    A log that cannot be read raises its LogReadError (and nothing is written),
    unless SKIP_UNREADABLE, in which case it is left out and its error listed in
    the summary. PROGRESS, if given, wraps the iteration over the log files.
    GUARD, if given, checks each file before it is replaced.
    """
    paths = [Path(p) for p in paths]
    out_dir = Path(out_dir)
    summary = ExportSummary(out_dir)
    root = common_root(paths) if paths else Path.cwd()
    candidates = expand_log_paths(paths)
    with StagedFolder(out_dir, guard) as staged, ExitStack() as streams:
        sessions, turns, events = (streams.enter_context(staged.open(name)) for name in FILE_NAMES)
        sessions.write(csv_line(SESSION_COLUMNS).encode("utf-8"))
        turns.write(csv_line(TURN_COLUMNS).encode("utf-8"))
        events.write(csv_line(EVENT_COLUMNS).encode("utf-8"))
        audio_by_folder: dict[Path, AudioCells] = {}
        session_ids: Counter[str] = Counter()  # sessions sharing an id are numbered across the logs
        items = candidates if progress is None else progress(candidates, total=len(candidates))
        for path in items:
            if root_tag(path) == ANNOTATION_ROOT:
                summary.skipped.append(path)
                continue
            try:
                doc = LogDocument.load(path)
            except LogReadError as error:
                if not skip_unreadable:
                    raise
                summary.errors.append(error)
                continue
            audio = audio_by_folder.get(doc.folder)
            if audio is None:
                audio = audio_by_folder[doc.folder] = AudioCells(doc.folder)
            _export_document(doc, _file_cell(path, root), audio, sessions, turns, events, summary, session_ids)
            summary.logs.append(path)
    return summary


def _export_document(doc: LogDocument, file_cell: str, audio: AudioCells, sessions: BinaryIO, turns: BinaryIO,
                     events: BinaryIO, summary: ExportSummary, session_ids: Counter[str]) -> None:
    with gc_paused():
        for session in doc.sessions:
            session_ids[strip_id(session.id)] += 1
            occurrence = session_ids[strip_id(session.id)]
            # One pass over the session: the events rows are formatted while the pass gathers the
            # turns' facts and the metrics, instead of in a second walk over the tree.
            walk = SessionPass(session)
            rows: list[str] = []
            summary.events += event_lines(file_cell, session, rows.append, walk)
            metrics = session_metrics(session, walk)
            lines, transcribed = turn_lines(file_cell, session, metrics, audio, walk.facts, occurrence)
            turns.write("".join(lines).encode("utf-8"))
            sessions.write(session_line(file_cell, session, metrics, transcribed, occurrence).encode("utf-8"))
            events.write("".join(rows).encode("utf-8"))
            summary.sessions += 1
            summary.turns += len(lines)


def _file_cell(path: Path, root: Path) -> str:
    """The log's path relative to the common root of the given paths, with / separators, as name_text writes it."""
    resolved = path.resolve()
    try:
        relative = resolved.relative_to(root)
    except ValueError:
        relative = resolved
    return text_cell(name_text(relative.as_posix()))


