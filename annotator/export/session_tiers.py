"""A session as the interval tiers Praat and ELAN show, the same for the export and the fold back.

    tiers = session_tiers(session, build_timeline(session))
    tiers.tiers["transcription"]     # [Interval(start_ms, end_ms, text), ...] in time order
    tiers.user_turns                 # [(Interval of the recognizer tier, turn index), ...]

Tiers, named exactly (TIER_NAMES):
- `turns`: every timed turn, "ID speaker" (speaker user, system or unknown);
- `recognizer`: each user turn, what the recognizer heard (empty when it heard nothing);
- `transcription`: each user turn its own interval, bounded as in `recognizer`, holding the
  transcription (empty where there is none): the tier an annotator types into;
- `system`: each system turn, what the system said;
- `concepts`: each user turn its reference concepts as `slot=value; slot=value`, only when some
  user turn of the session has reference concepts;
- `user words`, `system words` (WORD_TIERS): each word of each aligned turn of that side, placed where
  the turn's audio is placed in the session's WAV (the timeline's audio lane) plus the word's time in
  that audio; only when some turn of the session is aligned (annotator.export.words_rows: the words
  `annotator align` kept). Words are not folded back.

A turn's interval is its span on the timeline (its stime and etime, else the span of the times
inside it; annotator.timeline.data), in whole milliseconds from the session start. An interval
tier cannot hold overlapping intervals, so where a turn starts before the one before it in the
same tier ends, the earlier one is cut at that start; a turn of no length gets one millisecond.
The fold recomputes these tiers from the log and compares, so both sides cut alike.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

from annotator.export.words_rows import TurnWords
from annotator.log.concepts import Concepts, reference_concepts
from annotator.log.elements import Session
from annotator.log.text import clean_text
from annotator.timeline.data import TimelineData

TURNS, RECOGNIZER, TRANSCRIPTION, SYSTEM, CONCEPTS = "turns", "recognizer", "transcription", "system", "concepts"
TIER_NAMES = (TURNS, RECOGNIZER, TRANSCRIPTION, SYSTEM, CONCEPTS)
WORD_TIERS = {"user": "user words", "system": "system words"}
_CONCEPT_SPECIAL = "\\;="


@dataclass(frozen=True)
class Interval:
    start: int  # milliseconds from the session start
    end: int
    text: str

    def seconds(self) -> tuple[float, float]:
        return self.start / 1000, self.end / 1000


@dataclass
class SessionTiers:
    session_id: str
    duration_ms: int  # the session's length: where every tier and the WAV end
    tiers: dict[str, list[Interval]] = field(default_factory=dict)  # in TIER_NAMES order
    user_turns: list[tuple[Interval, int]] = field(default_factory=list)  # recognizer interval, turn index
    started: float | None = None  # the session's start in seconds of the log's clock (epoch seconds as logged)

    @cached_property
    def user_starts(self) -> list[int]:  # for binary searches: made once, when user_turns is complete
        return [interval.start for interval, _ in self.user_turns]

    @cached_property
    def user_ends(self) -> list[int]:
        return [interval.end for interval, _ in self.user_turns]


def session_tiers(session: Session, timeline: TimelineData, words: dict[int, TurnWords] | None = None) -> SessionTiers:
    """The tiers of SESSION, placed as TIMELINE (build_timeline of the session) places its turns; WORDS
    are its aligned turns' words by turn index (annotator.export.words_rows.sessions_words)."""
    turns = timeline.turns
    spans = [
        (_ms(start), _ms(end), index)
        for start, end, index in zip(turns.starts.tolist(), turns.ends.tolist(), turns.payloads)
    ]
    turn_tier = [
        Interval(start, end, f"{session.turns[index].id} {timeline.speakers[index] or 'unknown'}")
        for start, end, index in _cut_overlaps(spans)
    ]
    by_side: dict[str, list[tuple[int, int, int]]] = {"user": [], "system": []}
    for span in spans:
        by_side.get(timeline.speakers[span[2]] or "", []).append(span)
    users = _cut_overlaps(by_side["user"])
    origin = session.origin
    result = SessionTiers(
        session.id, 0, {TURNS: turn_tier}, started=None if origin is None else session.unit.to_seconds(origin)
    )
    result.tiers[RECOGNIZER] = [Interval(s, e, clean_text(session.turns[i].asr_text)) for s, e, i in users]
    result.tiers[TRANSCRIPTION] = [Interval(s, e, clean_text(session.turns[i].transcription)) for s, e, i in users]
    result.tiers[SYSTEM] = [
        Interval(s, e, clean_text(session.turns[i].system_text)) for s, e, i in _cut_overlaps(by_side["system"])
    ]
    concepts = [reference_concepts(session.turns[i].facts()) for _s, _e, i in users]
    if any(found is not None for found in concepts):
        result.tiers[CONCEPTS] = [
            Interval(s, e, "" if found is None else concepts_text(found)) for (s, e, _i), found in zip(users, concepts)
        ]
    if words:
        result.tiers.update(word_tiers(timeline, words))
    result.user_turns = [(interval, index) for interval, (_s, _e, index) in zip(result.tiers[RECOGNIZER], users)]
    ends = [interval.end for tier in result.tiers.values() for interval in tier]
    result.duration_ms = max([_ms(timeline.extent), *ends, 1])
    return result


def word_tiers(timeline: TimelineData, words: dict[int, TurnWords]) -> dict[str, list[Interval]]:
    """A words tier per side: each word at its turn's audio's place on the timeline plus its time in
    that audio (the turn's audio file: the one it was aligned on)."""
    spans: dict[str, list[tuple[int, int, str]]] = {side: [] for side in WORD_TIERS}
    lane = timeline.audio_lane
    if lane is not None:
        for start, segment in zip(lane.bars.starts.tolist(), lane.bars.payloads):
            turn = words.get(segment.turn_index) if segment.turn_index is not None else None
            if turn is None or segment.side != turn.turn.speaker or segment.located.path != turn.turn.audio:
                continue
            at = max(start, 0.0)  # as the session's WAV places the clip
            spans[segment.side] += [(_ms(at + word.start), _ms(at + word.end), word.text) for word in turn.words]
    tiers = {}
    for side, name in WORD_TIERS.items():
        placed = sorted(spans[side], key=lambda span: span[:2])
        texts = [text for _, _, text in placed]
        cut = _cut_overlaps([(start, end, number) for number, (start, end, _) in enumerate(placed)])
        tiers[name] = [Interval(start, end, texts[number]) for start, end, number in cut]
    return tiers


def concepts_text(concepts: Concepts) -> str:
    """`slot=value; slot=value` (a backslash escapes "\\", ";" and "=" in paths and values)."""
    return "; ".join(f"{_escape(path)}={_escape(value)}" for path, value in concepts.slots)


def parse_concepts_text(text: str, frame: str) -> Concepts:
    """The concepts a `slot=value; ...` text gives, in FRAME; raises ValueError naming a slot without "="."""
    slots = []
    for part in _unescaped_split(text, ";"):
        if not part.strip():
            continue
        pieces = _unescaped_split(part, "=", limit=1)
        if len(pieces) < 2:
            raise ValueError(f"concepts slot {part.strip()!r} has no '='")
        slots.append((_unescape(pieces[0]).strip(), _unescape(pieces[1]).strip()))
    return Concepts(frame, tuple(slots))


def _unescaped_split(text: str, separator: str, limit: int = -1) -> list[str]:
    """TEXT cut at each SEPARATOR no backslash escapes (at most LIMIT cuts), escapes kept in the parts."""
    parts: list[str] = []
    current: list[str] = []
    escaped = False
    for char in text:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == separator and limit != 0:
            parts.append("".join(current))
            current, limit = [], limit - 1
            continue
        current.append(char)
    return [*parts, "".join(current)]


def _cut_overlaps(spans: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """SPANS (sorted by start) made a valid interval tier: at least 1 ms long, none overlapping the next."""
    kept: list[tuple[int, int, int]] = []
    for start, end, index in spans:
        start = max(start, 0)
        end = max(end, start + 1)
        if kept and kept[-1][1] > start:
            previous = kept.pop()
            if previous[0] < start:
                kept.append((previous[0], start, previous[2]))
            else:  # two turns starting in the same millisecond: the later one starts after the first
                kept.append(previous)
                start, end = previous[1], max(end, previous[1] + 1)
        kept.append((start, end, index))
    return kept


def _ms(seconds: float) -> int:
    return int(round(seconds * 1000))


def _escape(text: str) -> str:
    return "".join("\\" + c if c in _CONCEPT_SPECIAL else c for c in text)


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
