"""The reference concepts an annotator gave a turn, as slot/value pairs: the hook for concept agreement.

Concept annotations (issue 13) are stored as a GC_DATA key=":concepts" in the turn's GC_ANNOT,
holding a GC_FRAME:

    <GC_ANNOT turnid="6"><GC_DATA key=":concepts" type_utt_text="concepts">
      <GC_FRAME name="give_source"><GC_DATA key=":source" dtype="string">Zürich</GC_DATA></GC_FRAME>
    </GC_DATA></GC_ANNOT>

Until the concept annotation has its reader on main, this module reads that shape straight from
the XML of an annotated log or a human-annotation file: concepts_of_tree is the one function to
swap for the shared reader. A frame becomes its pairs, sorted so that order does not count: "frame=NAME" and
"SLOT=VALUE" (nested frames as paths, ":a.:b=VALUE"), values normalised like words (so "Zürich" and
"zürich." agree) with spaces as "_" (the aligner splits on spaces).
"""

from __future__ import annotations

from lxml import etree

from annotator.annotation_files.annotation_set import SessionRef, TurnRef
from annotator.log.text import normalize_words
from annotator.log.turn_ids import strip_id, turn_key

CONCEPTS_KEY = ":concepts"

Concepts = tuple[str, ...]


def concepts_of_tree(tree: etree._ElementTree) -> dict[TurnRef, Concepts]:
    """The concept pairs of every turn of TREE that has a concept annotation."""
    found: dict[TurnRef, Concepts] = {}
    for data in tree.getroot().iter("GC_DATA"):
        if data.get("key") != CONCEPTS_KEY:
            continue
        annot = data.getparent()
        session = next(data.iterancestors("GC_SESSION"), None)
        turn = next(data.iterancestors("GC_TURN"), None)
        turn_id = annot.get("turnid") if annot is not None and annot.tag == "GC_ANNOT" else None
        turn_id = turn_id or (turn.get("id") if turn is not None else None)
        key = turn_key(turn_id)
        session_id = strip_id(session.get("id")) if session is not None else ""
        if key is None or not session_id:
            continue
        found[TurnRef(SessionRef(session_id), key)] = tuple(sorted(_pairs(data)))
    return found


def _pairs(data: etree._Element, path: str = "") -> list[str]:
    pairs: list[str] = []
    for child in data:
        if child.tag == "GC_FRAME":
            pairs.append(f"{path}frame={_value(child.get('name'))}")
            pairs += _pairs(child, path)
        elif child.tag == "GC_DATA":
            key = child.get("key") or ""
            if len(child):
                pairs += _pairs(child, f"{path}{key}.")
            else:
                pairs.append(f"{path}{key}={_value(child.text)}")
    return pairs


def _value(text: str | None) -> str:
    return "_".join(normalize_words(text))
