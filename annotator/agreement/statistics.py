"""Chance-corrected agreement on task completion, computed by statsmodels and krippendorff (docs/adr/0009).

Each function takes the values as the annotators wrote them (any strings: "1", "0", "partial"),
codes them as categories (nominal: no order) and hands them to the library; nothing here computes
a kappa itself. A figure the library cannot give (every annotator used one and the same value,
so chance agreement is total) is None, with the number of items it would have rested on.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Rating = str | None  # one annotator's value for one item; None: not rated


@dataclass(frozen=True)
class Coefficient:
    value: float | None  # None: undefined on these items
    items: int  # the items it rests on


def _codes(rows: Sequence[Sequence[Rating]]) -> tuple[dict[str, int], int]:
    categories = sorted({value for row in rows for value in row if value is not None})
    return {value: code for code, value in enumerate(categories)}, len(categories)


def _defined(value: float) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def cohens_kappa(pairs: Sequence[tuple[str, str]]) -> Coefficient:
    """Cohen's kappa of two annotators over the items both rated (statsmodels.stats.inter_rater)."""
    from statsmodels.stats.inter_rater import cohens_kappa as statsmodels_kappa
    from statsmodels.stats.inter_rater import to_table

    codes, n_categories = _codes(pairs)
    if not pairs or n_categories < 2:
        return Coefficient(None, len(pairs))
    data = np.array([[codes[a], codes[b]] for a, b in pairs])
    table, _bins = to_table(data, bins=np.arange(n_categories + 1) - 0.5)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return Coefficient(_defined(statsmodels_kappa(table, return_results=False)), len(pairs))


def fleiss_kappa(rows: Sequence[Sequence[str]]) -> Coefficient:
    """Fleiss' kappa over the items every annotator rated (each row: one item's values)."""
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    codes, n_categories = _codes(rows)
    if not rows or n_categories < 2:
        return Coefficient(None, len(rows))
    counts, _categories = aggregate_raters(np.array([[codes[value] for value in row] for row in rows]),
                                           n_cat=n_categories)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        return Coefficient(_defined(statsmodels_fleiss(counts, method="fleiss")), len(rows))


def krippendorff_alpha(rows: Sequence[Sequence[Rating]]) -> Coefficient:
    """Krippendorff's alpha (nominal) over items with at least two values (each row: one item's values,
    None where an annotator gave none); krippendorff.alpha."""
    import krippendorff

    pairable = [row for row in rows if sum(value is not None for value in row) >= 2]
    codes, n_categories = _codes(pairable)
    if n_categories < 2:
        return Coefficient(None, len(pairable))
    reliability = np.array([[np.nan if value is None else codes[value] for value in row] for row in pairable]).T
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        value = krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal")
    return Coefficient(_defined(value), len(pairable))
