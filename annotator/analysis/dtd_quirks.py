"""Validation against the standard's DTD, telling the DTD's own mistakes from broken logs.

The DTD shipped in resources/gc_log.dtd is the one printed in the standard
(v1.1). It is stricter than the standard's prose and its own examples in three
ways that real, well-made logs run into. Those are reported as quirks (a
problem of the DTD), everything else the DTD reports is a real error:

(a) NMTOKEN for string values. The DTD declares some attributes NMTOKEN or
    NMTOKENS although the standard's attribute tables call them strings, and
    real values do not fit: mime_type="audio/x-wav" (a MIME type always holds
    a "/"), a location or session id with a "/" or a space. A value is a
    quirk when its attribute is one the tables call a string
    (STRING_ATTRIBUTES) and it fails the NMTOKEN rule only by "/" and
    whitespace, or (for mime_type) when it is a well-formed MIME type, whose
    parameters (";", "=") no NMTOKEN can hold either. The same failure on an
    attribute the tables call a number (ids of turns, turnid, tidx, times) is
    an error.
(b) Attributes used by the standard's examples but not declared: `type` on
    GC_FRAME (<GC_FRAME name="scores" type="clause">) and `name` on a GC_DATA
    that holds a GC_LIST (<GC_DATA name=":nbest_list"><GC_LIST ...>).
(c) GC_DATA without the required `key`: inside GC_ANNOT (the standard's
    GC_ANNOT example has none) and on a GC_DATA that holds a GC_LIST and is
    named by `name` instead (the same GC_LIST example).

Lines are those libxml2 reports, so they equal what
`xmllint --noout --dtdvalid gc_log.dtd LOG` prints for the same file.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from annotator.analysis.dtd_pieces import FAN_OUT, complaints
from annotator.reading.attributes import attributes_of
from annotator.reading.lxml_types import element_declarations, source_line
from annotator.resources import dtd_path

# Attributes the standard's tables type as "string" while the DTD says NMTOKEN(S).
STRING_ATTRIBUTES = {
    "GC_SESSION": {"id"},
    "GC_OPERATION": {"type", "location"},
    "GC_MESSAGE": {"type", "location", "direction"},
    "GC_EVENT": {"etype", "location"},
    "GC_DATA": {"type", "mime_type", "direction", "dtype"},
    "GC_FRAME": {"frame_type"},
}

# XML 1.0 (fifth edition) NameChar: what an NMTOKEN is made of.
_NAME_CHAR = (
    ":A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
    "\\-.0-9\u00b7\u0300-\u036f\u203f\u2040"
)
_NMTOKEN_BUT_SLASHES_AND_SPACES = re.compile(f"[{_NAME_CHAR}/\\s]+")
_TOKEN = r"[A-Za-z0-9!#$%&'*+.^_`|~-]+"
_MIME_TYPE = re.compile(rf"\s*{_TOKEN}/{_TOKEN}(\s*;\s*{_TOKEN}=({_TOKEN}|\"[^\"]*\"))*\s*")

_BAD_VALUE = re.compile(r"Syntax of value for attribute (\S+) of (\S+) is not valid")
_UNDECLARED_ATTRIBUTE = re.compile(r"No declaration for attribute (\S+) of element (\S+)")
_MISSING_ATTRIBUTE = re.compile(r"Element (\S+) does not carry attribute (\S+)")
_BAD_CONTENT = re.compile(r"Element (\S+) content does not follow the DTD, expecting (.*?), got")
_UNDECLARED_ELEMENT = re.compile(r"No declaration for element (\S+)")
_PATH_STEP = re.compile(r"([^\[\]/]+)(?:\[(\d+)\])?")

_MAX_VALUE_SHOWN = 60
_MAX_MESSAGE = 300


@dataclass(frozen=True)
class DtdProblem:
    """One complaint of the DTD, classified."""

    line: int | None
    element: etree._Element | None
    code: str  # "dtd", "missing-attribute" or "dtd-quirk-..."
    message: str
    attribute: str | None = None  # the attribute complained about, if any

    @property
    def is_quirk(self) -> bool:
        return self.code.startswith("dtd-quirk")


@lru_cache(maxsize=1)
def shipped_dtd() -> etree.DTD:
    """The standard's DTD, parsed once."""
    return etree.DTD(str(dtd_path()))


# An lxml DTD keeps the error log of its last run on itself: one validation at a time.
_VALIDATION_LOCK = threading.Lock()


def dtd_problems(tree: etree._ElementTree, fan_out: int = FAN_OUT) -> list[DtdProblem]:
    """Validate TREE against the shipped DTD; one classified problem per libxml2 complaint."""
    return list(iter_dtd_problems(tree, fan_out))


def iter_dtd_problems(tree: etree._ElementTree, fan_out: int = FAN_OUT) -> Iterator[DtdProblem]:
    """dtd_problems one at a time. The validation runs in pieces (annotator.analysis.dtd_pieces), so
    that its cost grows linearly and only one piece's complaints are held at a time."""
    finder: _ElementFinder | None = None  # the current piece's: complaints come piece by piece
    get = AttributeReader()
    for complaint in complaints(tree.getroot(), shipped_dtd(), _VALIDATION_LOCK, fan_out):
        line, element = complaint.line, complaint.element
        if element is None:
            if finder is None or finder.root is not complaint.piece:
                finder = _ElementFinder(complaint.piece)
            element = finder.find(complaint.path, line, complaint.message)
            if element is complaint.piece:
                line = source_line(element)  # a piece's root is a copy to libxml2: its own line is the original's
        code, text = classify(complaint.message, element, get)
        yield DtdProblem(line, element, code, text, _attribute_named(complaint.message))


def missing_required_attributes(tree: etree._ElementTree) -> list[DtdProblem]:
    """What the DTD would say about missing #REQUIRED attributes, without validating the rest."""
    required = {
        decl.name: [a.name for a in decl.iterattributes() if a.default == "required"]
        for decl in element_declarations(shipped_dtd())
    }
    problems = []
    for el in tree.getroot().iter(*required):
        for name in required[el.tag]:
            if el.get(name) is None:
                code, text = _missing(el, name)
                problems.append(DtdProblem(source_line(el), el, code, text, name))
    return problems


def classify(message: str, el: etree._Element | None, get: Getter | None = None) -> tuple[str, str]:
    """(code, plain message) for one libxml2 validity message about EL; GET reads its attributes."""
    get = get or _get
    message = " ".join(message.split())
    if match := _BAD_VALUE.match(message):
        return _bad_value(el, match.group(2), match.group(1), get)
    if match := _UNDECLARED_ATTRIBUTE.match(message):
        return _undeclared(el, match.group(2), match.group(1), get)
    if match := _MISSING_ATTRIBUTE.match(message):
        if el is not None:
            return _missing(el, match.group(2), get)
        return "missing-attribute", f"{match.group(1)} lacks the required attribute {match.group(2)}"
    if (match := _BAD_CONTENT.match(message)) and el is not None:
        return "dtd", _bad_content(el, match.group(2)) or _shorten(message)
    if match := _UNDECLARED_ELEMENT.match(message):
        return "dtd", f"element {match.group(1)} is not declared in the DTD"
    return "dtd", _shorten(message)


def _attribute_named(message: str) -> str | None:
    for pattern, group in ((_BAD_VALUE, 1), (_UNDECLARED_ATTRIBUTE, 1), (_MISSING_ATTRIBUTE, 2)):
        if match := pattern.match(message):
            return match.group(group)
    return None


def _bad_value(el: etree._Element | None, tag: str, name: str, get: Getter) -> tuple[str, str]:
    value = get(el, name) if el is not None else None
    where = describe(el, get=get) if el is not None else tag
    if value is None:
        return "dtd", f"{where}: attribute {name} is not a valid NMTOKEN as the DTD requires"
    shown = _show(value)
    if name in STRING_ATTRIBUTES.get(tag, ()):
        if name == "mime_type" and _MIME_TYPE.fullmatch(value):
            return (
                "dtd-quirk-mime-type",
                f"{where}: mime_type {shown} is a MIME type, which the standard's DTD "
                "wrongly declares NMTOKEN (no '/' allowed)",
            )
        if value.strip() and _NMTOKEN_BUT_SLASHES_AND_SPACES.fullmatch(value):
            what = " and ".join(
                word for word, present in (("a '/'", "/" in value), ("spaces", _has_space(value))) if present
            )
            return (
                "dtd-quirk-nmtoken",
                f"{where}: {name} {shown} holds {what}, which the DTD's NMTOKEN "
                "forbids though the standard calls the value a string",
            )
        return "dtd", f"{where}: {name} {shown} is not a valid NMTOKEN as the DTD requires"
    return "dtd", f"{where}: {name} {shown} is not a valid NMTOKEN as the DTD requires (the standard wants a number)"


def _undeclared(el: etree._Element | None, tag: str, name: str, get: Getter) -> tuple[str, str]:
    where = describe(el, get=get) if el is not None else tag
    if el is not None and tag == "GC_FRAME" and name == "type":
        return (
            "dtd-quirk-frame-type",
            f"{where}: attribute type is used by the standard's own GC_FRAME example but not declared in its DTD",
        )
    if el is not None and tag == "GC_DATA" and name == "name" and _holds_list(el):
        return (
            "dtd-quirk-data-name",
            f"{where}: attribute name on a GC_DATA holding a GC_LIST is used by the "
            "standard's own example but not declared in its DTD",
        )
    hint = ""
    if tag == "GC_ANNOT" and name == "task_completion":
        hint = " (MITRE's annotation-file spelling; the DTD's is type_task_completion)"
    return "dtd", f"{where}: attribute {name} is not declared in the DTD{hint}"


def _missing(el: etree._Element, name: str, get: Getter | None = None) -> tuple[str, str]:
    get = get or _get
    where = describe(el, get=get)
    if el.tag == "GC_DATA" and name == "key":
        parent = el.getparent()
        if parent is not None and parent.tag == "GC_ANNOT":
            return (
                "dtd-quirk-annot-data-key",
                f"{where} inside GC_ANNOT has no key; the standard's own GC_ANNOT "
                "example omits it though its DTD requires it",
            )
        if get(el, "name") is not None and _holds_list(el):
            return (
                "dtd-quirk-data-name",
                f"{where} holding a GC_LIST is named by name instead of the key its "
                "DTD requires, as in the standard's own example",
            )
    return "missing-attribute", f"{where} lacks the required attribute {name}"


def _bad_content(el: etree._Element, expecting: str) -> str | None:
    """Name the first child the content model does not allow (the models here are all (A | B)*)."""
    allowed = re.findall(r"[A-Za-z_][\w.:-]*", expecting)
    listed = ", ".join(allowed) if allowed else "nothing"
    if el.text and el.text.strip():
        return f"{describe(el)} holds text {_show(el.text.strip())}, which the DTD does not allow there (allowed: {listed})"
    for child in el:
        if isinstance(child.tag, str) and child.tag not in allowed:
            return (
                f"{describe(el)} holds {child.tag} (line {child.sourceline}), which the DTD does not allow "
                f"there (allowed: {listed})"
            )
        if child.tail and child.tail.strip():
            return f"{describe(el)} holds text {_show(child.tail.strip())}, which the DTD does not allow there (allowed: {listed})"
    return None


def _has_space(value: str) -> bool:
    return any(ch.isspace() for ch in value)


def _holds_list(el: etree._Element) -> bool:
    return any(child.tag == "GC_LIST" for child in el)


def describe(el: etree._Element, with_turn: bool = True, get: Getter | None = None) -> str:
    """A short name for an element: 'GC_TURN 3', "GC_OPERATION 'recognize' (turn 3)", "GC_DATA ':f'".

    The turn of an operation, message or event is that of the GC_TURN around
    it (its turnid when it has none); with_turn=False leaves it out. GET reads attributes
    (an AttributeReader where one element is described many times).
    """
    get = get or _get
    tag = el.tag if isinstance(el.tag, str) else "node"
    if tag in ("GC_SESSION", "GC_TURN"):
        identifier = get(el, "id")
        return f"{tag} {'(no id)' if identifier is None else identifier}"
    if tag in ("GC_OPERATION", "GC_MESSAGE", "GC_EVENT"):
        name = get(el, "name")
        shown = f" {_show(name)}" if name is not None else ""
        parent = el.getparent()
        turn = get(parent, "id") if parent is not None and parent.tag == "GC_TURN" else get(el, "turnid")
        return f"{tag}{shown}" + (f" (turn {turn})" if with_turn and turn is not None else "")
    if tag == "GC_DATA":
        key = get(el, "key")
        label = key if key is not None else get(el, "name")
        return f"GC_DATA {_show(label)}" if label is not None else "GC_DATA"
    name = get(el, "name") if tag in ("GC_FRAME", "GC_LIST") else None
    return f"{tag} {_show(name)}" if name is not None else tag


Getter = Callable[[etree._Element, str], "str | None"]


def _get(el: etree._Element, name: str) -> str | None:
    return el.get(name)


class AttributeReader:
    """el.get(name) at the cost of a dict lookup: lxml's get() walks the element's attribute list, so
    naming an element with 80,000 attributes once per complaint about them was quadratic (an attribute
    named after them, as `name`, was found last). Each element's attributes are read into a dict once;
    the last KEEP elements are kept (complaints come element by element, a parent just before)."""

    def __init__(self, keep: int = 64):
        self.keep = keep
        self._read: dict[etree._Element, dict[str, str]] = {}

    def __call__(self, el: etree._Element, name: str) -> str | None:
        attributes = self._read.get(el)
        if attributes is None:
            if len(self._read) >= self.keep:
                del self._read[next(iter(self._read))]
            attributes = self._read[el] = attributes_of(el)
        return attributes.get(name)


def _show(value: str) -> str:
    """A value quoted for a one-line message: whitespace collapsed, long values cut."""
    text = re.sub(r"\s+", " ", value)
    text = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    if len(text) > _MAX_VALUE_SHOWN:
        text = text[: _MAX_VALUE_SHOWN - 3] + "..."
    return f"'{text}'"


def _shorten(message: str) -> str:
    message = " ".join(message.split())
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


class _ElementFinder:
    """Finds the element a libxml2 error is about from its node path ("/GC_LOG/GC_SESSION/GC_TURN[3]"),
    which starts at ROOT (the element validated as the document's root).

    Children lists and paths are cached, so thousands of complaints
    about one big log cost one walk, not one XPath scan each.
    """

    def __init__(self, root: etree._Element):
        self.root = root
        self._by_path: dict[str, etree._Element | None] = {}
        self._children: dict[tuple[etree._Element, str], list[etree._Element]] = {}

    def find(self, path: str | None, line: int | None, message: str) -> etree._Element | None:
        found = self._resolve(path) if path and path.startswith("/") else None
        return found if found is not None else self._by_line(line, message)

    def _resolve(self, path: str) -> etree._Element | None:
        """The element at PATH, walked down from the root one step at a time (not recursively: a legal
        log nests 2,048 elements deep); each path's answer is kept."""
        if path in self._by_path:
            return self._by_path[path]
        found: etree._Element | None = None
        for depth, step in enumerate(path[1:].split("/")):
            match = _PATH_STEP.fullmatch(step)
            if match is None:
                found = None
                break
            name, index = match.group(1), int(match.group(2) or 1)
            if depth == 0:
                found = self.root if name == self.root.tag and index == 1 else None
            else:
                assert found is not None  # the walk stops at the first step that finds nothing
                children = self._children_named(found, name)
                found = children[index - 1] if 0 < index <= len(children) else None
            if found is None:
                break
        self._by_path[path] = found
        return found

    def _children_named(self, parent: etree._Element, name: str) -> list[etree._Element]:
        key = (parent, name)
        if key not in self._children:
            self._children[key] = [child for child in parent if child.tag == name]
        return self._children[key]

    def _by_line(self, line: int | None, message: str) -> etree._Element | None:
        """Fallback: the first element on LINE whose tag the message names."""
        if line is None:
            return None
        tags = set(re.findall(r"\b(GC_[A-Z]+|[A-Za-z_][\w.-]*)\b", message))
        for el in self.root.iter():
            if el.sourceline == line and el.tag in tags:
                return el
        return None
