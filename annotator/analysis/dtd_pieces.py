"""libxml2's DTD validation in pieces, so that its cost grows linearly with the log.

For every complaint, lxml records the node's path, which libxml2 builds by
counting, at each level, the node's preceding siblings of the same name: 200k
complaints about the children of one element cost 200k x 100k sibling steps
(86 s for a 2 MB log). So an element with more than FAN_OUT children is never
validated together with them. Each child is validated as the root of a piece of
its own (libxml2 sees it without siblings); the element itself is validated as
a childless copy (its declaration and attributes), and its content model is
checked here: the models of the shipped DTD are all a repeated choice,
(A | B ...)*, or ANY. An element with at most FAN_OUT children is validated
whole, with its subtree, as before. The complaints are the same either way,
one by one (tests/analysis/test_dtd_pieces.py compares them).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from annotator.reading.attributes import childless_copy
from annotator.reading.lxml_types import element_declarations, log_entries, source_line

FAN_OUT = 128
_XML_SPACE = " \t\r\n"
_GOT_SHOWN = 5000  # characters of the "got (...)" list, as libxml2 cuts it


@dataclass(frozen=True)
class Complaint:
    """One libxml2 complaint: its path is relative to PIECE (the element validated as root),
    unless ELEMENT already says which element it is about."""

    line: int | None
    message: str
    path: str | None
    piece: etree._Element
    element: etree._Element | None = None


def complaints(
    root: etree._Element, dtd: etree.DTD, lock: threading.Lock, fan_out: int = FAN_OUT
) -> Iterator[Complaint]:
    """Every complaint of DTD about the tree under ROOT, piece by piece in document order."""
    models = _content_models(dtd)
    split = _to_split(root, fan_out, models)
    stack = [root]
    while stack:
        el = stack.pop()
        if el in split:
            yield from _validate(dtd, lock, childless_copy(el), el)
            problem = _content_problem(el, models.checked.get(el.tag))
            if problem is not None:
                yield Complaint(source_line(el), problem, None, el, el)
            stack.extend(reversed(list(el.iterchildren(tag=etree.Element))))
        else:
            yield from _validate(dtd, lock, el, None)


def _to_split(root: etree._Element, fan_out: int, models: _Models) -> set[etree._Element]:
    """The elements with more than FAN_OUT children and their ancestors (up to ROOT): what must
    not be validated whole. An element whose content model cannot be checked here is not split."""
    split: set[etree._Element] = set()
    for wide in [el for el in root.iter(etree.Element) if len(el) > fan_out]:  # faster than XPath's count()
        for el in (wide, *wide.iterancestors()):
            if el in split:
                break
            split.add(el)
            if el is root:
                break
    return {el for el in split if models.may_split(el.tag)}


def _validate(
    dtd: etree.DTD, lock: threading.Lock, piece: etree._Element, original: etree._Element | None
) -> Iterator[Complaint]:
    """Complaints about PIECE; those about a childless copy are about ORIGINAL, on its line."""
    with lock:  # an lxml DTD keeps the error log of its last run on itself
        if dtd.validate(piece):
            return
        entries = [(entry.line, entry.message, getattr(entry, "path", None)) for entry in log_entries(dtd.error_log)]
    for line, message, path in entries:
        if original is not None:
            yield Complaint(source_line(original), message, None, original, original)
        else:
            yield Complaint(line or None, message, path, piece)


@dataclass(frozen=True)
class _Models:
    """Which elements may be split: those whose content model is a repeated choice of elements
    (tag -> the model as libxml2 writes it and the children it allows) or ANY (tag -> None), and
    those the DTD does not declare (libxml2 checks no content there). Any other model: never."""

    checked: dict[str, tuple[str, frozenset[str]] | None]
    declared: frozenset[str]

    def may_split(self, tag: str) -> bool:
        return tag in self.checked or tag not in self.declared


@lru_cache(maxsize=4)
def _content_models(dtd: etree.DTD) -> _Models:
    checked: dict[str, tuple[str, frozenset[str]] | None] = {}
    declared = set()
    for decl in element_declarations(dtd):
        declared.add(decl.name)
        if decl.type == "any":
            checked[decl.name] = None
        elif decl.type == "element" and decl.content is not None and decl.content.occur == "mult":
            names = _choice_names(decl.content)
            if names:
                checked[decl.name] = (f"({' | '.join(names)})*", frozenset(names))
    return _Models(checked, frozenset(declared))


def _choice_names(content) -> list[str]:
    """The element names of a choice (A | B | ...) each taken once, [] for any other shape."""
    if content.type == "element":
        return [content.name]
    if content.type != "or":
        return []
    names = []
    for part in (content.left, content.right):
        if part is None or part.occur != "once":
            return []
        inner = _choice_names(part)
        if not inner:
            return []
        names += inner
    return names


def _content_problem(el: etree._Element, model: tuple[str, frozenset[str]] | None) -> str | None:
    """libxml2's message when EL's children do not fit its repeated-choice MODEL (None: they do)."""
    if model is None:
        return None
    text, allowed = model
    has_text = bool((el.text or "").strip(_XML_SPACE)) or any((child.tail or "").strip(_XML_SPACE) for child in el)
    children = [child.tag for child in el.iterchildren(tag=etree.Element)]
    if not has_text and all(tag in allowed for tag in children):
        return None
    got = " ".join(children)[:_GOT_SHOWN]
    return f"Element {el.tag} content does not follow the DTD, expecting {text}, got ({got} )"
