"""Concept error rate: the parser's frame against the annotator's reference concepts (docs/metrics.md, "Concepts").

A frame is scored as a list of (path, value) pairs: the frame name is one more pair with the path
"frame", then the slots (annotator.log.concepts flattens nested frames and lists into paths). The
pairs are aligned by path, the k-th occurrence of a path in the reference with the k-th in the
hypothesis:

- same path, same value: correct;
- same path, another value: a substitution;
- a reference path the hypothesis lacks: a deletion;
- a hypothesis path the reference lacks: an insertion.

Values (and the frame name) are compared after the normalisation of words
(annotator.log.text.normalize_words), so "Zürich" and "zürich." agree; paths are compared as written.
The error rate is (S + D + I) / reference pairs, the accuracy 1 - error rate (below 0 when the parse
inserts more pairs than the reference holds, as word accuracy can). A turn without a parse is scored
against nothing: every reference pair is a deletion. A turn without reference concepts has no score
(None), not zero. A session sums the counts of its scored turns (the NIST way, as for words); its
sentence accuracy is the share of scored turns with no error.

The hypothesis is annotator.log.concepts.parsed_concepts, the reference reference_concepts, both from
the turn's facts; a turn's counts are kept in the document's facts cache until its facts change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from annotator.analysis.word_alignment import WerCounts
from annotator.log.concepts import Concepts, parsed_concepts, reference_concepts
from annotator.log.elements import Session, Turn
from annotator.log.text import normalize_words
from annotator.log.turn_facts import TurnFacts

if TYPE_CHECKING:
    from annotator.analysis.metrics import SessionMetrics

FRAME_PATH = "frame"  # the path of the frame name's pair
CONCEPT_COUNTS = "concept_counts"  # the facts cache's name for a turn's counts


@dataclass(frozen=True)
class ConceptCounts(WerCounts):
    """The alignment of a hypothesis frame against a reference frame (or the sum of several): the counts of
    words, with the reference's slot/value pairs for its words (reference_words; reference_pairs names them)."""

    @property
    def reference_pairs(self) -> int:
        return self.reference_words

    @property
    def error_rate(self) -> float | None:
        """errors / reference pairs; None when there is no reference pair (never for one scored turn), where
        the word error rate of nothing against nothing is 0: a session without reference concepts is unscored."""
        return self.errors / self.reference_pairs if self.reference_pairs else None

    @property
    def accuracy(self) -> float | None:
        rate = self.error_rate
        return None if rate is None else 1.0 - rate


def concept_pairs(concepts: Concepts) -> list[tuple[str, str]]:
    """The (path, normalised value) pairs a frame is scored by, the frame name's pair first."""
    return [(path, " ".join(normalize_words(value))) for path, value in ((FRAME_PATH, concepts.frame), *concepts.slots)]


def turn_concept_counts(reference: Concepts, hypothesis: Concepts | None) -> ConceptCounts:
    """S/D/I of the HYPOTHESIS frame's pairs against the REFERENCE frame's (None: no parse at all)."""
    wanted = concept_pairs(reference)
    found: dict[str, list[str]] = {}
    for path, value in concept_pairs(hypothesis) if hypothesis is not None else ():
        found.setdefault(path, []).append(value)
    used: dict[str, int] = {}
    substitutions = deletions = 0
    for path, value in wanted:
        values = found.get(path, [])
        position = used.get(path, 0)
        if position < len(values):
            substitutions += values[position] != value
            used[path] = position + 1
        else:
            deletions += 1
    insertions = sum(len(values) - used.get(path, 0) for path, values in found.items())
    return ConceptCounts(substitutions, deletions, insertions, len(wanted))


def facts_concept_counts(_turn: Turn | None, facts: TurnFacts) -> ConceptCounts | None:
    """The turn's counts from its facts; None when it has no reference concepts."""
    reference = reference_concepts(facts)
    return None if reference is None else turn_concept_counts(reference, parsed_concepts(facts))


def cached_turn_concept_counts(turn: Turn) -> ConceptCounts | None:
    """facts_concept_counts of TURN, made once per change of the turn (the facts cache keeps it)."""
    return turn.session.document.facts_cache.derived(turn, CONCEPT_COUNTS, facts_concept_counts)


@dataclass(frozen=True)
class SessionConcepts:
    """The concept figures of a session: the sum of its scored turns' counts and how many were fully right."""

    counts: ConceptCounts = ConceptCounts()
    scored_turns: int = 0  # turns with reference concepts
    correct_turns: int = 0  # of those, the turns without any error

    @property
    def error_rate(self) -> float | None:
        return self.counts.error_rate if self.scored_turns else None

    @property
    def accuracy(self) -> float | None:
        return self.counts.accuracy if self.scored_turns else None

    @property
    def sentence_accuracy(self) -> float | None:
        """The share of scored turns whose concepts are fully right; None when no turn is scored."""
        return self.correct_turns / self.scored_turns if self.scored_turns else None

    def __add__(self, other: SessionConcepts) -> SessionConcepts:
        return SessionConcepts(
            self.counts + other.counts, self.scored_turns + other.scored_turns, self.correct_turns + other.correct_turns
        )

    def with_turn(self, counts: ConceptCounts | None, sign: int = 1) -> SessionConcepts:
        """These figures with one turn's COUNTS added (SIGN -1: taken out); None (an unscored turn) changes nothing."""
        if counts is None:
            return self
        moved = self.counts.plus(counts, sign)
        return SessionConcepts(moved, self.scored_turns + sign, self.correct_turns + sign * (counts.errors == 0))


def concepts_of_counts(turn_counts: Iterable[ConceptCounts | None]) -> SessionConcepts:
    """The session figures of the turns' counts (None: a turn without reference concepts, left out)."""
    figures = SessionConcepts()
    for counts in turn_counts:
        figures = figures.with_turn(counts)
    return figures


CONCEPT_COLUMNS = ["concept_error_rate", "concept_accuracy", "concept_sentence_accuracy"]
NO_REFERENCE_CONCEPTS = "no turn has reference concepts"


def set_concept_values(metrics: SessionMetrics, figures: SessionConcepts) -> None:
    """Put FIGURES into METRICS' CONCEPT_COLUMNS (None, with the reason, when no turn is scored)."""
    metrics.concepts = figures
    for name, value in zip(CONCEPT_COLUMNS, (figures.error_rate, figures.accuracy, figures.sentence_accuracy)):
        metrics.reasons.pop(name, None)
        metrics.set(name, value, None if value is not None else NO_REFERENCE_CONCEPTS)


def session_concepts(session: Session) -> SessionConcepts:
    """The concept figures of SESSION, from its turns' cached counts."""
    return concepts_of_counts(cached_turn_concept_counts(turn) for turn in session.turns)
