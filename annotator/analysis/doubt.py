"""How doubtful each user turn's recognition is: a score in [0, 1] from what the log holds (docs/metrics.md, "Doubt").

Five inputs, each a share c in [0, 1] with a weight w, combined as a noisy-OR:
doubt = 1 - prod(1 - w * c) over the inputs the log gives (a missing input leaves its factor out):

- score: the recognizer's :total_score per unit of speech (per frame, else per phone, else per
  word), in standard deviations below the session's mean of the same unit, over 2, capped at 1;
- n-best: the mean word distance of alternatives 2..5 to the top hypothesis, each over the
  longer of the two;
- reprompt: the system's next turn is an error or help message, or asks the same prompt type,
  or says the same text as the system turn before;
- denial: the system's next turn asks for confirmation and the user's next turn starts with
  no / nope / wrong (the turn being confirmed was misheard); or this turn itself answers a
  confirmation with such a word (its correction is what the recognizer missed before);
- parse: the turn's :input_parse_successful says the parse failed.

Everything is read from the session's TurnFacts, in one pass: each turn's own inputs, then the
session's mean and spread of scores, then each user turn with its neighbours' inputs (at most
LOOK_AROUND turns either way). Neither a transcription nor any annotation goes in, so the
scores of a session never change while it is annotated.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from annotator.analysis.metrics_scan import PARSE_TRUE
from annotator.log import nbest
from annotator.log.elements import Session, Turn
from annotator.log.text import normalize_words
from annotator.log.turn_facts import TurnFacts

WEIGHTS = {"score": 0.6, "nbest": 0.7, "reprompt": 0.6, "denial": 0.8, "denial_itself": 0.4, "parse": 0.5}
ALTERNATIVES = 5  # the top hypothesis and up to four alternatives
SCORE_SPREAD = 2.0  # standard deviations below the mean that make the score's share 1
MIN_SCORED_TURNS = 3  # fewer scored user turns in a session give no mean worth comparing to
LOOK_AROUND = 3  # turns searched either way for the system's reply and the user's next turn
DENIAL_WORDS = frozenset(("no", "nope", "wrong"))
SCORE_UNITS = ((":nframes", "frame"), (":nphones", "phone"), (":nwords", "word"))
_CONFIRMATION_PROMPT = re.compile(r"confirm|verif", re.IGNORECASE)
_CONFIRMATION_TEXT = re.compile(
    r"\b(is that (right|correct|ok|okay)|did you say|do you mean|you said|shall i|should i|correct\s*\?)", re.IGNORECASE
)
_FAILED = ("false", "0", "no")
_TRUE_FLAG = "true"
DOUBT_STEPS = 5  # the steps of the strips' colour ramp (the turn table's and the timeline's)
DOUBTS = "doubts"  # the facts cache's name for a session's doubts, and for its order most doubtful first


@dataclass(frozen=True)
class Doubt:
    """A user turn's doubt: the score and the reasons behind it, in words."""

    score: float
    reasons: tuple[str, ...]

    def describe(self) -> str:
        """'Doubt 0.72: reason; reason' (the tooltip of the strips)."""
        return f"Doubt {self.score:.2f}: " + ("; ".join(self.reasons) if self.reasons else "no input says it")


@dataclass(frozen=True)
class _TurnInputs:
    """What one turn gives the doubt of itself and of its neighbours."""

    speaker: str | None
    score_per_unit: dict[str, float]  # unit -> total score over that many units
    nbest_distance: float | None
    parse_failed: bool | None
    first_word: str | None  # of the recognizer text, normalised
    prompt_type: str | None
    system_text: str | None  # normalised words joined
    error_or_help: bool
    asks_confirmation: bool


def turn_inputs(facts: TurnFacts) -> _TurnInputs:
    """One turn's inputs, from its facts alone: a user turn's own, and what any turn says of its neighbours."""
    user = facts.speaker == "user"
    distance = nbest_distance(facts) if user else None  # first: its word lists are gone before the next is made
    words = normalize_words(facts.asr_text) if user or facts.speaker is None else []
    system_words = normalize_words(facts.system_text) if not user else []
    prompt = facts.prompt_type
    return _TurnInputs(
        speaker=facts.speaker,
        score_per_unit=_score_per_unit(facts, len(words)) if user else {},
        nbest_distance=distance,
        parse_failed=_parse_failed(facts),
        first_word=words[0] if words else None,
        prompt_type=prompt,
        system_text=" ".join(system_words) or None,
        error_or_help=any(
            (data.get("type_error_msg") or "").strip().lower() == _TRUE_FLAG
            or (data.get("type_help_msg") or "").strip().lower() == _TRUE_FLAG
            for data in facts.system_data
        ),
        asks_confirmation=bool(
            (prompt and _CONFIRMATION_PROMPT.search(prompt))
            or (facts.system_text and _CONFIRMATION_TEXT.search(facts.system_text))
        ),
    )


def _score_per_unit(facts: TurnFacts, asr_words: int) -> dict[str, float]:
    total = nbest.total_score(facts)
    if total is None:
        return {}
    counts: dict[str, float | None] = {}
    for scores in facts.score_data:
        for data in scores.iter("GC_DATA"):
            key = data.get("key")
            unit = dict(SCORE_UNITS).get(key) if key is not None else None
            count = _positive_number(data.text)
            if unit is not None and count is not None:
                counts.setdefault(unit, count)
    counts.setdefault("word", float(asr_words) if asr_words else None)
    return {unit: total / count for unit, count in counts.items() if count}


def _positive_number(text: str | None) -> float | None:
    try:
        value = float((text or "").strip().strip('"'))
    except ValueError:
        return None
    return value if value > 0 and math.isfinite(value) else None


def nbest_distance(facts: TurnFacts) -> float | None:
    """The mean word distance of the alternatives 2..ALTERNATIVES to the top, each over the longer of the
    two; None without alternatives."""
    found = nbest.hypotheses(facts)[:ALTERNATIVES] if facts.hypothesis_data else ()
    if len(found) < 2:
        return None
    top = normalize_words(found[0].text)
    distances = []
    for alternative in found[1:]:
        other = normalize_words(alternative.text)
        distances.append(word_distance(top, other) / max(len(top), len(other), 1))
        del other  # before the next alternative's words are made: a huge alternative costs twice its text
    return sum(distances) / len(distances)


def word_distance(one: list[str], other: list[str]) -> int:
    """The fewest word substitutions, deletions and insertions that turn ONE into OTHER (what the
    alignment of annotator.analysis.word_alignment counts as errors, without the alignment: for the few
    short alternatives of every turn, a jiwer call would cost a hundred times more). Alternatives mostly
    share their start and end with the top: only the words between are compared."""
    limit = min(len(one), len(other))
    shared = 0
    while shared < limit and one[shared] == other[shared]:
        shared += 1
    tail = 0
    while tail < limit - shared and one[-1 - tail] == other[-1 - tail]:
        tail += 1
    one, other = one[shared : len(one) - tail], other[shared : len(other) - tail]
    previous = list(range(len(other) + 1))
    for i, word in enumerate(one, start=1):
        current = [i]
        for j, candidate in enumerate(other, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (word != candidate)))
        previous = current
    return previous[-1]


def _parse_failed(facts: TurnFacts) -> bool | None:
    for data in facts.parse_data:
        value = (data.text or "").strip().lower()
        if value in PARSE_TRUE:
            return False
        if value in _FAILED:
            return True
    return None


def session_doubts(facts: list[TurnFacts]) -> list[Doubt | None]:
    """Each turn's Doubt (None for a turn that is not the user's), in one pass over the session."""
    inputs = [turn_inputs(f) for f in facts]
    unit, mean, spread = _score_scale(inputs)
    return [
        _doubt(inputs, index, unit, mean, spread) if one.speaker == "user" else None for index, one in enumerate(inputs)
    ]


def cached_session_doubts(session: Session) -> list[Doubt | None]:
    """session_doubts of SESSION, made once per loaded document (no annotation changes them)."""
    return session.document.facts_cache.session_derived(session, DOUBTS, session_doubts)


def doubt_step(score: float) -> int:
    """Which of DOUBT_STEPS equal steps of [0, 1] SCORE falls in, from 0."""
    return min(int(score * DOUBT_STEPS), DOUBT_STEPS - 1)


def turn_doubt(turn: Turn) -> Doubt | None:
    return cached_session_doubts(turn.session)[turn.index]


def doubt_order(session: Session) -> list[int]:
    """The indices of the session's user turns, most doubtful first (ties in log order)."""
    doubts = cached_session_doubts(session)
    scored = [(index, doubt) for index, doubt in enumerate(doubts) if doubt is not None]
    return [index for index, _doubt in sorted(scored, key=lambda pair: -pair[1].score)]


def most_doubtful_to_transcribe(session: Session, besides: int | None = None) -> int | None:
    """The index of the most doubtful user turn still to transcribe, other than BESIDES while another is left."""
    return session.document.facts_cache.first_untranscribed_in(session, DOUBTS, lambda: doubt_order(session), besides)


def _score_scale(inputs: list[_TurnInputs]) -> tuple[str | None, float, float]:
    """The finest unit every scored user turn has, and the mean and standard deviation of its scores."""
    scored = [one.score_per_unit for one in inputs if one.speaker == "user" and one.score_per_unit]
    unit = next((name for _key, name in SCORE_UNITS if scored and all(name in s for s in scored)), None)
    if unit is None or len(scored) < MIN_SCORED_TURNS:
        return None, 0.0, 0.0
    values = [s[unit] for s in scored]
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))
    return (unit, mean, spread) if spread > 0 else (None, 0.0, 0.0)


def _neighbour(inputs: list[_TurnInputs], index: int, step: int, speaker: str) -> int | None:
    """The nearest turn of SPEAKER from INDEX in direction STEP, before a turn of the other side."""
    for other in range(index + step, index + step * (LOOK_AROUND + 1), step):
        if not 0 <= other < len(inputs):
            return None
        side = inputs[other].speaker
        if side == speaker:
            return other
        if side is not None:
            return None
    return None


def _doubt(inputs: list[_TurnInputs], index: int, unit: str | None, mean: float, spread: float) -> Doubt:
    one = inputs[index]
    shares: list[tuple[str, float, str]] = []  # (input, share, reason)
    if unit is not None and unit in one.score_per_unit:
        below = (mean - one.score_per_unit[unit]) / spread
        shares.append(
            (
                "score",
                min(max(below / SCORE_SPREAD, 0.0), 1.0),
                f"recognizer score per {unit} {abs(below):.1f} SD {'below' if below > 0 else 'above'} "
                "the session's mean",
            )
        )
    if one.nbest_distance is not None:
        shares.append(
            (
                "nbest",
                one.nbest_distance,
                f"the n-best alternatives differ from the top in {one.nbest_distance:.0%} of the words",
            )
        )
    if one.parse_failed is not None:
        shares.append(("parse", float(one.parse_failed), "the parse failed" if one.parse_failed else "parsed"))
    reply = _neighbour(inputs, index, 1, "system")
    if reply is not None:
        shares.append(_reprompt(inputs, index, reply))
        if inputs[reply].asks_confirmation:
            answer = _neighbour(inputs, reply, 1, "user")
            if answer is not None and inputs[answer].first_word is not None:
                denied = inputs[answer].first_word in DENIAL_WORDS
                shares.append(
                    (
                        "denial",
                        float(denied),
                        "the user said no to the system's confirmation of it"
                        if denied
                        else "the user did not deny the system's confirmation of it",
                    )
                )
    asked = _neighbour(inputs, index, -1, "system")
    if asked is not None and inputs[asked].asks_confirmation and one.first_word in DENIAL_WORDS:
        shares.append(("denial_itself", 1.0, "it says no to a confirmation: its correction was misheard before"))
    kept = 1.0
    for name, share, _reason in shares:
        kept *= 1.0 - WEIGHTS[name] * share
    reasons = tuple(reason for _name, share, reason in sorted(shares, key=lambda s: -WEIGHTS[s[0]] * s[1]))
    return Doubt(round(1.0 - kept, 6), reasons)


def _reprompt(inputs: list[_TurnInputs], index: int, reply: int) -> tuple[str, float, str]:
    answer = inputs[reply]
    if answer.error_or_help:
        return "reprompt", 1.0, "the system answered with an error or help message"
    asked = _neighbour(inputs, index, -1, "system")
    before = inputs[asked] if asked is not None else None
    if before is not None and answer.prompt_type is not None and answer.prompt_type == before.prompt_type:
        return "reprompt", 1.0, f"the system asked again ({answer.prompt_type})"
    if before is not None and answer.system_text is not None and answer.system_text == before.system_text:
        return "reprompt", 1.0, "the system said the same again"
    return "reprompt", 0.0, "the system went on"
