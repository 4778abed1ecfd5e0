"""The only code that writes GC_ANNOT: set or clear a turn's transcription and a
session's task completion, and announce each change to the document's listeners.

Placement keeps folding reversible: a new GC_ANNOT becomes the first child of
its GC_TURN (transcription) or GC_SESSION (task completion) and takes as its
tail the whitespace that preceded the old first child, so removing it again
restores the parent byte for byte. An existing annotation is updated in place
rather than duplicated.
"""

from __future__ import annotations

from lxml import etree

from annotator.errors import AnnotationError
from annotator.log.document import AnnotationChange
from annotator.log.elements import TRANSCRIPTION_KEY, AnnotationView, Session, Turn
from annotator.log.text import clean_text, first_not_xml

TASK_COMPLETED = "1"
TASK_NOT_COMPLETED = "0"
TASK_COMPLETION_VALUES = (TASK_COMPLETED, TASK_NOT_COMPLETED)


def set_transcription(turn: Turn, text: str | None) -> bool:
    """Store TEXT as the turn's transcription (None or blank removes it). True if anything changed."""
    new = clean_text(text) or None
    old = turn.transcription
    if new == old:
        return False
    bad = first_not_xml(new) if new is not None else None
    if bad is not None:  # refused before the tree is touched: no empty GC_ANNOT is left behind
        raise AnnotationError(f"turn {turn.id}: the transcription holds the control character U+{ord(bad):04X}, "
                              "which XML cannot store")
    annotation = turn.transcription_annotation()
    if annotation is not None and annotation.el.getparent() is not turn.el:
        _remove_transcription(annotation)  # a session-level one moves into its turn
        annotation = None
    if new is None:
        if annotation is not None:
            _remove_transcription(annotation)
    else:
        if annotation is None:
            annotation = AnnotationView(_new_annotation(turn.el, {"turnid": turn.id}), turn.unit)
        data = annotation.transcription_data()
        if data is None:
            data_el = etree.SubElement(
                annotation.el, "GC_DATA",
                {"key": TRANSCRIPTION_KEY, "type_utt_text": "transcription", "dtype": "string"},
            )
            _indent_only_child(annotation.el, data_el)
        else:
            data_el = data.el
        _set_text(data_el, new)
    turn.session.document.announce(AnnotationChange(turn.session, turn, "transcription", old, new))
    return True


def set_task_completion(session: Session, value: str | None, *, restoring: bool = False) -> bool:
    """Set the session's type_task_completion to "1" (completed) or "0" (not completed); None
    clears it. True if changed. Any other value raises AnnotationError, unless RESTORING puts
    back a value the log itself held (undo), which the app shows but never offers."""
    new = None if value is None or not str(value).strip() else str(value).strip()
    if new is not None and restoring:
        new = str(value)  # exactly as the log had it
    elif new is not None:
        check_task_completion(new)
    old = session.task_completion
    if new == old:
        return False
    annotation = session.task_completion_annotation()
    if new is None:
        if annotation is not None:
            for name in ("type_task_completion", "task_completion"):
                annotation.el.attrib.pop(name, None)
            if not annotation.el.attrib and len(annotation.el) == 0:
                _remove(annotation.el)
    elif annotation is None:
        _new_annotation(session.el, {"type_task_completion": new})
    else:
        annotation.el.attrib.pop("task_completion", None)  # MITRE's spelling; the DTD knows only type_...
        _set_attribute(annotation.el, "type_task_completion", new)
    session.document.announce(AnnotationChange(session, None, "task_completion", old, new))
    return True


def task_completion_problem(value: str) -> str | None:
    """Why VALUE is no task completion value (a phrase), or None when it is "1" or "0"."""
    if value in TASK_COMPLETION_VALUES:
        return None
    return f"{value!r} is not 1 (completed) or 0 (not completed)"


def check_task_completion(value: str) -> None:
    """Raise AnnotationError unless VALUE is one of TASK_COMPLETION_VALUES."""
    problem = task_completion_problem(value)
    if problem is not None:
        raise AnnotationError(f"task completion {problem}")


def _new_annotation(parent: etree._Element, attributes: dict[str, str]) -> etree._Element:
    annotation = etree.Element("GC_ANNOT", attributes)
    leading = parent.text
    if leading is not None and not leading.strip():
        annotation.tail = leading
    parent.insert(0, annotation)
    return annotation


def _indent_only_child(parent: etree._Element, child: etree._Element) -> None:
    indent = parent.tail if parent.tail is not None and not parent.tail.strip() else None
    if indent and len(parent) == 1:
        parent.text = indent + "  "
        child.tail = indent


def _remove_transcription(annotation: AnnotationView) -> None:
    data = annotation.transcription_data()
    if data is not None:
        _remove(data.el)
    if len(annotation.el) == 0 and annotation.task_completion is None:
        _remove(annotation.el)
    elif len(annotation.el) == 0:
        annotation.el.text = None


def _remove(el: etree._Element) -> None:
    el.getparent().remove(el)  # lxml removes the tail with the element


def _set_text(el: etree._Element, text: str) -> None:
    try:
        el.text = text
    except ValueError as error:
        raise AnnotationError(f"cannot store {text[:40]!r}: {error}") from None


def _set_attribute(el: etree._Element, name: str, value: str) -> None:
    try:
        el.set(name, value)
    except ValueError as error:
        raise AnnotationError(f"cannot store {value[:40]!r}: {error}") from None
