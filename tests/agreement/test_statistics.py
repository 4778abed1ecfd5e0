"""Kappa and alpha on textbook examples with published answers (the libraries compute; we code the data)."""

from __future__ import annotations

import pytest

from annotator.agreement.statistics import cohens_kappa, fleiss_kappa, krippendorff_alpha


def test_cohens_kappa_of_the_grant_proposals_example():
    # Source: Wikipedia, "Cohen's kappa", worked example (50 grant proposals, readers A and B): 20 both
    # yes, 15 both no, 5 A yes/B no, 10 A no/B yes; p_o = 0.7, p_e = 0.5 (0.5*0.6 + 0.5*0.4), kappa = 0.4.
    pairs = [("yes", "yes")] * 20 + [("no", "no")] * 15 + [("yes", "no")] * 5 + [("no", "yes")] * 10
    kappa = cohens_kappa(pairs)
    assert kappa.value == pytest.approx(0.4)
    assert kappa.items == 50


def test_fleiss_kappa_of_the_fourteen_raters_example():
    # Source: Wikipedia, "Fleiss' kappa", worked example (14 raters, 10 subjects, 5 categories):
    # P-bar = 0.378, P-bar_e = 0.213, kappa = 0.210. Rows give how many raters chose each category.
    counts = [
        (0, 0, 0, 0, 14),
        (0, 2, 6, 4, 2),
        (0, 0, 3, 5, 6),
        (0, 3, 9, 2, 0),
        (2, 2, 8, 1, 1),
        (7, 7, 0, 0, 0),
        (3, 2, 6, 3, 0),
        (2, 5, 3, 2, 2),
        (6, 5, 2, 1, 0),
        (0, 2, 2, 3, 7),
    ]
    rows = [[str(category) for category, n in enumerate(row, start=1) for _ in range(n)] for row in counts]
    kappa = fleiss_kappa(rows)
    assert kappa.value == pytest.approx(0.20993, abs=5e-5)
    assert kappa.items == 10


def test_krippendorff_alpha_of_the_nominal_example_with_missing_values():
    # Source: Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", example C: four observers,
    # twelve units, values 1-5, missing values; nominal alpha = 0.743. Rows here are units (observers A-D).
    observers = [
        "1 2 3 3 2 1 4 1 2 . . .",
        "1 2 3 3 2 2 4 1 2 5 . 3",
        ". 3 3 3 2 3 4 2 2 5 1 .",
        "1 2 3 3 2 4 4 1 2 5 1 .",
    ]
    table = [[None if value == "." else value for value in line.split()] for line in observers]
    units = [list(column) for column in zip(*table)]
    alpha = krippendorff_alpha(units)
    assert alpha.value == pytest.approx(0.743, abs=5e-4)
    assert alpha.items == 11  # the last unit has one value only: not pairable


def test_krippendorff_alpha_of_the_binary_two_observer_example():
    # Source: Krippendorff (2011), example A: two observers, ten units, binary data; alpha = 0.095.
    first, second = "0 1 0 0 0 0 0 0 1 0".split(), "1 1 1 0 0 1 0 0 0 0".split()
    assert krippendorff_alpha(list(zip(first, second))).value == pytest.approx(0.095, abs=5e-4)


def test_a_figure_that_chance_makes_undefined_is_none_with_its_items():
    assert cohens_kappa([("1", "1"), ("1", "1")]).value is None
    assert cohens_kappa([("1", "1"), ("1", "1")]).items == 2
    assert fleiss_kappa([["1", "1", "1"]]).value is None
    assert krippendorff_alpha([["1", "1"], ["1", None]]).items == 1
    assert krippendorff_alpha([["1", "1"], ["1", None]]).value is None
    assert cohens_kappa([]).items == 0


def test_categories_are_nominal_whatever_their_spelling():
    # Swapping the names of the categories changes nothing: no order is read into "0" < "1".
    pairs = [("1", "1"), ("0", "0"), ("1", "0"), ("0", "0"), ("1", "1")]
    swapped = [tuple({"1": "z", "0": "a"}[value] for value in pair) for pair in pairs]
    assert cohens_kappa(pairs).value == pytest.approx(cohens_kappa(swapped).value)


def test_one_item_is_too_few_for_any_coefficient():
    # On one session the libraries answer a number the arithmetic fixes whatever the annotators did (Fleiss'
    # kappa -1, Cohen's kappa and alpha 0 for a disagreement): none is a measure of agreement.
    disagreeing = [("1", "0")]
    figures = {
        "cohen": cohens_kappa(disagreeing),
        "fleiss": fleiss_kappa([list(pair) for pair in disagreeing]),
        "alpha": krippendorff_alpha([list(pair) for pair in disagreeing]),
    }
    for name, coefficient in figures.items():
        assert (coefficient.value, coefficient.items) == (None, 1), name
        assert coefficient.reason("session") == "too few items: 1 session, needs 2", name


def test_one_value_only_is_too_few_items_with_how_many_there_were():
    agreeing = [("1", "1")] * 3
    assert cohens_kappa(agreeing).reason("session") == "too few items: 3 sessions, all of one value, needs 2 values"
    assert fleiss_kappa([["1", "1"]] * 3).reason("session") == cohens_kappa(agreeing).reason("session")


def test_two_items_of_two_values_are_enough():
    # The smallest data a coefficient is computed on: A rates 1 0, B rates 1 1; p_o = 0.5, p_e = 0.5, kappa 0.
    kappa = cohens_kappa([("1", "1"), ("0", "1")])
    assert kappa.value == pytest.approx(0.0) and kappa.reason("session") == ""
