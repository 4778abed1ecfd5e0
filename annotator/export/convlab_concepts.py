"""The dialogue acts and state of a ConvLab user turn, from its concept frames.

A user turn's frame is the annotator's reference concepts where the turn has them, else the
parser's frame (annotator.log.concepts); the export says per GC_TURN which (log_turns'
concepts_source: "reference", "parse" or null) and the README counts them. Each frame becomes
acts of the CONCEPT_DOMAIN:

- a slot with a value: a non-categorical act {"intent": the frame name, "domain": "concepts",
  "slot": the slot's path without the colons (":date/:month" -> "date/month"), "value": the value};
- a frame without any such slot: a binary act {"intent": the frame name, "slot": ""};

a frame without a name has the intent "inform". The state of a user turn is the dialogue's
slot values so far (each slot its latest value), in the concepts domain; the ontology declares
the domain's slots, none categorical.
"""

from __future__ import annotations

from typing import Any

from annotator.log.concepts import PATH_SEPARATOR, Concepts

CONCEPT_DOMAIN = "concepts"
CONCEPT_DOMAIN_DESCRIPTION = (
    "the slots of the parser's concept frames, or of the annotator's reference concepts "
    "where a turn has them (the frame name is the intent)"
)
NAMELESS_INTENT = "inform"


def slot_name(path: str) -> str:
    return PATH_SEPARATOR.join(segment.lstrip(":") for segment in path.split(PATH_SEPARATOR))


def frame_acts(frames: list[Concepts]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """(non-categorical acts, binary acts) of a user turn's FRAMES, in order, each once."""
    valued: list[dict[str, str]] = []
    binary: list[dict[str, str]] = []
    for frame in frames:
        intent = frame.frame.strip() or NAMELESS_INTENT
        slots = [(slot_name(path), value) for path, value in frame.slots if value and slot_name(path)]
        for slot, value in slots:
            act = {"intent": intent, "domain": CONCEPT_DOMAIN, "slot": slot, "value": value}
            if act not in valued:
                valued.append(act)
        act = {"intent": intent, "domain": CONCEPT_DOMAIN, "slot": ""}
        if not slots and act not in binary:
            binary.append(act)
    return valued, binary


def advance_state(state: dict[str, dict[str, str]], acts: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """The dialogue state after a user turn with ACTS (its non-categorical acts): a new dict."""
    after = {domain: dict(slots) for domain, slots in state.items()}
    for act in acts:
        after.setdefault(act["domain"], {})[act["slot"]] = act["value"]
    return after


def concept_slots(dialogues: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The slots each domain's non-categorical acts use over DIALOGUES, sorted."""
    slots: dict[str, set[str]] = {}
    for dialogue in dialogues:
        for turn in dialogue["turns"]:
            for act in turn["dialogue_acts"]["non-categorical"]:
                slots.setdefault(act["domain"], set()).add(act["slot"])
    return {domain: sorted(names) for domain, names in slots.items()}
