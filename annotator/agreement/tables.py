"""The figures of an Agreement as tables of text: the CSV files and the HTML report show the same cells.

Rates are written with four decimals. A figure the items cannot give (no turn in common, a coefficient on one
session or on one value only) is an empty cell, never a number, and the table's reason column beside it says
why, with how many items there were ("too few items: 1 session, needs 2"); Table.explains says which reason
column stands for which figures, so the HTML report can print the reason in the figure's own cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from annotator.agreement.figures import OVERALL, Agreement, PairFigures, TurnComparison, WordFigures
from annotator.agreement.statistics import Coefficient
from annotator.analysis.word_alignment import WerCounts


@dataclass(frozen=True)
class Table:
    name: str  # the CSV file's stem and the HTML section's id
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]
    explains: dict[str, tuple[str, ...]] = field(default_factory=dict)  # reason column: the figures it explains


def number(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _occurrence(value: int | None) -> str:
    return "" if value is None else str(value)


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'}"


def rate_reason(counts: WerCounts) -> str:
    """Why COUNTS give no rate (words against a reference of none); empty when they give one."""
    return "" if counts.rate is not None else "too few items: 0 reference words"


def words_reason(figures: WordFigures, unit: str = "turn") -> str:
    """Why some of FIGURES' rates are empty (no turn in common, or no reference words); empty when none is."""
    if not figures.items:
        return f"too few items: {_plural(0, unit)}, needs 1"
    if figures.wer_a_b is None or figures.wer_b_a is None:
        return f"too few items: 0 reference words in {_plural(figures.items, unit)}"
    return ""


WORD_FIGURES = ("wer_a_against_b", "wer_b_against_a", "wer_mean", "identical_share")
CONCEPT_FIGURES = ("cer_a_against_b", "cer_b_against_a", "cer_mean")


def _words(figures: WordFigures) -> tuple[str, ...]:
    return (
        str(figures.items),
        number(figures.wer_a_b),
        number(figures.wer_b_a),
        number(figures.wer_mean),
        str(figures.identical),
        number(figures.identical_share),
    )


PAIR_COLUMNS = (
    "annotator_a",
    "annotator_b",
    "turns",
    "wer_a_against_b",
    "wer_b_against_a",
    "wer_mean",
    "identical_turns",
    "identical_share",
    "concept_turns",
    "cer_a_against_b",
    "cer_b_against_a",
    "cer_mean",
    "task_completion_sessions",
    "cohens_kappa",
    "wer_reason",
    "cer_reason",
    "cohens_kappa_reason",
)
# Cohen's kappa is a figure of two annotators; over all of them, task completion has Fleiss' kappa and alpha.
NOT_POOLED = "per pair only: see task completion"


def _pair_row(figures: PairFigures) -> tuple[str, ...]:
    concepts = figures.concepts
    pooled = figures.pair == (OVERALL, OVERALL)
    return (
        *figures.pair,
        *_words(figures.words),
        str(concepts.items),
        number(concepts.wer_a_b),
        number(concepts.wer_b_a),
        number(concepts.wer_mean),
        str(figures.kappa.items),
        number(figures.kappa.value),
        words_reason(figures.words),
        words_reason(concepts),
        NOT_POOLED if pooled else figures.kappa.reason("session"),
    )


def pairs_table(agreement: Agreement) -> Table:
    rows = [_pair_row(figures) for figures in agreement.pairs] + [_pair_row(agreement.overall)]
    return Table(
        "pairs",
        "Each pair of annotators, and every pair pooled (overall)",
        PAIR_COLUMNS,
        rows,
        {"wer_reason": WORD_FIGURES, "cer_reason": CONCEPT_FIGURES, "cohens_kappa_reason": ("cohens_kappa",)},
    )


def _coefficient_row(figure: str, library: str, coefficient: Coefficient) -> tuple[str, ...]:
    return figure, number(coefficient.value), str(coefficient.items), library, coefficient.reason("session")


def task_completion_table(agreement: Agreement) -> Table:
    rows = [
        _coefficient_row("fleiss_kappa", "statsmodels.stats.inter_rater.fleiss_kappa", agreement.fleiss),
        _coefficient_row("krippendorff_alpha", "krippendorff.alpha (nominal)", agreement.alpha),
    ]
    rows += [
        _coefficient_row(
            f"cohens_kappa {figures.pair[0]}/{figures.pair[1]}",
            "statsmodels.stats.inter_rater.cohens_kappa",
            figures.kappa,
        )
        for figures in agreement.pairs
    ]
    return Table(
        "task_completion",
        "Task completion over all annotators (sessions are the items)",
        ("figure", "value", "sessions", "computed_by", "reason"),
        rows,
        {"reason": ("value",)},
    )


SESSION_COLUMNS = (
    "session_id",
    "session_occurrence",
    "annotator_a",
    "annotator_b",
    "turns",
    "wer_a_against_b",
    "wer_b_against_a",
    "wer_mean",
    "identical_turns",
    "identical_share",
    "task_completion_a",
    "task_completion_b",
    "wer_reason",
)


def sessions_table(agreement: Agreement) -> Table:
    rows = [
        (
            figures.session.id,
            _occurrence(figures.session.occurrence),
            *figures.pair,
            *_words(figures.words),
            figures.task_completion[0] or "",
            figures.task_completion[1] or "",
            words_reason(figures.words),
        )
        for figures in agreement.sessions
    ]
    return Table("sessions", "Each session, each pair", SESSION_COLUMNS, rows, {"wer_reason": WORD_FIGURES})


TURN_COLUMNS = (
    "session_id",
    "session_occurrence",
    "turn_id",
    "turn_occurrence",
    "annotator_a",
    "annotator_b",
    "wer_a_against_b",
    "wer_b_against_a",
    "wer",
    "identical",
    "transcription_a",
    "transcription_b",
    "wer_reason",
)
TURN_EXPLAINS: dict[str, tuple[str, ...]] = {"wer_reason": ("wer_a_against_b", "wer_b_against_a", "wer")}


def _turn_row(turn: TurnComparison) -> tuple[str, ...]:
    ref = turn.turn
    return (
        ref.session.id,
        _occurrence(ref.session.occurrence),
        turn.turn_id,
        _occurrence(ref.occurrence),
        *turn.pair,
        number(turn.a_against_b.rate),
        number(turn.b_against_a.rate),
        number(turn.wer),
        "1" if turn.identical else "0",
        turn.text_a,
        turn.text_b,
        rate_reason(turn.a_against_b) or rate_reason(turn.b_against_a),
    )


def turns_table(agreement: Agreement) -> Table:
    return Table(
        "turns",
        "Every turn both annotators of a pair transcribed",
        TURN_COLUMNS,
        [_turn_row(turn) for turn in agreement.turns],
        TURN_EXPLAINS,
    )


def disagreements_table(agreement: Agreement, top: int) -> Table:
    return Table(
        "disagreements",
        f"The {top} most disagreeing turns (highest inter-annotator WER)",
        TURN_COLUMNS,
        [_turn_row(turn) for turn in agreement.most_disagreeing(top)],
        TURN_EXPLAINS,
    )


def all_tables(agreement: Agreement, top: int) -> list[Table]:
    return [
        pairs_table(agreement),
        task_completion_table(agreement),
        sessions_table(agreement),
        disagreements_table(agreement, top),
        turns_table(agreement),
    ]


__all__ = ["OVERALL", "Table", "all_tables", "number"]
