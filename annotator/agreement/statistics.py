"""Chance-corrected agreement on task completion, computed by statsmodels and krippendorff (docs/adr/0009).

Each function takes the values as the annotators wrote them (any strings: "1", "0", "partial"),
codes them as categories (nominal: no order) and hands them to the library; nothing here computes
a kappa itself. A figure is None, with the number of items and of values it would have rested on, when
the items cannot give one: fewer than MIN_ITEMS (on one item the libraries answer a number, but one fixed by
the arithmetic, not by the annotators: Fleiss' kappa -1 and Cohen's kappa and alpha 0 for any disagreement),
or one value only (chance agreement is total, and every formula divides by zero). The libraries
are part of the install (docs/adr/0014), imported only when there is something for them to compute, so
the window and the other commands start without them.
"""

from __future__ import annotations

import importlib
import math
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from annotator.errors import AnnotatorError

NEEDS_LIBRARIES = (
    "agreement figures need statsmodels and krippendorff, which this install lacks: "
    "pip install statsmodels krippendorff"
)

Rating = str | None  # one annotator's value for one item; None: not rated


MIN_ITEMS = 2  # a coefficient compares agreement across items: one item has nothing to compare it with
MIN_VALUES = 2  # with one value, agreement by chance is total and the coefficient is 0/0


@dataclass(frozen=True)
class Coefficient:
    value: float | None  # None: too few items (see reason)
    items: int  # the items it rests on
    values: int = 0  # the different values among them

    def reason(self, unit: str) -> str:
        """Why there is no value, counting the items in UNIT ("session"); empty when there is one."""
        if self.value is not None:
            return ""
        counted = f"{self.items} {unit}{'' if self.items == 1 else 's'}"
        if self.items < MIN_ITEMS:
            return f"too few items: {counted}, needs {MIN_ITEMS}"
        if self.values < MIN_VALUES:
            return f"too few items: {counted}, all of one value, needs {MIN_VALUES} values"
        return f"undefined on these items: {counted}"


def _enough(items: int, values: int) -> bool:
    return items >= MIN_ITEMS and values >= MIN_VALUES


def _library(name: str) -> ModuleType:
    """The library module NAME, or a one-line error saying how to install the extra."""
    try:
        return importlib.import_module(name)
    except ImportError:
        raise AnnotatorError(NEEDS_LIBRARIES) from None


def _codes(rows: Sequence[Sequence[Rating]]) -> tuple[dict[str, int], int]:
    categories = sorted({value for row in rows for value in row if value is not None})
    return {value: code for code, value in enumerate(categories)}, len(categories)


@contextmanager
def _undefined_is_nan() -> Iterator[None]:
    """A figure divided by zero comes back as nan (made None by _defined), without a RuntimeWarning."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _defined(value: float) -> float | None:
    return None if value is None or math.isnan(value) else float(value)


def cohens_kappa(pairs: Sequence[tuple[str, str]]) -> Coefficient:
    """Cohen's kappa of two annotators over the items both rated (statsmodels.stats.inter_rater)."""
    codes, n_categories = _codes(pairs)
    if not _enough(len(pairs), n_categories):
        return Coefficient(None, len(pairs), n_categories)
    inter_rater = _library("statsmodels.stats.inter_rater")
    data = np.array([[codes[a], codes[b]] for a, b in pairs])
    table, _bins = inter_rater.to_table(data, bins=np.arange(n_categories + 1) - 0.5)
    with _undefined_is_nan():
        value = inter_rater.cohens_kappa(table, return_results=False)
    return Coefficient(_defined(value), len(pairs), n_categories)


def fleiss_kappa(rows: Sequence[Sequence[str]]) -> Coefficient:
    """Fleiss' kappa over the items every annotator rated (each row: one item's values)."""
    codes, n_categories = _codes(rows)
    if not _enough(len(rows), n_categories):
        return Coefficient(None, len(rows), n_categories)
    inter_rater = _library("statsmodels.stats.inter_rater")
    ratings = np.array([[codes[value] for value in row] for row in rows])
    counts, _categories = inter_rater.aggregate_raters(ratings, n_cat=n_categories)
    with _undefined_is_nan():
        value = inter_rater.fleiss_kappa(counts, method="fleiss")
    return Coefficient(_defined(value), len(rows), n_categories)


def krippendorff_alpha(rows: Sequence[Sequence[Rating]]) -> Coefficient:
    """Krippendorff's alpha (nominal) over items with at least two values (each row: one item's values,
    None where an annotator gave none); krippendorff.alpha."""
    pairable = [row for row in rows if sum(value is not None for value in row) >= 2]
    codes, n_categories = _codes(pairable)
    if not _enough(len(pairable), n_categories):
        return Coefficient(None, len(pairable), n_categories)
    krippendorff = _library("krippendorff")
    reliability = np.array([[np.nan if value is None else codes[value] for value in row] for row in pairable]).T
    with _undefined_is_nan():
        value = krippendorff.alpha(reliability_data=reliability, level_of_measurement="nominal")
    return Coefficient(_defined(value), len(pairable), n_categories)
