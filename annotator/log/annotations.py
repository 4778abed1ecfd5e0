"""The only code that writes GC_ANNOT: set or clear a turn's transcription, its reference
concepts, its flags, comment and time spent (annotator.log.flags), a session's task completion
and its review, and announce each change to the document's listeners.

Placement keeps folding reversible: a new GC_ANNOT becomes the first child of
its GC_TURN (transcription) or GC_SESSION (task completion) and takes as its
tail the whitespace that preceded the old first child, so removing it again
restores the parent byte for byte. An existing annotation is updated in place
rather than duplicated.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from lxml import etree

from annotator.errors import AnnotationError
from annotator.log.concepts import Concepts, concepts_data, concepts_element, reference_concepts
from annotator.log.document import AnnotationChange
from annotator.log.elements import TRANSCRIPTION_KEY, AnnotationView, Session, Turn
from annotator.log.flags import (
    REVIEWED,
    REVIEWED_KEY,
    TURN_NOTES,
    flags_text,
    note_data,
    note_element,
    note_value,
    read_notes,
    reviewed_holder,
    seconds_text,
    session_reviewer,
    turn_time_spent,
)
from annotator.log.text import clean_text, first_not_xml
from annotator.log.turn_facts import transcription_data
from annotator.reading.lxml_types import pop_attribute

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
        raise AnnotationError(
            f"turn {turn.id}: the transcription holds the control character U+{ord(bad):04X}, which XML cannot store"
        )
    annotation = turn.transcription_annotation()
    if annotation is not None and annotation.el.getparent() is not turn.el:
        _remove_transcription(annotation)  # a session-level one moves into its turn
        annotation = None
    if new is None:
        if annotation is not None:
            _remove_transcription(annotation)
    else:
        if annotation is None:
            annotation = AnnotationView(_turn_annotation(turn), turn.unit)
        data = annotation.transcription_data()
        if data is None:
            data_el = etree.SubElement(
                annotation.el,
                "GC_DATA",
                {"key": TRANSCRIPTION_KEY, "type_utt_text": "transcription", "dtype": "string"},
            )
            _indent_last_child(annotation.el, data_el)
        else:
            data_el = data.el
        _set_text(data_el, new)
    turn.session.document.announce(AnnotationChange(turn.session, turn, "transcription", old, new))
    return True


def set_concepts(turn: Turn, concepts: Concepts | None) -> bool:
    """Store CONCEPTS as the turn's reference concepts (None removes them). True if anything changed.

    They go into the turn's own GC_ANNOT (the one holding its transcription when there is one) as
    the GC_DATA keyed ":concepts"; the change is announced with the compact forms as old and new."""
    old_concepts = reference_concepts(turn.facts())
    if old_concepts == concepts:
        return False
    if concepts is not None:
        for path, value in concepts.slots:
            bad = first_not_xml(concepts.frame + path + value)
            if bad is not None:
                raise AnnotationError(
                    f"turn {turn.id}: the concepts hold the control character U+{ord(bad):04X}, which XML cannot store"
                )
    _replace_data(
        _concepts_holder(turn), None if concepts is None else concepts_element(concepts), lambda: _turn_annotation(turn)
    )
    turn.session.document.announce(
        AnnotationChange(
            turn.session,
            turn,
            "concepts",
            None if old_concepts is None else old_concepts.compact(),
            None if concepts is None else concepts.compact(),
        )
    )
    return True


def set_flags(turn: Turn, flags: Iterable[str]) -> bool:
    """Set the turn's flags (annotator.log.flags.FLAGS; none removes them). True if anything changed."""
    return _set_note(turn, "flags", flags_text(flags))


def set_comment(turn: Turn, comment: str | None) -> bool:
    """Set the turn's one-line comment (None or blank removes it). True if anything changed."""
    text = clean_text(comment) or None
    bad = first_not_xml(text) if text is not None else None
    if bad is not None:
        raise AnnotationError(
            f"turn {turn.id}: the comment holds the control character U+{ord(bad):04X}, which XML cannot store"
        )
    return _set_note(turn, "comment", text)


def set_time_spent(turn: Turn, seconds: float | None) -> bool:
    """Set the active time spent on the turn, in seconds (None or 0 removes it). True if anything changed."""
    return _set_note(turn, "time_spent", seconds_text(seconds))


def add_time_spent(turn: Turn, seconds: float) -> bool:
    """Add SECONDS of active time to the turn's time spent. True if the stored time changed."""
    return set_time_spent(turn, turn_time_spent(turn.facts()) + max(seconds, 0.0))


def _set_note(turn: Turn, kind: str, text: str | None) -> bool:
    old = note_value(turn.facts(), kind)
    if old == text:
        return False
    key = TURN_NOTES[kind][0]
    holder = next(
        (
            (annotation, data)
            for annotation in turn.el.iterchildren("GC_ANNOT")
            for data in [note_data(annotation, key)]
            if data is not None
        ),
        None,
    )
    _replace_data(holder, None if text is None else note_element(kind, text), lambda: _turn_annotation(turn))
    turn.session.document.announce(AnnotationChange(turn.session, turn, kind, old, text))
    return True


def set_reviewed(session: Session, reviewer: str | None) -> bool:
    """Mark the session reviewed by REVIEWER ('' when unknown), or not reviewed (None). True if changed."""
    new = None if reviewer is None else clean_text(reviewer)
    bad = first_not_xml(new) if new else None
    if bad is not None:
        raise AnnotationError(
            f"session {session.id}: the reviewer's name holds the control character "
            f"U+{ord(bad):04X}, which XML cannot store"
        )
    old = session_reviewer(session.el)
    if new == old:
        return False
    element = None
    if new is not None:
        element = etree.Element("GC_DATA", {"key": REVIEWED_KEY, "dtype": "string"})
        element.text = new or None
    _replace_data(reviewed_holder(session.el), element, lambda: _new_annotation(session.el, {}))
    session.document.announce(AnnotationChange(session, None, REVIEWED, old, new))
    return True


def _replace_data(
    found: tuple[etree._Element, etree._Element] | None,
    new: etree._Element | None,
    make_annotation: Callable[[], etree._Element],
) -> None:
    """Put NEW in place of the GC_DATA FOUND (its GC_ANNOT, itself) or, when nothing was found, last in
    the GC_ANNOT MAKE_ANNOTATION gives; NEW None removes FOUND, and its GC_ANNOT when nothing else is left."""
    if found is not None:
        annotation, data = found
        index = annotation.index(data)
        tail = data.tail
        _remove(data)
        if new is None:
            if len(annotation) == 0 and not _carries_more_than_a_turnid(annotation):
                _remove(annotation)
            elif len(annotation) == 0:
                annotation.text = None
        else:
            new.tail = tail
            annotation.insert(index, new)
    elif new is not None:
        annotation = make_annotation()
        annotation.append(new)
        _indent_last_child(annotation, new)


def _concepts_holder(turn: Turn) -> tuple[etree._Element, etree._Element] | None:
    """The turn's own GC_ANNOT holding reference concepts, and that GC_DATA."""
    for annotation in turn.el.iterchildren("GC_ANNOT"):
        data = concepts_data(annotation)
        if data is not None:
            return annotation, data
    return None


def _turn_annotation(turn: Turn) -> etree._Element:
    """The turn's own GC_ANNOT to add a transcription, concepts or a note to: the one already holding
    one of them, else a new first child of the turn."""
    for annotation in turn.el.iterchildren("GC_ANNOT"):
        if (
            concepts_data(annotation) is not None
            or transcription_data(annotation) is not None
            or read_notes(annotation, None)
        ):
            return annotation
    return _new_annotation(turn.el, {"turnid": turn.id})


def _carries_more_than_a_turnid(annotation: etree._Element) -> bool:
    return any(name not in ("turnid", "tidx") for name in annotation.attrib)


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
                pop_attribute(annotation.el, name)
            if not annotation.el.attrib and len(annotation.el) == 0:
                _remove(annotation.el)
    elif annotation is None:
        _new_annotation(session.el, {"type_task_completion": new})
    else:
        pop_attribute(annotation.el, "task_completion")  # MITRE's spelling; the DTD knows only type_...
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


def _indent_last_child(parent: etree._Element, child: etree._Element) -> None:
    """CHILD, just appended to PARENT, on a line of its own indented like its siblings, the closing tag after it
    where it was (e.g. a transcription added to the GC_ANNOT of a turn flagged before)."""
    if len(parent) == 1:
        _indent_only_child(parent, child)
    else:
        child.tail, parent[-2].tail = parent[-2].tail, parent.text


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
    parent = el.getparent()
    assert parent is not None, "only an element inside the log is removed"
    parent.remove(el)  # lxml removes the tail with the element


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
