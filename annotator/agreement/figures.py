"""What annotators agree on: the figures of `annotator agree` (docs/agreement.md).

Sessions pair by session id (and occurrence), turns by turn id (annotation_set's TurnRef). For each
pair of annotators (A, B), on the turns both transcribed, "WER of A against B" takes B's words as the
reference and A's as the hypothesis: the sum of the turns' errors over the sum of B's words (the NIST
way, as docs/metrics.md). Words are normalised and aligned by annotator.analysis.word_alignment, the
aligner of every WER here. One alignment serves both directions: the minimal edit distance is the
same either way, with deletions and insertions swapped, and only the reference words differ. A turn's
own inter-annotator WER is the mean of its two directions (of the one defined when the other side has
no words). Concepts (when both gave a turn concepts) are aligned the same way, pair by pair. Task
completion is compared per session by annotator.agreement.statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import TypeGuard

from annotator.agreement.sources import AnnotatorWork
from annotator.agreement.statistics import Coefficient, cohens_kappa, fleiss_kappa, krippendorff_alpha
from annotator.analysis.concept_metrics import turn_concept_counts
from annotator.analysis.word_alignment import WerCounts, align_words
from annotator.annotation_files.annotation_set import SessionRef, TurnRef
from annotator.log.concepts import Concepts
from annotator.log.text import normalize_words

OVERALL = "overall"


def reversed_counts(counts: WerCounts, reference_words: int) -> WerCounts:
    """The counts of the other direction of one alignment: B against A from A against B."""
    return WerCounts(counts.substitutions, counts.insertions, counts.deletions, reference_words)


def mean_rate(*rates: float | None) -> float | None:
    defined = [rate for rate in rates if rate is not None]
    return sum(defined) / len(defined) if defined else None


@dataclass(frozen=True)
class TurnComparison:
    """One turn both annotators of a pair transcribed."""

    pair: tuple[str, str]
    turn: TurnRef
    turn_id: str
    text_a: str
    text_b: str
    a_against_b: WerCounts
    b_against_a: WerCounts

    @property
    def wer(self) -> float | None:
        return mean_rate(self.a_against_b.rate, self.b_against_a.rate)

    @property
    def identical(self) -> bool:
        return self.a_against_b.errors == 0


@dataclass
class WordFigures:
    """Word (or concept) agreement over some turns: pooled counts in both directions."""

    items: int = 0
    identical: int = 0
    a_against_b: WerCounts = field(default_factory=WerCounts)
    b_against_a: WerCounts = field(default_factory=WerCounts)

    def add(self, a_against_b: WerCounts, b_against_a: WerCounts) -> None:
        self.items += 1
        self.identical += a_against_b.errors == 0
        self.a_against_b += a_against_b
        self.b_against_a += b_against_a

    @property
    def wer_a_b(self) -> float | None:
        return self.a_against_b.rate if self.items else None

    @property
    def wer_b_a(self) -> float | None:
        return self.b_against_a.rate if self.items else None

    @property
    def wer_mean(self) -> float | None:
        return mean_rate(self.wer_a_b, self.wer_b_a) if self.items else None

    @property
    def identical_share(self) -> float | None:
        return self.identical / self.items if self.items else None


@dataclass
class PairFigures:
    """A pair of annotators (or OVERALL, every pair pooled): words, concepts, task completion."""

    pair: tuple[str, str]
    words: WordFigures = field(default_factory=WordFigures)
    concepts: WordFigures = field(default_factory=WordFigures)
    kappa: Coefficient = Coefficient(None, 0)  # Cohen's, per pair; over all annotators: Agreement.fleiss, .alpha


@dataclass
class SessionFigures:
    """One session, one pair: the words of the turns both transcribed, and each one's task completion."""

    session: SessionRef
    pair: tuple[str, str]
    words: WordFigures = field(default_factory=WordFigures)
    task_completion: tuple[str | None, str | None] = (None, None)


@dataclass
class Agreement:
    annotators: list[str]
    pairs: list[PairFigures]
    overall: PairFigures
    fleiss: Coefficient
    alpha: Coefficient
    sessions: list[SessionFigures]
    turns: list[TurnComparison]  # every compared turn of every pair, by session and turn

    def most_disagreeing(self, top: int) -> list[TurnComparison]:
        """The TOP turns of highest inter-annotator WER (ties in session and turn order)."""
        ranked = sorted((turn for turn in self.turns if turn.wer), key=lambda turn: -(turn.wer or 0.0))
        return ranked[:top]

    def pair(self, a: str, b: str) -> PairFigures | None:
        return next((figures for figures in self.pairs if figures.pair in ((a, b), (b, a))), None)


def agreement(works: list[AnnotatorWork]) -> Agreement:
    """The figures of every pair of WORKS (in the order given) and over all of them."""
    names = [work.name for work in works]
    overall = PairFigures((OVERALL, OVERALL))
    pairs, sessions, turns = [], [], []
    for a, b in combinations(works, 2):
        figures, session_figures, compared = _compare_pair(a, b)
        pairs.append(figures)
        sessions += session_figures
        turns += compared
        for turn in compared:
            overall.words.add(turn.a_against_b, turn.b_against_a)
        _pool(overall.concepts, figures.concepts)
    rows = _task_completion_rows(works)
    fleiss = fleiss_kappa([row for row in rows if _complete(row)])
    sessions.sort(
        key=lambda figures: (
            _session_order(figures.session),
            names.index(figures.pair[0]),
            names.index(figures.pair[1]),
        )
    )
    turns.sort(key=lambda turn: _turn_order(turn.turn))
    return Agreement(names, pairs, overall, fleiss, krippendorff_alpha(rows), sessions, turns)


def _compare_pair(a: AnnotatorWork, b: AnnotatorWork) -> tuple[PairFigures, list[SessionFigures], list[TurnComparison]]:
    pair = (a.name, b.name)
    figures = PairFigures(pair)
    refs = sorted(a.annotations.transcriptions.keys() & b.annotations.transcriptions.keys(), key=_turn_order)
    texts = [(a.annotations.transcriptions[ref], b.annotations.transcriptions[ref]) for ref in refs]
    words = [(normalize_words(text_b), normalize_words(text_a)) for text_a, text_b in texts]
    compared = []
    per_session: dict[SessionRef, SessionFigures] = {}
    for ref, (text_a, text_b), (_b_words, a_words), counts in zip(refs, texts, words, align_words(words)):
        turn = TurnComparison(
            pair, ref, a.annotations.turn_id(ref), text_a, text_b, counts, reversed_counts(counts, len(a_words))
        )
        compared.append(turn)
        figures.words.add(turn.a_against_b, turn.b_against_a)
        _session(per_session, ref.session, pair).words.add(turn.a_against_b, turn.b_against_a)
    _compare_concepts(figures.concepts, a.annotations.concepts, b.annotations.concepts)
    for session in a.annotations.task_completion.keys() | b.annotations.task_completion.keys():
        _session(per_session, session, pair).task_completion = (
            a.annotations.task_completion.get(session),
            b.annotations.task_completion.get(session),
        )
    figures.kappa = cohens_kappa(_rated_by_both(a, b))
    return figures, list(per_session.values()), compared


def _session(per_session: dict[SessionRef, SessionFigures], ref: SessionRef, pair: tuple[str, str]) -> SessionFigures:
    if ref not in per_session:
        per_session[ref] = SessionFigures(ref, pair)
    return per_session[ref]


def _compare_concepts(figures: WordFigures, a: dict[TurnRef, Concepts], b: dict[TurnRef, Concepts]) -> None:
    """Each annotator's frame scored against the other's as the parse is against a reference
    (annotator.analysis.concept_metrics), in both directions."""
    for ref in sorted(a.keys() & b.keys(), key=_turn_order):
        figures.add(turn_concept_counts(a[ref], b[ref]), turn_concept_counts(b[ref], a[ref]))


def _pool(total: WordFigures, part: WordFigures) -> None:
    total.items += part.items
    total.identical += part.identical
    total.a_against_b += part.a_against_b
    total.b_against_a += part.b_against_a


def _rated_by_both(a: AnnotatorWork, b: AnnotatorWork) -> list[tuple[str, str]]:
    first, second = a.annotations.task_completion, b.annotations.task_completion
    return [(first[ref], second[ref]) for ref in sorted(first.keys() & second.keys(), key=_session_order)]


def _task_completion_rows(works: list[AnnotatorWork]) -> list[list[str | None]]:
    """One row per session any annotator rated: each annotator's value or None."""
    sessions = sorted({ref for work in works for ref in work.annotations.task_completion}, key=_session_order)
    return [[work.annotations.task_completion.get(ref) for work in works] for ref in sessions]


def _complete(row: list[str | None]) -> TypeGuard[list[str]]:
    """Every annotator gave a value."""
    return all(value is not None for value in row)


def _session_order(ref: SessionRef) -> tuple[str, int]:
    return ref.id, ref.occurrence or 0


def _turn_order(ref: TurnRef) -> tuple:
    key = (0, ref.key, "") if isinstance(ref.key, int) else (1, 0, str(ref.key))
    return _session_order(ref.session), key, ref.occurrence or 0
