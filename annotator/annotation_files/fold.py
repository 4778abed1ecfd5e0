"""Fold annotations into logs as GC_ANNOT, extract them back, and read/write annotation files.

Folding is all or nothing: every session and turn an annotation names is
looked up, and every text checked, before the first change, so an
annotation file that does not fit leaves the logs untouched. Changes go
through annotator.log.annotations only, the sole writer of GC_ANNOT.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from annotator.annotation_files.annotation_csv import read_annotation_csv, write_annotation_csv
from annotator.annotation_files.annotation_set import AnnotationSet, session_refs_of, turn_refs_of
from annotator.annotation_files.fold_plan import plan_fold
from annotator.annotation_files.human_format import (
    annotations_from_human_tree,
    human_path_for,
    parse_annotation_xml,
    turn_tidx,
    write_human_file,
)
from annotator.annotation_files.row_logs import check_rows_name_their_logs
from annotator.errors import AnnotationFileError
from annotator.input_files import kind_words, open_input_file, read_problem
from annotator.log.concepts import Concepts, reference_concepts
from annotator.log.document import LogDocument
from annotator.log.elements import Turn
from annotator.log.flags import TURN_NOTES, note_value, session_reviewer
from annotator.log.turn_ids import TurnKey
from annotator.reading.loading import make_parser

_SNIFF_BYTES = 4096


def extract(doc: LogDocument) -> AnnotationSet:
    """The transcriptions, reference concepts, notes (flags, comment, time spent), reviews and task completion
    values the log holds as GC_ANNOT."""
    return extract_all([doc])


def extract_all(docs: Iterable[LogDocument]) -> AnnotationSet:
    """The annotations of several logs; sessions sharing an id (in one log or across them, in the
    order given) are told apart by their occurrence, and so are turns sharing an id in a session."""
    annotations = AnnotationSet()
    sessions = session_refs_of([session for doc in docs for session in doc.sessions])
    for session_ref, session in sessions.items():
        if session.task_completion is not None:
            annotations.add_task_completion(
                session_ref.id, session.task_completion, session_occurrence=session_ref.occurrence
            )
        reviewer = session.reviewer if isinstance(session, ExtractedSession) else session_reviewer(session.el)
        annotations.add_reviewed(session_ref.id, reviewer, session_occurrence=session_ref.occurrence)
        for turn_ref, index in turn_refs_of(session_ref, session):
            turn = session.turns[index]
            if turn.transcription:
                annotations.add_transcription(
                    session_ref.id,
                    turn.id,
                    turn.transcription,
                    session_occurrence=session_ref.occurrence,
                    turn_occurrence=turn_ref.occurrence,
                )
            concepts = turn.concepts if isinstance(turn, ExtractedTurn) else reference_concepts(turn.facts())
            annotations.add_concepts(
                session_ref.id,
                turn.id,
                concepts,
                session_occurrence=session_ref.occurrence,
                turn_occurrence=turn_ref.occurrence,
            )
            for kind, text in turn.notes if isinstance(turn, ExtractedTurn) else turn_notes(turn):
                annotations.add_note(
                    session_ref.id,
                    turn.id,
                    kind,
                    text,
                    session_occurrence=session_ref.occurrence,
                    turn_occurrence=turn_ref.occurrence,
                )
    return annotations


def turn_notes(turn: Turn) -> tuple[tuple[str, str], ...]:
    """(kind, stored text) of the turn's flags, comment and time spent that it has."""
    facts = turn.facts()
    if facts.notes is None:
        return ()
    return tuple((kind, text) for kind in TURN_NOTES if (text := note_value(facts, kind)) is not None)


@dataclass(frozen=True)
class ExtractedTurn:
    """What extracting and writing annotations read of a turn, as plain values."""

    id: str
    key: TurnKey | None
    transcription: str | None
    tidx: str | None  # the tidx a human-annotation file gives its transcription (human_format)
    concepts: Concepts | None = None  # the reference concepts
    notes: tuple[tuple[str, str], ...] = ()  # (kind, stored text): flags, comment, time spent

    def transcription_annotation(self) -> None:
        return None  # its tidx is in activities, where human_format looks next

    @property
    def activities(self) -> tuple[ExtractedTurn, ...]:
        return (self,) if self.tidx else ()


@dataclass(frozen=True)
class ExtractedLog:
    """A log as extract_all and write_annotations read it: its path, its sessions' ids, times, task
    completion and turns, as plain values that another process can send back (the per-file work of
    `annotator extract` over a corpus); the document itself is freed in the worker."""

    path: Path
    sessions: tuple[ExtractedSession, ...]


@dataclass(frozen=True)
class ExtractedSession:
    id: str
    task_completion: str | None
    times: dict[str, str]  # stime and etime as written
    turns: tuple[ExtractedTurn, ...]
    log_path: Path
    reviewer: str | None = None  # who reviewed it ('' unknown); None: not reviewed

    def get(self, name: str) -> str | None:
        return self.times.get(name)

    @property
    def document(self) -> ExtractedLog:
        return ExtractedLog(self.log_path, ())


def extracted_log(path: Path) -> ExtractedLog:
    """The log at PATH as an ExtractedLog (picklable per-file work, annotator.corpus.parallel)."""
    doc = LogDocument.load(path)
    sessions = tuple(
        ExtractedSession(
            session.id,
            session.task_completion,
            {name: value for name in ("stime", "etime") if (value := session.get(name)) is not None},
            tuple(
                ExtractedTurn(
                    turn.id,
                    turn.key,
                    turn.transcription,
                    turn_tidx(turn),
                    reference_concepts(turn.facts()),
                    turn_notes(turn),
                )
                for turn in session.turns
            ),
            doc.path,
            session_reviewer(session.el),
        )
        for session in doc.sessions
    )
    return ExtractedLog(doc.path, sessions)


def fold(doc: LogDocument, annotations: AnnotationSet) -> int:
    """Write ANNOTATIONS into DOC; the number of values changed. Raises AnnotationFileError, changing nothing."""
    check_rows_name_their_logs(annotations, [doc])
    try:
        plan = plan_fold([doc], annotations)
    except AnnotationFileError as error:
        raise AnnotationFileError(f"{doc.path}: {error}") from None
    return plan.apply()


def fold_many(docs: Iterable[LogDocument], annotations: AnnotationSet) -> int:
    """Fold into several logs at once; annotations naming sessions in none of them, or rows whose file
    column names another log (annotator.annotation_files.row_logs), are an error, nothing changes."""
    docs = list(docs)
    check_rows_name_their_logs(annotations, docs)
    return plan_fold(docs, annotations).apply()


def fold_human_files_beside(docs: list[LogDocument]) -> tuple[int, list[Path]]:
    """Fold into each log the MITRE `*-human.xml` beside it (occurrences count within that log):
    (values changed, files read). All files are checked before the first change."""
    plans, sources = [], []
    for doc in docs:
        source = default_annotation_file(doc.path)
        if source is None:
            continue
        try:
            plans.append(plan_fold([doc], read_annotations(source)))
        except AnnotationFileError as error:
            raise AnnotationFileError(f"{source}: {error}") from None
        sources.append(source)
    return sum(plan.apply() for plan in plans), sources


def read_annotations(path: str | Path) -> AnnotationSet:
    """Read an annotation file, recognised by its content: MITRE human XML, an annotated log, or a CSV."""
    path = Path(path)
    if path.suffix.lower() != ".csv" and _looks_like_xml(path):
        tree = parse_annotation_xml(path)
        if tree.getroot().tag in ("GC_LOG", "GC_SESSION"):
            with LogDocument.load(path) as doc:  # an annotated log lends its annotations
                return extract(doc)
        return annotations_from_human_tree(tree, path)
    return read_annotation_csv(path)


def _looks_like_xml(path: Path) -> bool:
    try:
        with open_input_file(path) as stream:
            head = stream.read(_SNIFF_BYTES)
    except OSError as error:
        raise AnnotationFileError(f"{path}: {read_problem(error)}") from None
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True  # UTF-16: never one of our CSVs
    return head.removeprefix(b"\xef\xbb\xbf").lstrip().startswith(b"<")


def default_annotation_file(log_path: str | Path) -> Path | None:
    """The MITRE `*-human.xml` beside a log (`X-hublog.xml` -> `X-human.xml`), if there is one. One that is
    there but is no regular file (a FIFO, a folder) is an AnnotationFileError saying what it is: taken for
    absent, the fold would say there is none; opened, a FIFO would block the fold."""
    candidate = human_path_for(log_path)
    if candidate == Path(log_path):
        return None
    try:
        mode = os.stat(candidate).st_mode  # stat, never open: a FIFO must not be opened
    except FileNotFoundError:
        return None
    except OSError as error:
        raise AnnotationFileError(f"{candidate}: {read_problem(error)}") from None
    problem = kind_words(mode)
    if problem is not None:
        raise AnnotationFileError(f"{candidate}: {problem}; nothing was folded")
    return candidate


def write_annotations(path: str | Path, annotations: AnnotationSet, docs: Iterable[LogDocument] = ()) -> None:
    """Write ANNOTATIONS as our CSV (.csv) or one MITRE human-annotation file (.xml)."""
    path = Path(path)
    sessions = [session for doc in docs for session in doc.sessions]
    suffix = path.suffix.lower()
    if suffix == ".csv":
        write_annotation_csv(path, annotations, sessions)
    elif suffix == ".xml":
        write_human_file(path, annotations, sessions)
    else:
        raise AnnotationFileError(
            f"{path}: annotations are written as .csv or .xml, not {suffix or 'a file without extension'}"
        )


def canonical_without_annotations(xml_bytes: bytes) -> bytes:
    """C14N 2.0 of a log with every GC_ANNOT (and its tail) removed: equal for a log before and after folding."""
    root = etree.fromstring(xml_bytes, make_parser())
    for annotation in list(root.iter("GC_ANNOT")):
        parent = annotation.getparent()
        if parent is not None:
            parent.remove(annotation)  # lxml removes the tail with the element
    return etree.canonicalize(root.getroottree(), with_comments=True).encode("utf-8")
