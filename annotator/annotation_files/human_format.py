"""MITRE human-annotation files (version 2), the annotations kept beside a log:

    <GC_LOG_ANNOTATIONS annot_version="2">
      <GC_SESSION id="..." stime="..." etime="...">
        <GC_ANNOT type_task_completion="1"/>
        <GC_DATA type_utt_text="transcription" dtype="string" turnid="1" tidx="12">text</GC_DATA>
      </GC_SESSION>
    </GC_LOG_ANNOTATIONS>

MITRE's own files spell the session attribute `task_completion`; both
spellings are read, the DTD's `type_task_completion` is written. When
sessions share an id, `session_occurrence="2"` on GC_SESSION says which of
them is meant (the second, counting the sessions of the logs in order), and
`turn_occurrence` on a GC_DATA does the same for turns sharing an id; both
are written only where ids repeat, so other files stay MITRE's format.

Our extension (docs/mitre-human-file.md): a turn's reference concepts are a GC_DATA of
type_utt_text="concepts" with the same turnid (and turn_occurrence) holding the GC_FRAME as the
log stores it (annotator.log.concepts), after the turn's transcription:

        <GC_DATA key=":concepts" type_utt_text="concepts" turnid="6"><GC_FRAME name="give_source">
          <GC_DATA key=":source" dtype="string">Zürich</GC_DATA></GC_FRAME></GC_DATA>

A turn's flags, comment and time spent (annotator.log.flags) are GC_DATA of type_utt_text "flags",
"comment" and "time_spent" with its turnid, holding the text the log stores, and a session's review
is a GC_DATA of type_utt_text="reviewed" in the GC_SESSION naming the reviewer:

        <GC_DATA key=":flags" dtype="string" type_utt_text="flags" turnid="6">inaudible noise</GC_DATA>
        <GC_DATA key=":reviewed" type_utt_text="reviewed" dtype="string">alice</GC_DATA>

The slots inside the frame are not transcriptions; MITRE's readers, which look for
type_utt_text="transcription", pass the element by. A team
member's file (annotator.team) also says who wrote it, `annotator="NAME"` on the
root, and when each value last changed, `changed="2026-11-25T00:50:12Z"` (UTC) on
its GC_ANNOT or GC_DATA; both are read back by human_file_content and ignored by
everything reading only the annotations. Reading
is the log reader's (annotator.reading.loading): regular files only, no entities, a
named DTD never read, no network, every encoding.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from lxml import etree

from annotator.annotation_files.annotation_set import AnnotationSet, SessionRef, TurnRef, turn_refs_of
from annotator.errors import AnnotationFileError, LogReadError
from annotator.input_files import check_regular_file, read_problem
from annotator.log.concepts import CONCEPTS_UTT_TEXT, concepts_element, concepts_in
from annotator.log.flags import REVIEWED, REVIEWED_KEY, TURN_NOTES, note_element
from annotator.log.turn_ids import occurrence_number, strip_id, turn_key
from annotator.reading.loading import parse_log_file
from annotator.reading.lxml_types import update_attributes
from annotator.writes.atomic import write_atomic

if TYPE_CHECKING:
    from annotator.log.elements import Session, Turn

ROOT_TAG = "GC_LOG_ANNOTATIONS"
SESSION_OCCURRENCE = "session_occurrence"
TURN_OCCURRENCE = "turn_occurrence"
ANNOTATOR = "annotator"
CHANGED = "changed"
ANNOT_VERSION = "2"
_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'


def human_path_for(log_path: str | Path) -> Path:
    """X-hublog.xml -> X-human.xml; any other X.xml -> X-human.xml."""
    log_path = Path(log_path)
    name = log_path.name
    for suffix in ("-hublog.xml", ".xml"):
        if name.lower().endswith(suffix):
            return log_path.with_name(name[: -len(suffix)] + "-human.xml")
    return log_path.with_name(name + "-human.xml")


def parse_annotation_xml(path: str | Path) -> etree._ElementTree:
    """Parse PATH as logs are read; problems become AnnotationFileError naming file and line."""
    path = Path(path)
    try:
        check_regular_file(path)
    except OSError as error:
        raise AnnotationFileError(f"{path}: {read_problem(error)}") from None
    try:
        return parse_log_file(path).tree
    except LogReadError as error:
        raise AnnotationFileError(str(error)) from None


Changed = Mapping["SessionRef | TurnRef", str]  # when each value last changed (ISO 8601, UTC)


@dataclass
class HumanFileContent:
    """All a human-annotation file says: its annotations, who wrote them (team files) and when each changed."""

    annotations: AnnotationSet = field(default_factory=AnnotationSet)
    annotator: str | None = None
    changed: dict[SessionRef | TurnRef, str] = field(default_factory=dict)


def read_human_file(path: str | Path) -> AnnotationSet:
    return annotations_from_human_tree(parse_annotation_xml(path), path)


def human_file_content(path: str | Path) -> HumanFileContent:
    """The annotations of the file at PATH with its annotator and change times (docs/team.md)."""
    return _content_of_tree(parse_annotation_xml(path), path)


def annotations_from_human_tree(tree: etree._ElementTree, path: str | Path) -> AnnotationSet:
    """The transcriptions and task completion values of a parsed human-annotation file."""
    return _content_of_tree(tree, path).annotations


def _content_of_tree(tree: etree._ElementTree, path: str | Path) -> HumanFileContent:
    root = tree.getroot()
    if root.tag != ROOT_TAG:
        raise AnnotationFileError(
            f"{path}: not a MITRE human-annotation file: the root is <{root.tag}>, expected <{ROOT_TAG}>"
        )
    content = HumanFileContent(annotator=root.get(ANNOTATOR))
    for session in root.iter("GC_SESSION"):
        try:
            occurrence = occurrence_number(session.get(SESSION_OCCURRENCE), SESSION_OCCURRENCE)
        except ValueError as error:
            raise AnnotationFileError(f"{path}:{session.sourceline}: {error}") from None
        for el in session.iter("GC_ANNOT", "GC_DATA"):
            parent = el.getparent()
            assert parent is not None  # below the GC_SESSION
            if parent.tag in _SLOT_HOLDERS:
                continue  # a slot of a concept frame, read with its frame
            try:
                # A missing id reads as "", which the add_ methods refuse as they refuse a blank one.
                ref = _read_element(content.annotations, SessionRef(session.get("id") or "", occurrence), el)
            except ValueError as error:
                raise AnnotationFileError(f"{path}:{el.sourceline}: {error}") from None
            changed = el.get(CHANGED)
            if ref is not None and changed:
                content.changed[ref] = changed
    return content


def _read_element(annotations: AnnotationSet, session: SessionRef, el: etree._Element) -> SessionRef | TurnRef | None:
    """Record EL's annotation; the ref it is about (None: it holds none)."""
    if el.tag == "GC_ANNOT":
        value = el.get("type_task_completion", el.get("task_completion"))
        if value is not None:
            annotations.add_task_completion(session.id, value, session_occurrence=session.occurrence)
            return SessionRef(strip_id(session.id), session.occurrence)
        return None
    kind = el.get("type_utt_text", "transcription")
    if kind == REVIEWED:
        annotations.add_reviewed(session.id, el.text or "", session_occurrence=session.occurrence)
        return SessionRef(strip_id(session.id), session.occurrence)
    if kind in TURN_NOTES:
        turnid, which = _turn_of(el, f"a {kind}")
        turn_occurrence = occurrence_number(which, TURN_OCCURRENCE)
        annotations.add_note(
            session.id, turnid, kind, el.text, session_occurrence=session.occurrence, turn_occurrence=turn_occurrence
        )
        return None  # the turn's change time is its transcription's
    if kind == CONCEPTS_UTT_TEXT:
        concepts = concepts_in(el)
        turnid, which = _turn_of(el, "concepts")
        turn_occurrence = occurrence_number(which, TURN_OCCURRENCE)
        annotations.add_concepts(
            session.id, turnid, concepts, session_occurrence=session.occurrence, turn_occurrence=turn_occurrence
        )
    elif kind == "transcription" and (el.text or "").strip():
        turnid, which = _turn_of(el, "a transcription")
        turn_occurrence = occurrence_number(which, TURN_OCCURRENCE)
        annotations.add_transcription(
            session.id, turnid, el.text, session_occurrence=session.occurrence, turn_occurrence=turn_occurrence
        )
    else:
        return None
    key = turn_key(turnid)
    assert key is not None  # the add_ methods refuse a turn id without a key
    return TurnRef(SessionRef(strip_id(session.id), session.occurrence), key, turn_occurrence)


def _turn_of(el: etree._Element, what: str) -> tuple[str, str | None]:
    """The turnid and turn_occurrence of a GC_DATA, or of MITRE's <GC_ANNOT turnid=...> around it."""
    parent = el.getparent()
    assert parent is not None  # a GC_DATA below its GC_SESSION
    wrapper = parent if parent.tag == "GC_ANNOT" else None
    turnid = el.get("turnid") or (wrapper.get("turnid") if wrapper is not None else None)
    if not turnid:
        raise ValueError(f"{what} without a turnid")
    return turnid, el.get(TURN_OCCURRENCE) or (wrapper.get(TURN_OCCURRENCE) if wrapper is not None else None)


def write_human_file(
    path: str | Path,
    annotations: AnnotationSet,
    sessions: Iterable[Session] = (),
    *,
    annotator: str | None = None,
    changed: Changed | None = None,
) -> None:
    """Write ANNOTATIONS as one human-annotation file (UTF-8); SESSIONS give stime, etime and tidx;
    a team member's file names its ANNOTATOR and when each value CHANGED."""
    write_atomic(path, human_file_bytes(path, annotations, sessions, annotator=annotator, changed=changed))


def human_file_bytes(
    path: str | Path,
    annotations: AnnotationSet,
    sessions: Iterable[Session] = (),
    *,
    annotator: str | None = None,
    changed: Changed | None = None,
) -> bytes:
    """The bytes write_human_file writes to PATH (named in the error when a text cannot be written)."""
    root = etree.Element(ROOT_TAG, annot_version=ANNOT_VERSION)
    if annotator is not None:
        root.set(ANNOTATOR, annotator)
    try:
        for session_ref, session, refs in annotations.in_order(sessions):
            _add_session(root, annotations, session_ref, session, refs, changed or {})
    except ValueError as error:  # characters XML cannot hold
        raise AnnotationFileError(f"{path}: cannot write: {error}") from None
    etree.indent(root, space="  ")
    return _DECLARATION + etree.tostring(root, encoding="UTF-8") + b"\n"


def _add_session(
    root: etree._Element,
    annotations: AnnotationSet,
    session_ref: SessionRef,
    session: Session | None,
    refs: list[TurnRef],
    changed: Changed,
) -> None:
    attributes = {"id": session_ref.id}
    if session_ref.occurrence is not None:
        attributes[SESSION_OCCURRENCE] = str(session_ref.occurrence)
    if session is not None:
        attributes.update({name: value for name in ("stime", "etime") if (value := session.get(name)) is not None})
    session_el = etree.SubElement(root, "GC_SESSION", attributes)
    if session_ref in annotations.task_completion:
        annot = etree.SubElement(session_el, "GC_ANNOT", type_task_completion=annotations.task_completion[session_ref])
        _stamp(annot, changed.get(session_ref))
    if session_ref in annotations.reviewed:
        review = etree.SubElement(session_el, "GC_DATA", key=REVIEWED_KEY, type_utt_text=REVIEWED, dtype="string")
        review.text = annotations.reviewed[session_ref] or None
    turns = dict(turn_refs_of(session_ref, session)) if session is not None else {}
    for ref in refs:
        which = {} if ref.occurrence is None else {TURN_OCCURRENCE: str(ref.occurrence)}
        if ref in annotations.transcriptions:
            attributes = {
                "type_utt_text": "transcription",
                "dtype": "string",
                "turnid": annotations.turn_id(ref),
                **which,
            }
            index = turns.get(ref)
            tidx = turn_tidx(session.turns[index]) if index is not None and session is not None else None
            if tidx:
                attributes["tidx"] = tidx
            data = etree.SubElement(session_el, "GC_DATA", attributes)
            data.text = annotations.transcriptions[ref]
            _stamp(data, changed.get(ref))
        if ref in annotations.concepts:
            frame = concepts_element(annotations.concepts[ref])
            update_attributes(frame, {"turnid": annotations.turn_id(ref), **which})
            session_el.append(frame)
            _stamp(frame, changed.get(ref))
        for kind, text in annotations.notes.get(ref, {}).items():
            note = note_element(kind, text)
            update_attributes(note, {"type_utt_text": kind, "turnid": annotations.turn_id(ref), **which})
            session_el.append(note)


_SLOT_HOLDERS = ("GC_FRAME", "GC_LIST")


def _stamp(el: etree._Element, when: str | None) -> None:
    if when is not None:
        el.set(CHANGED, when)


def turn_tidx(turn: Turn) -> str | None:
    """The turn's transcription annotation's tidx, else that of its first activity with one."""
    annotation = turn.transcription_annotation()
    if annotation is not None and annotation.get("tidx"):
        return annotation.get("tidx")
    # A Turn's activities are operation, message and event views; fold's ExtractedTurn (which extract passes
    # here as a turn) lists itself: each has a tidx.
    activities = cast("list[_WithTidx]", turn.activities)
    return next((activity.tidx for activity in activities if activity.tidx), None)


class _WithTidx(Protocol):
    @property
    def tidx(self) -> str | None: ...
