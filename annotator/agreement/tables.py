"""The figures of an Agreement as tables of text: the CSV files and the HTML report show the same cells.

Rates are written with four decimals; a figure that cannot be computed (no items, or chance agreement
total) is an empty cell, beside the number of items it would rest on.
"""

from __future__ import annotations

from dataclasses import dataclass

from annotator.agreement.figures import OVERALL, Agreement, PairFigures, TurnComparison, WordFigures
from annotator.agreement.statistics import Coefficient


@dataclass(frozen=True)
class Table:
    name: str  # the CSV file's stem and the HTML section's id
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[str, ...]]


def number(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def _occurrence(value: int | None) -> str:
    return "" if value is None else str(value)


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
)


def _pair_row(figures: PairFigures) -> tuple[str, ...]:
    concepts = figures.concepts
    return (
        *figures.pair,
        *_words(figures.words),
        str(concepts.items),
        number(concepts.wer_a_b),
        number(concepts.wer_b_a),
        number(concepts.wer_mean),
        str(figures.kappa.items),
        number(figures.kappa.value),
    )


def pairs_table(agreement: Agreement) -> Table:
    rows = [_pair_row(figures) for figures in agreement.pairs] + [_pair_row(agreement.overall)]
    return Table("pairs", "Each pair of annotators, and every pair pooled (overall)", PAIR_COLUMNS, rows)


def _coefficient_row(figure: str, library: str, coefficient: Coefficient) -> tuple[str, ...]:
    return figure, number(coefficient.value), str(coefficient.items), library


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
        ("figure", "value", "sessions", "computed_by"),
        rows,
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
        )
        for figures in agreement.sessions
    ]
    return Table("sessions", "Each session, each pair", SESSION_COLUMNS, rows)


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
)


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
    )


def turns_table(agreement: Agreement) -> Table:
    return Table(
        "turns",
        "Every turn both annotators of a pair transcribed",
        TURN_COLUMNS,
        [_turn_row(turn) for turn in agreement.turns],
    )


def disagreements_table(agreement: Agreement, top: int) -> Table:
    return Table(
        "disagreements",
        f"The {top} most disagreeing turns (highest inter-annotator WER)",
        TURN_COLUMNS,
        [_turn_row(turn) for turn in agreement.most_disagreeing(top)],
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
