"""Hypothesis strategies for folding tests: small valid logs and annotation sets that fit them."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st
from lxml import etree

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.log.turn_ids import occurrences
from tests.support.xml_builders import log_text, session, system_turn, user_turn

# Letters, XML's special characters and non-ASCII letters (inside and outside Latin-1).
WORD = st.text(alphabet="abcxyz&<>'\"éüßñжλ", min_size=1, max_size=8)
TEXT = st.lists(WORD, min_size=1, max_size=6).map(" ".join)
COMPLETION = st.sampled_from(["0", "1"])


@dataclass
class GeneratedLog:
    text: str
    encoding: str
    turns: list[tuple[str, list[str]]]  # (session id, turn ids as written) of each session, in order

    def encoded(self) -> bytes:
        return self.text.encode(self.encoding)


@st.composite
def generated_logs(draw, encodings=("UTF-8", "ISO-8859-1")) -> GeneratedLog:
    """1-3 sessions of 2-8 turns, speakers alternating, ids "3", "03" or "-03"; compact or indented.
    Session ids may repeat (sessions sharing an id are told apart by their occurrence)."""
    encoding = draw(st.sampled_from(encodings))
    sessions, turns = [], []
    for _ in range(draw(st.integers(1, 3))):
        session_id = f"travel:{draw(st.integers(1, 3)):03d}"
        user_first = draw(st.booleans())
        ids, elements = [], []
        for index in range(1, draw(st.integers(2, 8)) + 1):
            turn_id = draw(st.sampled_from([str(index), f"{index:02d}", f"-{index:02d}"]))
            start = 1000.0 + 10 * index
            if (index % 2 == 1) == user_first:
                inner = draw(st.sampled_from([turn_id, str(int(turn_id))]))
                elements.append(user_turn(turn_id, start, "a flight to zürich", inner))
            else:
                elements.append(system_turn(turn_id, start, "where to?"))
            ids.append(turn_id)
        sessions.append(session(session_id, elements, 1000.0, 1200.0))
        turns.append((session_id, ids))
    text = log_text(sessions, encoding)
    if draw(st.booleans()):
        text = _indented(text, encoding)
    return GeneratedLog(text, encoding, turns)


def _indented(text: str, encoding: str) -> str:
    root = etree.fromstring(text.encode(encoding))
    etree.indent(root, space="  ")
    body = etree.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="{encoding}"?>\n{body}\n'


@st.composite
def annotation_sets(draw, log: GeneratedLog) -> AnnotationSet:
    """Transcriptions for some turns (ids spelled as in the log or as plain numbers), completion for some sessions."""
    annotations = AnnotationSet()
    session_ids = [session_id for session_id, _ in log.turns]
    for (session_id, ids), which in zip(log.turns, occurrences(session_ids)):
        if draw(st.booleans()):
            annotations.add_task_completion(session_id, draw(COMPLETION), session_occurrence=which)
        for turn_id in ids:
            if draw(st.booleans()):
                spelled = draw(st.sampled_from([turn_id, str(int(turn_id))]))
                annotations.add_transcription(session_id, spelled, draw(TEXT), session_occurrence=which)
    return annotations


def log_with_annotations(encodings=("UTF-8", "ISO-8859-1")):
    return generated_logs(encodings).flatmap(lambda log: st.tuples(st.just(log), annotation_sets(log)))
