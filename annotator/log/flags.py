"""Flags, comments, time spent and review state: what an annotator notes beside a transcription.

Stored form (docs/annotations.md, "Flags, comment, time spent, review"), all GC_DATA the DTD accepts:

- a user turn's flags: `<GC_DATA key=":flags" dtype="string">inaudible noise</GC_DATA>` in the turn's own
  GC_ANNOT (beside its transcription), the flags of FLAGS space-separated in FLAGS' order;
- its comment: `<GC_DATA key=":comment" dtype="string">...</GC_DATA>` there too, one line;
- the annotator's active time on it: `<GC_DATA key=":time_spent" dtype="float">12.5</GC_DATA>`, seconds;
- a session's review: a session-level `<GC_ANNOT><GC_DATA key=":reviewed" dtype="string">alice</GC_DATA>
  </GC_ANNOT>`, the text naming the reviewer (empty when the app had no annotator name).

Each is absent rather than empty: no flags, no comment, no time and not reviewed leave the log as it was.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from lxml import etree

from annotator.errors import AnnotationError
from annotator.log.text import clean_text

if TYPE_CHECKING:
    from annotator.log.turn_facts import TurnFacts

INAUDIBLE, CROSS_TALK, TRUNCATED, NON_NATIVE, NOISE = "inaudible", "cross-talk", "truncated", "non-native", "noise"
FLAGS = (INAUDIBLE, CROSS_TALK, TRUNCATED, NON_NATIVE, NOISE)
FLAG_DESCRIPTIONS = {
    INAUDIBLE: "part of the speech cannot be made out",
    CROSS_TALK: "another voice speaks over the user",
    TRUNCATED: "the recording starts or ends inside the speech",
    NON_NATIVE: "the user is not a native speaker",
    NOISE: "background noise disturbs the speech",
}
FLAGS_KEY = ":flags"
COMMENT_KEY = ":comment"
TIME_SPENT_KEY = ":time_spent"
REVIEWED_KEY = ":reviewed"
# The change kind (AnnotationChange.kind) of each turn note, and its GC_DATA key and dtype.
TURN_NOTES = {
    "flags": (FLAGS_KEY, "string"),
    "comment": (COMMENT_KEY, "string"),
    "time_spent": (TIME_SPENT_KEY, "float"),
}
NOTE_KEYS = {key: kind for kind, (key, _dtype) in TURN_NOTES.items()}
REVIEWED = "reviewed"


def flags_text(flags: Iterable[str]) -> str | None:
    """FLAGS as stored: known flags in FLAGS' order, space-separated; None when there are none.
    Raises AnnotationError naming an unknown flag."""
    chosen = set(flags)
    unknown = sorted(chosen.difference(FLAGS))
    if unknown:
        raise AnnotationError(f"{unknown[0]!r} is no flag (the flags are {', '.join(FLAGS)})")
    return " ".join(flag for flag in FLAGS if flag in chosen) or None


def parse_flags(text: str | None) -> tuple[str, ...]:
    """The flags a stored or typed text names ('noise inaudible' -> ('inaudible', 'noise')); raises
    AnnotationError on an unknown word."""
    stored = flags_text((text or "").split())
    return tuple(stored.split()) if stored else ()


def seconds_text(seconds: float | None) -> str | None:
    """Seconds as stored, to a tenth ('12.5'); None for no time (0 or less rounds to none)."""
    if seconds is None or round(seconds, 1) <= 0:
        return None
    return f"{round(seconds, 1):.1f}"


def parse_seconds(text: str | None, where: str = "time spent") -> float:
    """The seconds a stored time spent holds; 0.0 for none. Raises AnnotationError for a text that is
    no non-negative number."""
    if text is None or not text.strip():
        return 0.0
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0 or value == float("inf"):
        raise AnnotationError(f"{where}: {text.strip()[:40]!r} is not a number of seconds")
    return value


def stored_note(kind: str, text: str | None) -> str | None:
    """TEXT as the writer would store the turn note KIND (flags in order, seconds to a tenth); None for
    none. Raises AnnotationError for an unknown kind or flag, or a time that is no number of seconds."""
    if kind == "flags":
        return flags_text(parse_flags(text))
    if kind == "time_spent":
        return seconds_text(parse_seconds(text))
    if kind == "comment":
        return clean_text(text) or None
    raise AnnotationError(f"{kind!r} is no kind of turn note")


def note_data(annotation: etree._Element, key: str) -> etree._Element | None:
    """The GC_DATA child of a GC_ANNOT keyed KEY, if any."""
    for data in annotation.iterchildren("GC_DATA"):
        if data.get("key") == key:
            return data
    return None


def note_element(kind: str, text: str) -> etree._Element:
    """The GC_DATA storing TEXT as the turn note KIND (see TURN_NOTES)."""
    key, dtype = TURN_NOTES[kind]
    data = etree.Element("GC_DATA", {"key": key, "dtype": dtype})
    data.text = text
    return data


def read_notes(annotation: etree._Element, notes: dict[str, str] | None) -> dict[str, str] | None:
    """NOTES (kind -> text) with the turn notes of one of the turn's own GC_ANNOTs added (the first
    of each kind wins); stays None while the turn has none, so a turn without notes costs nothing."""
    for data in annotation.iterchildren("GC_DATA"):
        key = data.get("key")
        kind = NOTE_KEYS.get(key) if key is not None else None
        if kind is not None:
            notes = {} if notes is None else notes
            notes.setdefault(kind, clean_text(data.text))
    return notes


def turn_flags(facts: TurnFacts) -> tuple[str, ...]:
    """The turn's flags in FLAGS' order (words the log holds that are no flag are left out)."""
    text = (facts.notes or {}).get("flags", "")
    return tuple(flag for flag in FLAGS if flag in text.split())


def turn_comment(facts: TurnFacts) -> str | None:
    return (facts.notes or {}).get("comment") or None


def turn_time_spent(facts: TurnFacts) -> float:
    """Seconds of active time stored on the turn; 0.0 when none (or none readable)."""
    try:
        return parse_seconds((facts.notes or {}).get("time_spent"))
    except AnnotationError:
        return 0.0


def note_value(facts: TurnFacts, kind: str) -> str | None:
    """The turn note KIND as a change announces it (the stored text), None when absent."""
    if kind == "flags":
        return " ".join(turn_flags(facts)) or None
    if kind == "comment":
        return turn_comment(facts)
    return seconds_text(turn_time_spent(facts))


def reviewed_holder(session: etree._Element) -> tuple[etree._Element, etree._Element] | None:
    """The session-level GC_ANNOT holding the review, and its :reviewed GC_DATA."""
    for annotation in session.iterchildren("GC_ANNOT"):
        data = note_data(annotation, REVIEWED_KEY)
        if data is not None:
            return annotation, data
    return None


def session_reviewer(session: etree._Element) -> str | None:
    """Who reviewed the GC_SESSION ('' when the name was not known); None when it is not reviewed."""
    found = reviewed_holder(session)
    return None if found is None else clean_text(found[1].text)
