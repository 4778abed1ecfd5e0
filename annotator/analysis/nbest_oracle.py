"""What a better rescoring of the n-best list could have gained: the oracle WER and the rank of the truth.

For a user GC_TURN with a transcription and an n-best list (annotator.log.nbest):

- each alternative is aligned against the transcription exactly as the recognizer text
  is for the WER (annotator.analysis.word_alignment, the words normalised by
  annotator.log.text.normalize_words); the best alternative is the one with the fewest
  errors (the first in rank order among equals), and the turn's oracle WER is its rate;
- the rank of the truth is the rank of the first alternative whose normalised words
  equal the transcription's, None when none does.

A session's oracle WER is the sum of the best alternatives' errors over the sum of the
reference words of those turns (the NIST way, as for word_error_rate); its truth share is
the share of those turns whose transcription is in the list. Both are None when no turn
has both a transcription and a list. docs/metrics.md, "N-best alternatives".

A turn's alternatives are aligned one after the other, each one's words made only for its
alignment; a turn's result is kept in the document's facts cache (cached_turn_oracle) until
the turn changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.analysis.word_alignment import WerCounts, align_words
from annotator.log.elements import Turn
from annotator.log.nbest import hypotheses
from annotator.log.text import normalize_words
from annotator.log.turn_facts import TurnFacts

NBEST_ORACLE = "nbest_oracle"  # the facts cache's name for a turn's TurnOracle


@dataclass(frozen=True)
class TurnOracle:
    """The best alternative's alignment against the transcription, and the rank of the transcription in the list."""

    best: WerCounts
    rank_of_truth: int | None

    @property
    def oracle_wer(self) -> float | None:
        return self.best.rate


@dataclass(frozen=True)
class SessionOracle:
    oracle_wer: float | None
    truth_share: float | None
    n_turns: int  # user GC_TURNs with a transcription and an n-best list


def turns_oracle(facts: list[TurnFacts]) -> list[TurnOracle | None]:
    """Each turn's TurnOracle, None for a turn without a transcription or without an n-best list
    (nor a user turn)."""
    return [_turn_oracle(turn_facts) for turn_facts in facts]


def _turn_oracle(facts: TurnFacts) -> TurnOracle | None:
    """The turn's alternatives aligned one at a time against its transcription: the words of one alternative
    are let go before the next one's are made (a list of words costs twice a text of short words, and an
    n-best list of huge texts held them all)."""
    alternatives = hypotheses(facts) if facts.transcription is not None else ()
    if not alternatives or facts.speaker != "user":
        return None
    reference = normalize_words(facts.transcription)
    best: WerCounts | None = None
    rank_of_truth = None
    for rank, alternative in enumerate(alternatives, 1):
        words = normalize_words(alternative.text)
        [counts] = align_words([(reference, words)])
        if best is None or counts.errors < best.errors:  # the first of equals: the better rank
            best = counts
        if rank_of_truth is None and words == reference:
            rank_of_truth = rank
        del words
    assert best is not None  # alternatives is not empty
    return TurnOracle(best, rank_of_truth)


def facts_oracle(_turn: Turn, facts: TurnFacts) -> TurnOracle | None:
    return turns_oracle([facts])[0]


def cached_turn_oracle(turn: Turn) -> TurnOracle | None:
    """The turn's TurnOracle, aligned once per change of the turn."""
    return turn.session.document.facts_cache.derived(turn, NBEST_ORACLE, facts_oracle)


def session_oracle(turns: list[TurnOracle | None]) -> SessionOracle:
    """The session's figures from its turns' (turns_oracle)."""
    found = [turn for turn in turns if turn is not None]
    if not found:
        return SessionOracle(None, None, 0)
    total = sum((turn.best for turn in found), WerCounts())
    in_list = sum(1 for turn in found if turn.rank_of_truth is not None)
    return SessionOracle(total.rate, in_list / len(found), len(found))
