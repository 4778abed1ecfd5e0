"""Communicator logs built from text turns, for corpora that never had a log (ConvLab
datasets, DialBB scenarios), so they can be browsed and annotated in the app.

Each turn becomes a GC_TURN holding one GC_OPERATION that carries the text the way a
real log does: a user turn's text as the system's input (GC_DATA type="text_input"
type_utt_text="asr"), a system turn's as its output (type="text_output"
type_utt_text="system"), with type_new_turn / type_start_utt / type_end_utt. There
is no audio.

Times are synthesised: the session starts at 0 s, an utterance lasts 1 s plus 0.3 s
a word, and 0.5 s separate utterances. They are marked as synthesised in two
DTD-valid ways (the DTD allows no GC_LOG attribute but logfile_version, and GC_DATA
only inside operations, messages, events and annotations):
- a comment after the XML declaration saying so, for people;
- a GC_EVENT etype="IMPORT" first in the session's first turn, whose GC_DATA record
  key=":synthetic_times" "true", key=":import_format" (convlab, dialbb),
  key=":import_source" (the file imported) and what the source knew that a log has
  no place for (":source_dataset", ":source_split", ":source_dialogue_id",
  ":original_id"), for programs: see import_marker().
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from annotator.log.elements import Session
from annotator.log.text import clean_text
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.reading.lxml_types import attribute_dict

SYNTHETIC_TIMES_KEY = ":synthetic_times"
IMPORT_EVENT_TYPE = "IMPORT"
_DECLARATION = b'<?xml version="1.0" encoding="UTF-8"?>\n'
_NOT_NMTOKEN = re.compile(r"[^A-Za-z0-9_.:-]")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

UTTERANCE_BASE_S = 1.0
SECONDS_PER_WORD = 0.3
GAP_S = 0.5


@dataclass
class TextTurn:
    speaker: str  # "user" | "system"
    text: str
    turn_id: str | None = None  # None: numbered from 1 by position


@dataclass
class TextSession:
    session_id: str
    turns: list[TextTurn]
    source: dict[str, str] = field(default_factory=dict)  # ":import_format" etc., recorded in the IMPORT event


def build_log(session: TextSession, comment: str) -> bytes:
    """One GC_LOG (UTF-8, LF, indented) holding SESSION, with COMMENT after the declaration."""
    if not session.turns:
        raise ValueError("a session without turns")
    root = etree.Element("GC_LOG", logfile_version="11")
    session_el = etree.SubElement(root, "GC_SESSION", id=nmtoken(session.session_id))
    clock = 0.0
    for position, turn in enumerate(session.turns, start=1):
        turn_id = nmtoken(turn.turn_id) if turn.turn_id else str(position)
        text = xml_safe(turn.text)
        start, clock = clock, clock + UTTERANCE_BASE_S + SECONDS_PER_WORD * len(text.split())
        turn_el = etree.SubElement(session_el, "GC_TURN", id=turn_id, stime=_time(start), etime=_time(clock))
        if position == 1:
            _add_import_event(turn_el, turn_id, start, session.source)
        _add_operation(turn_el, turn, turn_id, position, start, clock, text)
        clock += GAP_S
    session_el.set("stime", _time(0.0))
    session_el.set("etime", _time(clock - GAP_S))
    _order_session_attributes(session_el)
    etree.indent(root, space="  ")
    note = etree.tostring(etree.Comment(f" {comment_safe(comment)} "), encoding="UTF-8")
    return _DECLARATION + note + b"\n" + etree.tostring(root, encoding="UTF-8") + b"\n"


def write_logs(
    out_dir: Path, sessions: list[tuple[str, TextSession, str]], progress=None, guard: OutputGuard | None = None
) -> list[Path]:
    """Write each (file stem, session, comment) as OUT_DIR/STEM-hublog.xml, all or none; the paths written.

    GUARD, if given, refuses replacing a log already in OUT_DIR (one annotated since an earlier import)."""
    items = sessions if progress is None else progress(sessions, total=len(sessions))
    with StagedFolder(out_dir, guard) as staged:
        for stem, session, comment in items:
            staged.write(f"{stem}-hublog.xml", build_log(session, comment))
    return staged.files


def unique_names(names: list[str]) -> list[str]:
    """NAMES with repeats (ignoring case: file systems may) made unique by a .2, .3... suffix."""
    taken: set[str] = set()
    result = []
    for name in names:
        candidate, number = name, 1
        while candidate.lower() in taken:
            number += 1
            candidate = f"{name}.{number}"
        taken.add(candidate.lower())
        result.append(candidate)
    return result


def import_marker(session: Session) -> dict[str, str]:
    """What an import recorded in SESSION's IMPORT event ({} for a real log)."""
    for event in session.el.iter("GC_EVENT"):
        if event.get("etype") == IMPORT_EVENT_TYPE:
            return {key: clean_text(data.text) for data in event.iterchildren("GC_DATA") if (key := data.get("key"))}
    return {}


def nmtoken(text: str | None, fallback: str = "x") -> str:
    """TEXT made a valid NMTOKEN (ASCII letters, digits and . : - _), for ids written into logs."""
    return _NOT_NMTOKEN.sub("_", clean_text(text)) or fallback


def xml_safe(text: str | None) -> str:
    """TEXT with whitespace collapsed and characters XML cannot hold replaced by U+FFFD."""
    return _NOT_XML.sub("\ufffd", clean_text(text))


def comment_safe(text: str) -> str:
    """TEXT fit for an XML comment: no "--", no trailing "-"."""
    text = xml_safe(text)
    while "--" in text:
        text = text.replace("--", "- -")
    return text.rstrip("-")


def _add_import_event(turn_el: etree._Element, turn_id: str, time: float, source: dict[str, str]) -> None:
    event = etree.SubElement(
        turn_el,
        "GC_EVENT",
        etype=IMPORT_EVENT_TYPE,
        name="import",
        server="annotator",
        location="annotator",
        turnid=turn_id,
        time=_time(time),
    )
    for key, value in {SYNTHETIC_TIMES_KEY: "true", **source}.items():
        etree.SubElement(event, "GC_DATA", key=key, dtype="string").text = xml_safe(value)


def _add_operation(
    turn_el: etree._Element, turn: TextTurn, turn_id: str, position: int, start: float, end: float, text: str
) -> None:
    side = turn.speaker
    operation = etree.SubElement(
        turn_el,
        "GC_OPERATION",
        {
            "name": "user_input" if side == "user" else "system_output",
            "server": "import",
            "location": "import",
            "turnid": turn_id,
            "tidx": str(position),
            "stime": _time(start),
            "etime": _time(end),
            "type_new_turn": side,
            "type_start_utt": side,
            "type_end_utt": side,
        },
    )
    if side == "user":
        attributes = {"key": ":input_string", "type": "text_input", "type_utt_text": "asr", "dtype": "string"}
    else:
        attributes = {"key": ":reply_string", "type": "text_output", "type_utt_text": "system", "dtype": "string"}
    etree.SubElement(operation, "GC_DATA", attributes).text = text


def _order_session_attributes(session_el: etree._Element) -> None:
    """id, stime, etime in the standard's order (stime and etime are known only at the end)."""
    values = attribute_dict(session_el)
    session_el.attrib.clear()
    for name in ("id", "stime", "etime"):
        session_el.set(name, values[name])


def _time(seconds: float) -> str:
    return f"{seconds:.3f}"
