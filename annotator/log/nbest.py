"""A user turn's n-best list: the recognizer's alternatives, in rank order, with their scores.

The rule (docs/metrics.md, "N-best alternatives"):

- the hypotheses are the turn's GC_DATA of type text_input_hypothesis, or keyed
  ":nbest_list[k]" (flat in the operation or inside a GC_LIST: the standard shows both);
- their rank is the index k in the key when every hypothesis has one (ties keep document
  order), else their document order; ranks are renumbered from 1 for the user;
- a hypothesis's score is its own `score` attribute (a per-hypothesis score some
  recognizers write) when present; otherwise the top hypothesis takes the :total_score of
  the turn's :rec_scores frame, which the standard records for the best path only;
- texts are whitespace-collapsed (the text rule of every other turn text); empty ones are
  not alternatives and are left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from annotator.log.text import clean_text
from annotator.log.turn_facts import TurnFacts

_KEY_INDEX = re.compile(r"\[\s*(\d+)\s*\]\s*$")
SCORE_ATTRIBUTE = "score"
TOTAL_SCORE_KEY = ":total_score"


@dataclass(frozen=True)
class Hypothesis:
    """One recognizer alternative: rank 1 is the recognizer's best."""

    rank: int
    text: str
    score: float | None


def _key_index(data: etree._Element) -> int | None:
    key = data.get("key")
    found = _KEY_INDEX.search(key) if key else None
    return int(found.group(1)) if found else None


def _number(text: str | None) -> float | None:
    """A score as the logs write it: possibly quoted ("-617.9270"), possibly padded."""
    if text is None:
        return None
    try:
        return float(text.strip().strip('"').strip())
    except ValueError:
        return None


def total_score(facts: TurnFacts) -> float | None:
    """The :total_score of the turn's first :rec_scores frame, if it has a readable one."""
    for scores in facts.score_data:
        for data in scores.iter("GC_DATA"):
            if data.get("key") == TOTAL_SCORE_KEY:
                return _number(data.text)
    return None


def hypotheses(facts: TurnFacts) -> tuple[Hypothesis, ...]:
    """The turn's n-best alternatives in rank order (empty when the log has no list); read once per facts."""
    if facts.hypotheses_memo is None:
        facts.hypotheses_memo = _read_hypotheses(facts)
    return facts.hypotheses_memo


def _read_hypotheses(facts: TurnFacts) -> tuple[Hypothesis, ...]:
    data = facts.hypothesis_data
    if not data:
        return ()
    indices = [_key_index(el) for el in data]
    ordered = data
    if all(index is not None for index in indices):
        ordered = [el for _index, _position, el in sorted(zip(indices, range(len(data)), data, strict=True))]
    found: list[Hypothesis] = []
    for el in ordered:
        text = clean_text(el.text)
        if text:
            found.append(Hypothesis(len(found) + 1, text, _number(el.get(SCORE_ATTRIBUTE))))
    if found and found[0].score is None and all(h.score is None for h in found):
        top = total_score(facts)
        if top is not None:
            found[0] = Hypothesis(1, found[0].text, top)
    return tuple(found)
