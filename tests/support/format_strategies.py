"""Hypothesis strategies for the format tests: small valid logs with awkward texts, and what they hold.

A generated log has 1-3 sessions; each turn is a user turn (recognizer text and/or
a transcription, either possibly empty or missing), a system turn (text_output,
possibly empty, perhaps a type_prompt or an error/help mark) or, now and then, a
turn of unknown side. Sides repeat freely, so merging is exercised. Texts mix
words with what breaks line formats: line breaks, tabs, "User: ", "System: ",
"----init", [noise] tokens, XML's special characters, non-ASCII letters.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import strategies as st
from lxml import etree

WORDS = [
    "flight",
    "to",
    "zürich",
    "São",
    "Paulo",
    "[noise]",
    "<breath>",
    "User:",
    "System:",
    "----init",
    "a&b",
    "<x>",
    "don't",
    "well-known",
    "ok.",
    "жук",
    "λ",
    '"quoted"',
    "tab\there",
    "line\nbreak",
    "cr\rhere",
    "50%",
    "(paren)",
    "x_y",
    "Ünïcödé",
]
WORD = st.one_of(st.sampled_from(WORDS), st.text(alphabet="abcdeéüß'-", min_size=1, max_size=6))
SPACES = st.sampled_from([" ", "  ", "\n", "\t", " \n "])
TEXT = st.lists(st.tuples(WORD, SPACES), min_size=1, max_size=6).map(lambda parts: "".join(w + s for w, s in parts))
MAYBE_TEXT = st.one_of(st.none(), st.just(""), st.just("  \n "), TEXT)


@dataclass
class GenTurn:
    turn_id: str
    side: str | None  # "user", "system" or None (no side the log says)
    asr: str | None = None
    transcription: str | None = None
    system: str | None = None
    prompt: str | None = None
    error: bool = False
    help: bool = False


@dataclass
class GenSession:
    session_id: str
    turns: list[GenTurn] = field(default_factory=list)
    task_completion: str | None = None


@st.composite
def gen_turn(draw, turn_id: str) -> GenTurn:
    side = draw(st.sampled_from(["user", "user", "system", "system", None]))
    turn = GenTurn(turn_id, side)
    if side == "user":
        turn.asr = draw(MAYBE_TEXT)
        turn.transcription = draw(MAYBE_TEXT)
    elif side == "system":
        turn.system = draw(MAYBE_TEXT)
        turn.prompt = draw(st.sampled_from([None, ":destination", ":source", "date"]))
        turn.error = draw(st.booleans())
        turn.help = draw(st.booleans())
    return turn


@st.composite
def gen_sessions(draw, min_sessions: int = 1, max_sessions: int = 3) -> list[GenSession]:
    sessions = []
    for number in range(draw(st.integers(min_sessions, max_sessions))):
        session_id = draw(st.sampled_from([f"s{number}", f"call-{number}_x", f"site:{number}:7"]))
        style = draw(st.sampled_from(["{}", "{:02d}", "-{:02d}"]))
        count = draw(st.integers(1, 8))
        turns = [draw(gen_turn(style.format(i))) for i in range(1, count + 1)]
        sessions.append(GenSession(session_id, turns, draw(st.sampled_from([None, "0", "1"]))))
    return sessions


def write_generated_log(path: Path, sessions: list[GenSession], start: float = 1_000_000_000.0) -> Path:
    """Write SESSIONS as a log (real XML, built with lxml so every text is escaped)."""
    root = etree.Element("GC_LOG")
    clock = start
    for session in sessions:
        session_el = etree.SubElement(root, "GC_SESSION", id=session.session_id, stime=f"{clock:.3f}")
        if session.task_completion is not None:
            etree.SubElement(session_el, "GC_ANNOT", type_task_completion=session.task_completion)
        for turn in session.turns:
            _turn(session_el, turn, clock)
            clock += 3.0
        session_el.set("etime", f"{clock:.3f}")
    path.write_bytes(b'<?xml version="1.0" encoding="UTF-8"?>\n' + etree.tostring(root, encoding="UTF-8"))
    return path


def _turn(session_el: etree._Element, turn: GenTurn, start: float) -> None:
    turn_el = etree.SubElement(session_el, "GC_TURN", id=turn.turn_id, stime=f"{start:.3f}", etime=f"{start + 2:.3f}")
    if turn.transcription is not None:
        annotation = etree.SubElement(turn_el, "GC_ANNOT", turnid=turn.turn_id)
        etree.SubElement(
            annotation, "GC_DATA", key=":transcription", type_utt_text="transcription", dtype="string"
        ).text = turn.transcription
    attributes = {
        "turnid": turn.turn_id,
        "stime": f"{start:.3f}",
        "etime": f"{start + 1:.3f}",
        "server": "s",
        "location": "localhost:1",
        "name": "op",
    }
    if turn.side is not None:
        attributes["type_new_turn"] = turn.side
    if turn.prompt:
        attributes["type_prompt"] = turn.prompt
    operation = etree.SubElement(turn_el, "GC_OPERATION", attributes)
    if turn.side == "user":
        etree.SubElement(operation, "GC_DATA", key=":utterance_file", type="audio_input").text = f"u{turn.turn_id}.wav"
        if turn.asr is not None:
            etree.SubElement(
                operation, "GC_DATA", key=":input_string", type="text_input", type_utt_text="asr"
            ).text = turn.asr
    elif turn.side == "system" and turn.system is not None:
        data = etree.SubElement(operation, "GC_DATA", key=":reply_string", type="text_output", type_utt_text="system")
        data.text = turn.system
        if turn.error:
            data.set("type_error_msg", "true")
        if turn.help:
            data.set("type_help_msg", "true")
