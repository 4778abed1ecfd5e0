"""A line-by-line transcription of Rasa's marker evaluation (rasa/core/evaluation/marker.py and
marker_base.py, Rasa 3.x), to check our vectorised evaluation against.

Events are abstract: an operation name, a server, a prompt, whether it sets
(True), clears (False) or does not mention (None) the slot "k", and whether
it starts a user turn. Like Rasa, every marker keeps a history of booleans,
one per event; operators update their sub-markers first. Two deliberate
departures from Rasa 3.6, as the issue asks: negations are kept (its YAML
loader drops them) and a `seq` starts over in every session (its progress
is not reset).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    name: str
    server: str
    prompt: str | None
    slot: bool | None
    user: bool


class Reference:
    def __init__(self, tag: str, value: str | None = None, children: tuple[Reference, ...] = (), negated: bool = False):
        self.tag, self.value, self.children, self.negated = tag, value, children, negated
        self.history: list[bool] = []
        self.progress = 0

    def reset(self) -> None:
        for child in self.children:
            child.reset()
        self.history = []
        self.progress = 0

    def track(self, event: Event) -> None:
        for child in self.children:
            child.track(event)
        result = self._non_negated_version_applies_at(event)
        if self.negated:
            result = not result
        self.history.append(result)

    def _non_negated_version_applies_at(self, event: Event) -> bool:
        tag = self.tag
        if tag == "action":
            return event.name == self.value
        if tag == "server":
            return event.server == self.value
        if tag == "prompt":
            return event.prompt == self.value
        if tag == "slot_was_set":
            if event.slot is not None:
                return event.slot
            if self.history:
                return self.history[-1] if not self.negated else not self.history[-1]
            return False
        if tag == "and":
            return all(child.history[-1] for child in self.children)
        if tag == "or":
            return any(child.history[-1] for child in self.children)
        if tag == "not":
            return not self.children[0].history[-1]
        if tag == "seq":
            if self.children[self.progress].history[-1]:
                self.progress += 1
            if self.progress == len(self.children):
                self.progress = 0
                return True
            return False
        if tag == "at_least_once":
            occurred_before = False
            if self.history:
                occurred_before = self.history[-1]
                if self.negated:
                    occurred_before = not occurred_before
            return occurred_before or self.children[0].history[-1]
        raise ValueError(tag)

    def relevant_events(self) -> list[int]:
        if self.tag == "at_least_once":
            return [self.history.index(True)] if True in self.history else []
        return [index for index, applies in enumerate(self.history) if applies]


def evaluate(markers: dict[str, Reference], sessions: list[list[Event]]) -> list[tuple[str, int, int, int]]:
    """(marker, session index, file-level event index, preceding user turns), as Rasa orders its rows."""
    rows = []
    offset = 0
    for session_index, events in enumerate(sessions):
        preceding, users = [], 0
        for event in events:
            preceding.append(users)
            users += event.user
        for name, marker in markers.items():
            marker.reset()
            for event in events:
                marker.track(event)
            rows += [(name, session_index, offset + i, preceding[i]) for i in marker.relevant_events()]
        offset += len(events)
    return rows
