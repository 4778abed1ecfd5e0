"""Fold annotations into logs as GC_ANNOT, extract them back, and read/write annotation files.

Folding is all or nothing: every session and turn an annotation names is
looked up, and every text checked, before the first change, so an
annotation file that does not fit leaves the logs untouched. Changes go
through annotator.log.annotations only, the sole writer of GC_ANNOT.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from annotator.errors import AnnotationFileError
from annotator.input_files import open_input_file, read_problem
from annotator.log.annotation_csv import read_annotation_csv, write_annotation_csv
from annotator.log.annotation_set import AnnotationSet
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from annotator.log.human_format import (
    annotations_from_human_tree,
    human_path_for,
    parse_annotation_xml,
    write_human_file,
)
from annotator.log.loading import make_parser
from annotator.log.views import Session, Turn

# Characters XML 1.0 cannot hold (lxml refuses them); checked before folding starts.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_SNIFF_BYTES = 4096


def extract(doc: LogDocument) -> AnnotationSet:
    """The transcriptions and task completion values the log holds as GC_ANNOT."""
    annotations = AnnotationSet()
    seen: set[str] = set()
    for session in doc.sessions:
        session_id = session.id.strip()  # AnnotationSet keys are stripped ids
        if not session_id or session_id in seen:
            continue  # a repeated session id: the first one counts; one without id cannot be named
        seen.add(session_id)
        if session.task_completion is not None:
            annotations.add_task_completion(session_id, session.task_completion)
        for turn in session.turns:
            if turn.transcription and turn.key is not None and (session_id, turn.key) not in annotations.transcriptions:
                annotations.add_transcription(session_id, turn.id, turn.transcription)
    return annotations


def fold(doc: LogDocument, annotations: AnnotationSet) -> int:
    """Write ANNOTATIONS into DOC; the number of values changed. Raises AnnotationFileError, changing nothing."""
    try:
        plan = _plan([doc], annotations)
    except AnnotationFileError as error:
        raise AnnotationFileError(f"{doc.path}: {error}") from None
    return plan.apply()


def fold_many(docs: Iterable[LogDocument], annotations: AnnotationSet) -> int:
    """Fold into several logs at once; annotations naming sessions in none of them are an error, nothing changes."""
    return _plan(list(docs), annotations).apply()


@dataclass
class _Plan:
    transcriptions: list[tuple[Turn, str]] = field(default_factory=list)
    task_completion: list[tuple[Session, str]] = field(default_factory=list)

    def apply(self) -> int:
        changes = sum(set_task_completion(session, value) for session, value in self.task_completion)
        return changes + sum(set_transcription(turn, text) for turn, text in self.transcriptions)


def _plan(docs: list[LogDocument], annotations: AnnotationSet) -> _Plan:
    """Resolve every annotation to its session or turn, or raise listing all that do not fit."""
    sessions: dict[str, list[Session]] = {}
    for doc in docs:
        for session in doc.sessions:
            sessions.setdefault(session.id, []).append(session)
    plan = _Plan()
    unknown_turns: list[str] = []
    unwritable: list[str] = []
    for session_id, value in annotations.task_completion.items():
        plan.task_completion += [(session, value) for session in sessions.get(session_id, [])]
        if _NOT_XML.search(value):
            unwritable.append(f"session {session_id}")
    for ref in (ref for _, _, refs in annotations.in_order() for ref in refs):
        text = annotations.transcriptions[ref]
        if _NOT_XML.search(text):
            unwritable.append(annotations.describe_turn(ref))
        for session in sessions.get(ref[0], []):
            turn = session.turn(ref[1])
            if turn is None:
                unknown_turns.append(annotations.describe_turn(ref))
            else:
                plan.transcriptions.append((turn, text))
    unknown_sessions = sorted(annotations.session_ids - sessions.keys())
    problems = []
    if unknown_sessions:
        problems.append("unknown session ids: " + ", ".join(unknown_sessions))
    if unknown_turns:
        problems.append("unknown turns: " + ", ".join(dict.fromkeys(unknown_turns)))
    if unwritable:
        problems.append("characters XML cannot hold in: " + ", ".join(unwritable))
    if problems:
        raise AnnotationFileError("; ".join(problems) + "; nothing was folded")
    return plan


def read_annotations(path: str | Path) -> AnnotationSet:
    """Read an annotation file, recognised by its content: MITRE human XML, an annotated log, or a CSV."""
    path = Path(path)
    if path.suffix.lower() != ".csv" and _looks_like_xml(path):
        tree = parse_annotation_xml(path)
        if tree.getroot().tag in ("GC_LOG", "GC_SESSION"):
            return extract(LogDocument.load(path))  # an annotated log lends its annotations
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
    """The MITRE `*-human.xml` beside a log (`X-hublog.xml` -> `X-human.xml`), if there is one."""
    candidate = human_path_for(log_path)
    return candidate if candidate.is_file() and candidate != Path(log_path) else None


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
        raise AnnotationFileError(f"{path}: annotations are written as .csv or .xml, not {suffix or 'a file without extension'}")


def canonical_without_annotations(xml_bytes: bytes) -> bytes:
    """C14N 2.0 of a log with every GC_ANNOT (and its tail) removed: equal for a log before and after folding."""
    root = etree.fromstring(xml_bytes, make_parser())
    for annotation in list(root.iter("GC_ANNOT")):
        parent = annotation.getparent()
        if parent is not None:
            parent.remove(annotation)  # lxml removes the tail with the element
    return etree.canonicalize(root.getroottree(), with_comments=True).encode("utf-8")
