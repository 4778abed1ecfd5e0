"""What a turn says, gathered in one pass over its elements: the rules behind Turn's properties.

Turn.speaker, .asr_text, .system_text, .audio_data, .transcription, the
session metrics and the CSV export all read these facts, so the rules below
exist once:

- activities are the turn's GC_OPERATION, GC_MESSAGE and GC_EVENT children;
  their GC_DATA at any depth are the turn's data (not those of annotations);
- speaker: the first activity's type_new_turn that is "user" or "system",
  else likewise type_start_utt, else the first GC_DATA telling a side: user
  for type audio_input / text_input or type_utt_text="asr", system for
  text_output / audio_output or type_utt_text="system";
- recognizer text: the GC_DATA with type_utt_text="asr", else those of type
  text_input; system text likewise with "system" / text_output; each text
  whitespace-collapsed, the non-empty ones joined by a space, None if none;
- audio: the first GC_DATA of type audio_input / audio_output;
- transcription: the first GC_ANNOT of the turn holding a GC_DATA child with
  type_utt_text="transcription" or key ":transcription", else the first such
  session-level GC_ANNOT whose turnid names the turn;
- parse results: GC_DATA with key ":input_parse_successful" or type
  input_parse_successful;
- n-best hypotheses: GC_DATA of type text_input_hypothesis, or keyed
  ":nbest_list[k]" (annotator.log.nbest orders them and finds their scores);
- recognizer scores: GC_DATA keyed ":rec_scores";
- the parse: GC_DATA of type concept (the parser's concept frame);
- reference concepts: the first GC_DATA keyed ":concepts" in the turn's own
  GC_ANNOTs (annotator.log.concepts reads both frames).
- notes: the first GC_DATA keyed ":flags", ":comment", ":time_spent" in the turn's own GC_ANNOTs
  (annotator.log.flags).
- prompt type: the first non-blank type_prompt of the turn's activities (what the system asked for).

The pass reads attributes straight off the lxml elements (a view per GC_DATA
would cost more than the reading) and keeps elements, not views.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from lxml import etree

from annotator.log.concepts import concepts_data
from annotator.log.flags import read_notes
from annotator.log.text import clean_text
from annotator.log.turn_ids import TurnKey, turn_key

if TYPE_CHECKING:  # nbest reads these facts: a run-time import would be circular
    from annotator.log.nbest import Hypothesis

ACTIVITY_TAGS = ("GC_OPERATION", "GC_MESSAGE", "GC_EVENT")
EVENT_TAGS = ACTIVITY_TAGS + ("GC_ANNOT",)  # what happened in a session: the activity and the annotations
TRANSCRIPTION_KEY = ":transcription"
PARSE_RESULT_KEY = ":input_parse_successful"
PARSE_RESULT_TYPE = "input_parse_successful"
HYPOTHESIS_TYPE = "text_input_hypothesis"
NBEST_KEY_PREFIX = ":nbest_list["
REC_SCORES_KEY = ":rec_scores"
CONCEPT_TYPE = "concept"


class TurnFacts:
    """A snapshot of what one GC_TURN says (elements are lxml elements, texts are collapsed)."""

    __slots__ = (
        "speaker",
        "asr_data",
        "asr_marked",
        "asr_text",
        "system_data",
        "system_marked",
        "system_data_at",
        "system_text",
        "audio_input",
        "audio_output",
        "transcription",
        "parse_data",
        "hypothesis_data",
        "score_data",
        "concept_data",
        "reference_concepts_data",
        "notes",
        "prompt_type",
        "n_operations",
        "n_messages",
        "n_events",
        "hypotheses_memo",
    )

    def __init__(self) -> None:
        self.speaker: str | None = None  # "user", "system" or None
        self.asr_data: list[etree._Element] = []  # the recognizer's text GC_DATA
        self.asr_marked = False  # asr_data carry type_utt_text="asr" (else they are the text_input fallback)
        self.asr_text: str | None = None
        self.system_data: list[etree._Element] = []
        self.system_marked = False  # system_data carry type_utt_text="system"
        self.system_data_at: list[int] = []  # for each system_data element, its activity's index in the turn
        self.system_text: str | None = None
        self.audio_input: etree._Element | None = None  # the GC_DATA naming the user's audio
        self.audio_output: etree._Element | None = None
        self.transcription: str | None = None
        self.parse_data: list[etree._Element] = []
        self.hypothesis_data: list[etree._Element] = []  # the n-best hypotheses, in document order
        self.score_data: list[etree._Element] = []  # the :rec_scores GC_DATA
        self.concept_data: list[etree._Element] = []  # the parser's concept GC_DATA
        self.reference_concepts_data: etree._Element | None = None  # the annotator's, in a GC_ANNOT
        self.notes: dict[str, str] | None = None  # flags, comment, time spent by kind (annotator.log.flags)
        self.prompt_type: str | None = None  # the first non-blank type_prompt of an activity, trimmed
        self.n_operations = 0
        self.n_messages = 0
        self.n_events = 0
        # annotator.log.nbest.hypotheses keeps its answer here: the oracle columns, the doubt score and the
        # n-best pane all ask for the same turn's list, and these facts are remade whenever the turn changes.
        self.hypotheses_memo: tuple[Hypothesis, ...] | None = None

    def audio(self, direction: str) -> etree._Element | None:
        """audio_input for 'input', audio_output for 'output'."""
        return self.audio_input if direction == "input" else self.audio_output if direction == "output" else None


def _joined(elements: list[etree._Element]) -> str | None:
    texts = [text for text in (clean_text(el.text) for el in elements) if text]
    return " ".join(texts) if texts else None


def _side_of(utt_text: str | None, types: list[str] | tuple[()]) -> str | None:
    """The side a GC_DATA tells (its type_utt_text and type tokens), if any."""
    if utt_text == "asr" or "audio_input" in types or "text_input" in types:
        return "user"
    if utt_text == "system" or "text_output" in types or "audio_output" in types:
        return "system"
    return None


def transcription_data(annotation: etree._Element) -> etree._Element | None:
    """The GC_DATA child of a GC_ANNOT that holds a transcription, if any."""
    for data in annotation.iterchildren("GC_DATA"):
        if data.get("type_utt_text") == "transcription" or data.get("key") == TRANSCRIPTION_KEY:
            return data
    return None


def session_transcriptions(session: etree._Element) -> dict[TurnKey | None, str]:
    """Turn key -> transcription text of the session-level GC_ANNOTs (the first one per turnid)."""
    found: dict[TurnKey | None, str] = {}
    for annotation in session.iterchildren("GC_ANNOT"):
        data = transcription_data(annotation)
        if data is not None:
            found.setdefault(turn_key(annotation.get("turnid")), clean_text(data.text))
    return found


def turn_transcription(turn: etree._Element) -> str | None:
    """The transcription held by the turn's own GC_ANNOTs (not the session-level ones)."""
    for annotation in turn.iterchildren("GC_ANNOT"):
        data = transcription_data(annotation)
        if data is not None:
            return clean_text(data.text)
    return None


def scan_turn(turn: etree._Element) -> TurnFacts:
    """The facts of one GC_TURN; transcription covers only the turn's own GC_ANNOTs
    (Turn.facts and Session.turn_facts add the session-level ones)."""
    facts = TurnFacts()
    for _activity in walk_turn(turn, facts):
        pass
    return facts


def walk_turn(turn: etree._Element, facts: TurnFacts) -> Iterator[tuple[etree._Element, bool]]:
    """Fill FACTS from TURN while yielding (element, is a child of the turn) for every
    GC_OPERATION, GC_MESSAGE and GC_EVENT below the turn, in document order.

    For a caller that walks the activities too (the metrics, the CSV export):
    one walk instead of two spares an lxml iteration (a proxy object per
    element, 0.2 s on a 100 MB log). FACTS are complete once the iteration
    ends. Elements nested in annotations or data (not valid, but seen) are
    yielded with False and say nothing about the turn.
    """
    new_turn = start_utt = data_side = None
    asr: list[etree._Element] = []
    asr_fallback: list[etree._Element] = []
    system = facts.system_data
    system_at = facts.system_data_at
    system_fallback: list[etree._Element] = []
    system_fallback_at: list[int] = []
    parse = facts.parse_data
    hypotheses = facts.hypothesis_data
    scores = facts.score_data
    concepts = facts.concept_data
    audio_input = audio_output = None
    n_operations = n_messages = n_events = 0
    index = -1  # of the activity among the turn's activities
    for child in turn.iterchildren():
        tag = child.tag
        if tag == "GC_OPERATION":
            n_operations += 1
        elif tag == "GC_MESSAGE":
            n_messages += 1
        elif tag == "GC_EVENT":
            n_events += 1
        else:
            if tag == "GC_ANNOT":
                if facts.transcription is None:
                    data = transcription_data(child)
                    if data is not None:
                        facts.transcription = clean_text(data.text)
                if facts.reference_concepts_data is None:
                    facts.reference_concepts_data = concepts_data(child)
                facts.notes = read_notes(child, facts.notes)
            if isinstance(tag, str) and len(child):  # not a comment; activities below are no turn's
                for nested in child.iter(*ACTIVITY_TAGS):
                    yield nested, False
            continue
        index += 1
        if new_turn is None:
            value = child.get("type_new_turn")
            if value == "user" or value == "system":
                new_turn = value
            elif start_utt is None:  # needed only while no type_new_turn decides
                value = child.get("type_start_utt")
                if value == "user" or value == "system":
                    start_utt = value
        if facts.prompt_type is None:
            prompt = child.get("type_prompt")
            if prompt is not None and prompt.strip():
                facts.prompt_type = prompt.strip()
        yield child, True
        if not len(child):
            continue  # no GC_DATA below (most events and many operations)
        # All elements below, tags compared here: lxml's per-call tag matcher costs more than
        # stepping over the frames and lists.
        for data in child.iterdescendants(tag=etree.Element):
            tag = data.tag
            if tag != "GC_DATA":
                if tag in ACTIVITY_TAGS:
                    yield data, False
                continue
            get = data.get
            utt = get("type_utt_text")
            types = get("type")
            if utt is not None:
                if utt == "asr":
                    asr.append(data)
                elif utt == "system":
                    system.append(data)
                    system_at.append(index)
            key = get("key")
            if key == PARSE_RESULT_KEY:
                parse.append(data)
                tokens = types.split() if types else ()
            elif types and ("_input" in types or "_output" in types or PARSE_RESULT_TYPE in types):
                # Cheap substring test first: most GC_DATA carry no type.
                tokens = types.split()
                if PARSE_RESULT_TYPE in tokens:
                    parse.append(data)
            else:
                tokens = ()
            if key is not None and key.startswith(":"):
                if key == REC_SCORES_KEY:
                    scores.append(data)
                elif key.startswith(NBEST_KEY_PREFIX) and HYPOTHESIS_TYPE not in tokens:
                    hypotheses.append(data)
            if not tokens and types and CONCEPT_TYPE in types and CONCEPT_TYPE in types.split():
                concepts.append(data)
            if tokens:
                if HYPOTHESIS_TYPE in tokens:
                    hypotheses.append(data)
                if "text_input" in tokens:
                    asr_fallback.append(data)
                if "text_output" in tokens:
                    system_fallback.append(data)
                    system_fallback_at.append(index)
                if audio_input is None and "audio_input" in tokens:
                    audio_input = data
                if audio_output is None and "audio_output" in tokens:
                    audio_output = data
            if data_side is None and (utt is not None or tokens):
                data_side = _side_of(utt, tokens)
    facts.speaker = new_turn or start_utt or data_side
    if asr:
        facts.asr_data, facts.asr_marked = asr, True
    else:
        facts.asr_data = asr_fallback
    if system:
        facts.system_marked = True
    else:
        facts.system_data, facts.system_data_at = system_fallback, system_fallback_at
    facts.asr_text = _joined(facts.asr_data)
    facts.system_text = _joined(facts.system_data)
    facts.audio_input, facts.audio_output = audio_input, audio_output
    facts.n_operations, facts.n_messages, facts.n_events = n_operations, n_messages, n_events
