"""What turns.csv needs of a turn, gathered in one pass over its elements.

Turn.asr_text, Turn.system_text and Turn.audio_data each walk every GC_DATA
of the turn, twice when they fall back; for a 100 MB log that is seconds.
This pass reads the same facts straight off the lxml elements once, with the
views' rules (tests/export checks that both agree):

- recognizer text: GC_DATA with type_utt_text="asr", else those of type
  text_input; system text likewise with "system" / text_output; the texts
  whitespace-collapsed and joined by a space, None when all are empty;
- audio: the first GC_DATA of type audio_input / audio_output;
- only GC_DATA under the turn's operations, messages and events count (at
  any depth), not those of annotations.
"""

from __future__ import annotations

from lxml import etree

from annotator.log.text import clean_text
from annotator.log.views import ACTIVITY_TAGS


class TurnFacts:
    __slots__ = ("asr_text", "system_text", "audio_input", "audio_output", "n_operations", "n_messages", "n_events")

    def __init__(self) -> None:
        self.asr_text: str | None = None
        self.system_text: str | None = None
        self.audio_input: str | None = None  # the path as written
        self.audio_output: str | None = None
        self.n_operations = 0
        self.n_messages = 0
        self.n_events = 0


def _joined(elements: list[etree._Element]) -> str | None:
    texts = [text for text in (clean_text(el.text) for el in elements) if text]
    return " ".join(texts) if texts else None


def scan_turn(turn_el: etree._Element) -> TurnFacts:
    facts = TurnFacts()
    asr: list[etree._Element] = []
    asr_fallback: list[etree._Element] = []
    system: list[etree._Element] = []
    system_fallback: list[etree._Element] = []
    audio_input = audio_output = None
    for activity in turn_el.iterchildren(*ACTIVITY_TAGS):
        tag = activity.tag
        if tag == "GC_OPERATION":
            facts.n_operations += 1
        elif tag == "GC_MESSAGE":
            facts.n_messages += 1
        else:
            facts.n_events += 1
        for data in activity.iter("GC_DATA"):
            utt = data.get("type_utt_text")
            if utt == "asr":
                asr.append(data)
            elif utt == "system":
                system.append(data)
            types = data.get("type")
            # Cheap substring test first: most GC_DATA carry no type or types like "concept".
            if types and ("_input" in types or "_output" in types):
                tokens = types.split()
                if "text_input" in tokens:
                    asr_fallback.append(data)
                if "text_output" in tokens:
                    system_fallback.append(data)
                if audio_input is None and "audio_input" in tokens:
                    audio_input = data
                if audio_output is None and "audio_output" in tokens:
                    audio_output = data
    facts.asr_text = _joined(asr or asr_fallback)
    facts.system_text = _joined(system or system_fallback)
    facts.audio_input = None if audio_input is None else clean_text(audio_input.text)
    facts.audio_output = None if audio_output is None else clean_text(audio_output.text)
    return facts
