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

The alternatives of a whole session are aligned in one call (align_words); a turn's
own result is kept in the document's facts cache (cached_turn_oracle) until the turn changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.analysis.word_alignment import WerCounts, Words, align_words
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
    (nor a user turn); the alternatives of all the turns are aligned together."""
    wanted: list[tuple[Words, list[Words]]] = []
    for turn_facts in facts:
        alternatives = hypotheses(turn_facts) if turn_facts.transcription is not None else ()
        if alternatives and turn_facts.speaker == "user":
            wanted.append((normalize_words(turn_facts.transcription), [normalize_words(h.text) for h in alternatives]))
        else:
            wanted.append(([], []))
    aligned = iter(align_words([(reference, words) for reference, listed in wanted for words in listed]))
    results: list[TurnOracle | None] = []
    for reference, listed in wanted:
        if not listed:
            results.append(None)
            continue
        counts = [next(aligned) for _words in listed]
        best = min(counts, key=lambda c: c.errors)  # min keeps the first of equals: the better rank
        rank = next((rank for rank, words in enumerate(listed, 1) if words == reference), None)
        results.append(TurnOracle(best, rank))
    return results


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
