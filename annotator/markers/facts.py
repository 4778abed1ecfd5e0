"""One pass over a log's events collecting what the loaded conditions ask about.

A marker set is evaluated on whole arrays of events (see operators.py), so
the only per-element work is here: walk each session's GC_OPERATION,
GC_MESSAGE, GC_EVENT and GC_ANNOT elements once, in document order, and
note the few attributes the conditions need as sparse lists of event
indices. Reading an attribute through lxml costs about as much as visiting
the element, so `FactNeeds` says which attributes are worth reading: a
marker set about prompts never reads operation names, and one without
data conditions never visits a GC_DATA.

Event indices here are file-level: the events of all sessions, numbered
from 0 in document order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, cast

from annotator.log.gc_pause import gc_paused
from annotator.log.turn_facts import EVENT_TAGS, TRANSCRIPTION_KEY

if TYPE_CHECKING:
    from lxml import etree

    from annotator.log.document import LogDocument

TEXT_KINDS = (
    "asr",
    "system",
    "transcription",
    "transciption",
)  # type_utt_text values text_matches reads (the standard spells it "transciption")


def normalise_key(key: str) -> str:
    """Communicator keys are written with or without their leading colon (":source" / "source")."""
    key = key.strip()
    return key[1:] if key.startswith(":") else key


@dataclass(frozen=True)
class FactNeeds:
    """Which facts the scan collects; the union over all conditions of a marker set."""

    names: bool = False  # GC_OPERATION / GC_MESSAGE name (action)
    servers: bool = False  # server of operations, messages, events (server)
    etypes: bool = False  # GC_EVENT etype (event)
    prompts: bool = False  # type_prompt (prompt)
    completions: bool = False  # GC_ANNOT task completion (task_completion)
    data_types: bool = False  # tokens of GC_DATA type (data_type)
    concepts: bool = False  # first GC_FRAME of concept GC_DATA (intent)
    flags: bool = False  # type_error_msg / type_help_msg on system text
    texts: bool = False  # recognizer, system and transcription text (text_matches)
    slot_keys: frozenset[str] = frozenset()  # normalised GC_DATA keys (slot_was_set)

    def __or__(self, other: FactNeeds) -> FactNeeds:
        values = {f.name: getattr(self, f.name) | getattr(other, f.name) for f in fields(self)}
        return FactNeeds(**values)

    @property
    def data(self) -> bool:
        return bool(self.data_types or self.concepts or self.flags or self.texts or self.slot_keys)


@dataclass
class LogFacts:
    """What one scan found; every list holds file-level event indices in document order."""

    doc: LogDocument
    events: list[etree._Element] = field(default_factory=list)
    session_starts: list[int] = field(default_factory=list)  # index of each session's first event
    names: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    servers: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    etypes: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    prompts: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))  # normalised keys
    completions: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    data_types: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    flags: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))  # "error" / "help"
    concepts: list[tuple[int, str]] = field(default_factory=list)  # (event, first frame name)
    texts: list[tuple[int, str]] = field(default_factory=list)  # (event, raw text)
    slots: dict[str, list[tuple[int, bool]]] = field(default_factory=lambda: defaultdict(list))  # (event, set?)
    _turns: dict | None = None  # GC_TURN element -> Turn view, built when first needed

    @property
    def count(self) -> int:
        return len(self.events)

    def user_turn_starts(self, first: int, last: int) -> list[int]:
        """Indices of the events from FIRST to LAST (inclusive) with type_new_turn="user".

        Read on demand, for the sessions where a marker is reported: most
        sessions of a corpus need not be read twice.
        """
        events = self.events
        return [i for i in range(first, last + 1) if events[i].get("type_new_turn") == "user"]

    def in_user_turn(self, event_index: int) -> bool:
        """Whether the event sits directly in a GC_TURN whose speaker (Turn.speaker) is the user."""
        parent = self.events[event_index].getparent()
        if parent is None or parent.tag != "GC_TURN":
            return False
        if self._turns is None:
            self._turns = {turn.el: turn for session in self.doc.sessions for turn in session.turns}
        turn = self._turns.get(parent)
        return turn is not None and turn.speaker == "user"


def scan_log(doc: LogDocument, needs: FactNeeds) -> LogFacts:
    """Walk every session's events once and collect the facts NEEDS asks for."""
    facts = LogFacts(doc)
    events = facts.events
    add_event = events.append
    scan = _event_scanner(facts, needs)
    with gc_paused():
        for session in doc.sessions:
            facts.session_starts.append(len(events))
            if scan is None:
                events += session.el.iter(*EVENT_TAGS)
                continue
            for el in session.el.iter(*EVENT_TAGS):
                index = len(events)
                add_event(el)
                scan(el, index)
    return facts


def _event_scanner(facts: LogFacts, needs: FactNeeds):
    """A function (event element, index) reading what NEEDS asks of the event and its GC_DATA, or None."""
    want_names, want_servers, want_etypes = needs.names, needs.servers, needs.etypes
    want_prompts, want_completions = needs.prompts, needs.completions
    names, servers, etypes, prompts, completions = (
        facts.names,
        facts.servers,
        facts.etypes,
        facts.prompts,
        facts.completions,
    )
    scan_data = _data_scanner(facts, needs) if needs.data else None
    if not (want_names or want_servers or want_etypes or want_prompts or want_completions or scan_data):
        return None

    def scan(el: etree._Element, index: int) -> None:
        tag = el.tag
        if want_names and (tag == "GC_OPERATION" or tag == "GC_MESSAGE"):
            name = el.get("name")
            if name is not None:
                names[name].append(index)
        if want_servers:
            server = el.get("server")
            if server is not None:
                servers[server].append(index)
        if want_etypes and tag == "GC_EVENT":
            etype = el.get("etype")
            if etype is not None:
                etypes[etype].append(index)
        if want_prompts:
            prompt = el.get("type_prompt")
            if prompt is not None:
                prompts[normalise_key(prompt)].append(index)
        if want_completions and tag == "GC_ANNOT":
            # The DTD's attribute; MITRE's human-annotation files write task_completion.
            value = el.get("type_task_completion")
            if value is None:
                value = el.get("task_completion")
            if value is not None:
                completions[value.strip()].append(index)
        if scan_data is not None and len(el):
            scan_data(el, tag, index)

    return scan


def _data_scanner(facts: LogFacts, needs: FactNeeds):
    """A function (event element, its tag, index) that reads the event's GC_DATA at any depth.

    Most GC_DATA have neither a type nor a type_utt_text; they cost two
    attribute reads and nothing more.
    """
    want_types = needs.data_types or needs.concepts or needs.texts or needs.flags
    want_utt = needs.texts or needs.flags
    want_data_types, want_concepts, want_flags, want_texts = needs.data_types, needs.concepts, needs.flags, needs.texts
    slot_keys = needs.slot_keys
    data_types, flags, concepts, texts, slots = facts.data_types, facts.flags, facts.concepts, facts.texts, facts.slots

    def scan(event: etree._Element, tag: str, index: int) -> None:
        in_annotation = tag == "GC_ANNOT"
        for data in event.iter("GC_DATA"):
            if slot_keys:
                key = data.get("key")
                if key is not None and normalise_key(key) in slot_keys:
                    text = "".join(cast("Iterator[str]", data.itertext()))  # lxml's text is str
                    slots[normalise_key(key)].append((index, bool(text.strip())))
            kind = data.get("type") if want_types else None
            utt = data.get("type_utt_text") if want_utt else None
            if kind is None and utt is None:
                if want_texts and in_annotation and data.get("key") == TRANSCRIPTION_KEY:
                    texts.append((index, data.text or ""))
                continue
            tokens = kind.split() if kind else ()
            if want_data_types:
                for token in tokens:
                    data_types[token].append(index)
            if want_concepts and "concept" in tokens:
                frame = next(data.iter("GC_FRAME"), None)
                name = None if frame is None else frame.get("name")
                if name is not None:
                    concepts.append((index, name))
            system = utt == "system" or utt is None and "text_output" in tokens
            if want_flags and system:
                for attribute, flag in (("type_error_msg", "error"), ("type_help_msg", "help")):
                    value = data.get(attribute)
                    if value is not None and value.strip().lower() == "true":
                        flags[flag].append(index)
            if want_texts and (
                system
                or utt in TEXT_KINDS
                or "text_input" in tokens
                or "text_output" in tokens
                or in_annotation
                and data.get("key") == TRANSCRIPTION_KEY
            ):
                texts.append((index, data.text or ""))

    return scan
