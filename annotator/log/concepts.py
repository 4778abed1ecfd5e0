"""Concept frames: the parser's reading of a user turn, and the annotator's reference reading.

A concept frame is a frame name and an ordered list of (path, value) slots. The log holds it as a
GC_FRAME (docs/metrics.md, "Concepts"):

- the parser's frame is the first GC_FRAME below the turn's first GC_DATA of type concept
  (key ":parse_frame" in the standard's examples);
- the reference frame is the GC_FRAME inside the GC_DATA keyed ":concepts" of the turn's own GC_ANNOT;
- slots are the GC_DATA below the frame; a GC_DATA holding a nested GC_FRAME or GC_LIST is
  flattened: its key becomes a path segment, joined by "/" (":date/:month"); a list item without a
  key is named by its position ("[0]"); the names of nested frames are not kept;
- a value is the slot's text, whitespace-collapsed; a slot with an empty value is kept (value "").

The compact form is what the CSV files carry: `give_source(:source=Zürich, :date/:month=may)`, an
empty frame `help()`, no frame at all the empty string. In names, paths and values a backslash
escapes the characters "\\", "(", ")", ",", "=" so that any text round-trips.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from annotator.errors import AnnotationError
from annotator.log.text import clean_text

if TYPE_CHECKING:
    from annotator.log.turn_facts import TurnFacts

CONCEPTS_KEY = ":concepts"
CONCEPTS_UTT_TEXT = "concepts"
PATH_SEPARATOR = "/"
_SPECIAL = "\\(),="


@dataclass(frozen=True)
class Concepts:
    """A frame name and its slots as (path, value) pairs, in document order."""

    frame: str
    slots: tuple[tuple[str, str], ...] = ()

    def compact(self) -> str:
        """The one-line form the CSV files carry (see the module docstring)."""
        inner = ", ".join(f"{_escape(path)}={_escape(value)}" for path, value in self.slots)
        return f"{_escape(self.frame)}({inner})"


def frame_concepts(frame: etree._Element) -> Concepts:
    """The concepts a GC_FRAME holds, its nested frames and lists flattened into paths."""
    slots: list[tuple[str, str]] = []
    _flatten(frame, slots)
    return Concepts(clean_text(frame.get("name")), tuple(slots))


def _flatten(frame: etree._Element, slots: list[tuple[str, str]]) -> None:
    # An explicit stack, not recursion: a legal frame may nest up to the loader's 2,048 levels,
    # twice Python's recursion limit. Each entry walks one container's GC_DATA children; the path
    # is kept as its keys and joined only for a slot, so a deep chain costs its size, not its square.
    keys: list[str] = []
    stack = [(enumerate(frame.iterchildren("GC_DATA")), 0)]
    while stack:
        children, depth = stack[-1]
        following = next(children, None)
        if following is None:
            stack.pop()
            continue
        position, data = following
        del keys[depth:]
        keys.append(data.get("key") or data.get("name") or f"[{position}]")
        nested = list(data.iterchildren("GC_FRAME", "GC_LIST"))
        if not nested:
            slots.append((PATH_SEPARATOR.join(keys), clean_text(data.text)))
        for inner in reversed(nested):  # the top of the stack is walked first: the first container on top
            stack.append((enumerate(inner.iterchildren("GC_DATA")), depth + 1))


def concepts_in(data: etree._Element) -> Concepts | None:
    """The concepts of the first GC_FRAME below a GC_DATA (the parse's or the reference's), if any."""
    frame = next(data.iter("GC_FRAME"), None)
    return None if frame is None else frame_concepts(frame)


def parsed_concepts(facts: TurnFacts) -> Concepts | None:
    """The parser's frame for the turn (its first concept GC_DATA holding a GC_FRAME), if any."""
    for data in facts.concept_data:
        found = concepts_in(data)
        if found is not None:
            return found
    return None


def reference_concepts(facts: TurnFacts) -> Concepts | None:
    """The annotator's reference frame for the turn, if one is stored."""
    data = facts.reference_concepts_data
    return None if data is None else concepts_in(data)


def concepts_data(annotation: etree._Element) -> etree._Element | None:
    """The GC_DATA child of a GC_ANNOT that holds reference concepts, if any."""
    for data in annotation.iterchildren("GC_DATA"):
        if data.get("key") == CONCEPTS_KEY or data.get("type_utt_text") == CONCEPTS_UTT_TEXT:
            return data
    return None


def concepts_element(concepts: Concepts) -> etree._Element:
    """The GC_DATA that stores CONCEPTS in an annotation: a GC_FRAME whose paths become nested data."""
    data = etree.Element("GC_DATA", {"key": CONCEPTS_KEY, "type_utt_text": CONCEPTS_UTT_TEXT})
    frames = [etree.SubElement(data, "GC_FRAME", {"name": concepts.frame} if concepts.frame else {})]
    # (frame's index, key) -> index of the frame nested under that key: a path is walked one segment
    # at a time, so a path of thousands of segments costs its length, without recursion.
    below: dict[tuple[int, str], int] = {}
    for path, value in concepts.slots:
        *outer, key = path.split(PATH_SEPARATOR)
        at = 0
        for part in outer:
            inner = below.get((at, part))
            if inner is None:
                holder = etree.SubElement(frames[at], "GC_DATA", {"key": part})
                frames.append(etree.SubElement(holder, "GC_FRAME"))
                inner = below[(at, part)] = len(frames) - 1
            at = inner
        slot = etree.SubElement(frames[at], "GC_DATA", {"key": key, "dtype": "string"})
        slot.text = value
    return data


def _escape(text: str) -> str:
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def parse_compact(text: str) -> Concepts | None:
    """Concepts from their compact form; None for an empty TEXT. A malformed TEXT raises
    AnnotationError saying where."""
    text = text.strip()
    if not text:
        return None
    frame, at = _read_until(text, 0, "(")
    if at >= len(text):
        raise AnnotationError(f"concepts {text!r}: no '(' after the frame name")
    at += 1
    slots: list[tuple[str, str]] = []
    while True:
        while at < len(text) and text[at] == " ":
            at += 1
        if at < len(text) and text[at] == ")" and not slots:
            at += 1
            break
        path, at = _read_until(text, at, "=")
        if at >= len(text):
            raise AnnotationError(f"concepts {text!r}: slot {path.strip()!r} has no '='")
        value, at = _read_until(text, at + 1, ",)")
        if at >= len(text):
            raise AnnotationError(f"concepts {text!r}: no closing ')'")
        slots.append((path.strip(), value.strip()))
        at += 1
        if text[at - 1] == ")":
            break
    if text[at:].strip():
        raise AnnotationError(f"concepts {text!r}: text after the closing ')' at character {at + 1}")
    return Concepts(frame.strip(), tuple(slots))


def _read_until(text: str, at: int, stops: str) -> tuple[str, int]:
    """The unescaped text from AT up to the first unescaped character of STOPS, and its index."""
    out: list[str] = []
    while at < len(text):
        c = text[at]
        if c == "\\" and at + 1 < len(text):
            out.append(text[at + 1])
            at += 2
            continue
        if c in stops:
            break
        out.append(c)
        at += 1
    return "".join(out), at
