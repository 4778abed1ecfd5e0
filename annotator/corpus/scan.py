"""Scanning a corpus into one summary row per session, for the session browser (Qt-free).

Each log is loaded, summarised (turns, duration, transcription progress, task
completion, validation findings per severity, the doubt of the most doubtful turn still to transcribe) and dropped before the next one
is read, so a corpus of any size scans in about the memory of its largest log.
A log that cannot be read becomes one row whose `problem` says why; it never
stops the scan.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import cast

from lxml import etree

from annotator.analysis.doubt import Doubt, cached_session_doubts
from annotator.analysis.validation import KEEP_PER_KIND, Finding, Severity, validate_document
from annotator.annotation_files.annotation_set import SessionRef
from annotator.corpus.parallel import FileMap, ProcessMap, available_cores, serial_map
from annotator.corpus.paths import expand_log_paths
from annotator.errors import AnnotatorError
from annotator.log.document import LogDocument
from annotator.log.elements import Session
from annotator.log.flags import session_reviewer, turn_flags, turn_time_spent
from annotator.log.turn_ids import occurrences, strip_id
from annotator.markers import MarkerSet, apply_markers, hits_per_session
from annotator.team.disagreement import team_facts
from annotator.team.files import HumanFileIndex, human_files_beside

Cancelled = Callable[[], bool]

# The core's views and the document refer to each other, so a summarised document is
# freed by the cycle collector, not at once. Collecting explicitly after this many bytes
# of logs keeps the garbage bounded without paying a full collection for every small file.
COLLECT_AFTER_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True)
class SessionSummary:
    """What the session browser shows of one session (or of one unreadable log)."""

    file: Path
    session_id: str
    session_index: int  # position of the session in its file; 0 for an unreadable log
    n_turns: int
    duration_s: float | None
    n_user_turns: int
    n_transcribed: int
    task_completion: str | None  # "1", "0" or None (not annotated)
    n_errors: int
    n_warnings: int
    n_quirks: int
    problem: str | None = None  # one-line reason the log could not be read; None when it was
    marker_counts: tuple[tuple[str, int], ...] = ()  # (marker, hits in this session) when markers were applied
    annotators: tuple[str, ...] = ()  # who holds work on it in their own file (team mode, annotator.team)
    disagreeing: bool = False  # two of them transcribed a turn, or its task completion, differently

    @property
    def double(self) -> bool:
        return len(self.annotators) > 1

    @property
    def annotators_text(self) -> str:
        """'', '1', '2 double', '2 double, disagreeing': how many annotators worked on the session."""
        if not self.double:
            return str(len(self.annotators)) if self.annotators else ""
        return f"{len(self.annotators)} double{', disagreeing' if self.disagreeing else ''}"

    doubt: float | None = None  # the doubt of the most doubtful user turn still to transcribe; None if none is
    n_flagged: int = 0  # turns with a flag (annotator.log.flags)
    reviewer: str | None = None  # who marked the session reviewed ('' unknown); None: not reviewed
    time_spent_s: float = 0.0  # the annotators' active time on its turns

    def marker_count(self, name: str) -> int | None:
        """How often marker NAME applied in this session; None when markers were not applied."""
        return dict(self.marker_counts).get(name)

    @property
    def is_readable(self) -> bool:
        return self.problem is None

    @property
    def n_untranscribed(self) -> int:
        return self.n_user_turns - self.n_transcribed

    @property
    def findings_text(self) -> str:
        """'2 errors, 1 warning', 'unreadable', or '' when only quirks (or nothing) were found."""
        if self.problem is not None:
            return "unreadable"
        parts = [_count(self.n_errors, "error"), _count(self.n_warnings, "warning")]
        return ", ".join(part for part in parts if part)


def _count(n: int, word: str) -> str:
    return "" if n == 0 else f"{n} {word}{'s' if n != 1 else ''}"


def unreadable_summary(path: Path, problem: str) -> SessionSummary:
    """The row standing for a log that could not be read."""
    return SessionSummary(path, "", 0, 0, None, 0, 0, None, 0, 0, 0, " ".join(problem.split()))


def summarize_session(
    session: Session, findings: Iterable[Finding] = (), marker_counts: tuple[tuple[str, int], ...] = ()
) -> SessionSummary:
    """One session's row; FINDINGS are those about it (see findings_by_session)."""
    users = session.user_turns
    doubts = cached_session_doubts(session)
    by_severity = {severity: 0 for severity in Severity}
    for finding in findings:
        by_severity[finding.severity] += finding.count  # a row may count findings not listed
    return SessionSummary(
        file=session.document.path,
        session_id=session.id,
        session_index=session.index,
        n_turns=len(session.turns),
        duration_s=session.duration,
        n_user_turns=len(users),
        n_transcribed=sum(1 for turn in users if turn.transcription is not None),
        task_completion=session.task_completion,
        n_errors=by_severity[Severity.ERROR],
        n_warnings=by_severity[Severity.WARNING],
        n_quirks=by_severity[Severity.QUIRK],
        marker_counts=marker_counts,
        doubt=max(
            # every user turn has a Doubt (session_doubts leaves only the others' None)
            (cast(Doubt, doubts[turn.index]).score for turn in users if turn.transcription is None),
            default=None,
        ),
        n_flagged=sum(1 for facts in session.turn_facts() if turn_flags(facts)),
        reviewer=session_reviewer(session.el),
        time_spent_s=sum(turn_time_spent(facts) for facts in session.turn_facts()),
    )


def findings_by_session(doc: LogDocument, findings: Iterable[Finding]) -> list[list[Finding]]:
    """FINDINGS split by the session they are about (one list per session of DOC).

    A finding about no session in particular (a load remark, the root element)
    concerns the whole file and is counted in every session of it.
    """
    index_of = {session.el: session.index for session in doc.sessions}
    split: list[list[Finding]] = [[] for _ in doc.sessions]
    for finding in findings:
        index = _session_index(finding.element, index_of)
        for target in range(len(split)) if index is None else (index,):
            split[target].append(finding)
    return split


def _session_index(el: etree._Element | None, index_of: dict[etree._Element, int]) -> int | None:
    while el is not None:
        if el in index_of:
            return index_of[el]
        el = el.getparent()
    return None


def summarize_document(
    doc: LogDocument, findings: list[Finding] | None = None, markers: MarkerSet | None = None
) -> list[SessionSummary]:
    """One row per session of DOC (validating it unless FINDINGS are given), e.g. to refresh
    the browser after the annotator saved; with MARKERS, each row counts their hits."""
    if findings is None:
        findings = validate_document(doc, keep=KEEP_PER_KIND)
    per_session = findings_by_session(doc, findings)
    counts = _marker_counts(doc, markers)
    return [summarize_session(session, mine, counts[session.index]) for session, mine in zip(doc.sessions, per_session)]


def _marker_counts(doc: LogDocument, markers: MarkerSet | None) -> list[tuple[tuple[str, int], ...]]:
    if markers is None:
        return [()] * len(doc.sessions)
    per_session = hits_per_session(apply_markers(markers, doc))
    return [
        tuple((name, per_session.get(session.index, {}).get(name, 0)) for name in markers.names)
        for session in doc.sessions
    ]


def summarise_log(path: Path, markers: MarkerSet | None = None) -> list[SessionSummary]:
    """The rows of one log file: one per session, or one problem row when it cannot be read.

    A module-level function of picklable arguments and results, so that a FileMap
    (annotator.corpus.parallel) may run it in another process or on another machine."""
    try:
        return summarize_document(LogDocument.load(path), markers=markers)
    except Exception as error:  # one odd file must not end a scan of thousands
        return [unreadable_summary(path, _reason(path, error))]


def summarise_log_in_subprocess(path: Path, markers: MarkerSet | None = None) -> list[SessionSummary]:
    """summarise_log in a child process that ends with this one: lxml holds the GIL while it
    validates (seconds on a 100 MB log), which would stall a GUI thread sharing the interpreter."""
    from annotator.analysis.child_processes import in_child_process

    rows = in_child_process(path, "read", summarise_log, Path(path), markers)
    return with_team_facts(rows, human_files_beside(path))


def with_team_facts(rows: list[SessionSummary], files: dict[str, Path]) -> list[SessionSummary]:
    """ROWS of one log with who annotated each session in their own file, and whether they disagree."""
    if not files:
        return rows
    facts = team_facts(files)
    ids = [strip_id(row.session_id) or None for row in rows]
    result = []
    for row, session_id, occurrence in zip(rows, ids, occurrences(ids)):
        found = facts.get(SessionRef(session_id, occurrence)) if session_id and row.is_readable else None
        result.append(
            row if found is None else replace(row, annotators=tuple(found.annotators), disagreeing=found.disagreeing)
        )
    return result


def _reason(path: Path, error: Exception) -> str:
    if isinstance(error, AnnotatorError):
        return str(error)
    if isinstance(error, OSError):
        return f"{path}: {error.strerror or error}"
    return f"{path}: could not be summarised ({type(error).__name__}: {error})"


def iter_corpus(
    folder_or_paths: Path | str | Iterable[Path | str],
    *,
    cancelled: Cancelled | None = None,
    markers: MarkerSet | None = None,
    file_map: FileMap = serial_map,
) -> Iterator[tuple[int, int, Path, list[SessionSummary]]]:
    """(files done, files in all, file, its rows) for each log in turn, the logs summarised by
    FILE_MAP (in this process unless told otherwise); stops early once CANCELLED()."""
    if isinstance(folder_or_paths, (str, os.PathLike)):
        folder_or_paths = [folder_or_paths]
    paths = expand_log_paths([Path(p) for p in folder_or_paths])
    if cancelled is not None and cancelled():
        return
    unreleased = 0
    human_files = HumanFileIndex()  # one listing per folder, however many logs it holds
    outcomes = file_map(partial(summarise_log, markers=markers), paths)
    for done, (path, outcome) in enumerate(outcomes, start=1):
        rows = outcome if isinstance(outcome, list) else [unreadable_summary(path, str(outcome))]
        rows = with_team_facts(rows, human_files.files_of(path))
        unreleased += _size(path)
        if unreleased >= COLLECT_AFTER_BYTES:
            if gc.isenabled():  # off in the GUI, whose own collector runs on its thread (gui/runtime/collector.py)
                gc.collect()
            unreleased = 0
        yield done, len(paths), path, rows
        if cancelled is not None and cancelled():
            return


BACKGROUND_NICENESS = 10  # of 19: the window first, the scan in whatever time is left


def iter_corpus_in_children(
    paths: Iterable[Path], *, cancelled: Cancelled, markers: MarkerSet | None = None
) -> Iterator[tuple[int, int, Path, list[SessionSummary]]]:
    """iter_corpus for a window: the logs are read in child processes, one per core even on one core,
    because lxml holds the GIL while it validates, which in a thread of the window's process would
    stall the window. The first log is read here while they start, so the first rows come at once.
    The children run at a lower priority (BACKGROUND_NICENESS): on two busy cores the window's own
    work (rows arriving, painting) would otherwise wait behind them for a time slice.
    Once CANCELLED() the files not yet started are dropped and the children ended."""
    in_children = ProcessMap(available_cores(), first_here=True, cancelled=cancelled, niceness=BACKGROUND_NICENESS)
    return iter_corpus(paths, cancelled=cancelled, markers=markers, file_map=in_children)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def scan_corpus(
    folder_or_paths: Path | str | Iterable[Path | str], *, markers: MarkerSet | None = None
) -> list[SessionSummary]:
    """Every session of every log in FOLDER_OR_PATHS (a folder, a log, or a list of them), in file order.

    iter_corpus gives the same rows file by file, for a caller that shows progress or may cancel.
    """
    return [row for _done, _total, _path, rows in iter_corpus(folder_or_paths, markers=markers) for row in rows]
