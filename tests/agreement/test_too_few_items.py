"""A figure the items cannot give (one session, one value only, no turn in common) is written as "too few items"
with how many there were, never as a number: in the HTML report, in the CSV files (an empty value and a reason
column) and on stdout. Run for real on generated corpora of two annotators (tests/support/planted_team.py)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from tests.support import planted_team
from tests.support.cli import run_annotator

TWO = ("ann1", "ann2")


def agree(corpus: Path, folder: Path) -> tuple[str, Path, str]:
    """The report's HTML, the CSV folder and stdout of `annotator agree CORPUS`."""
    done = run_annotator("agree", corpus, "-o", folder / "report.html", "--csv", folder / "figures", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    return (folder / "report.html").read_text(encoding="utf-8"), folder / "figures", done.stdout


def rows_of(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def table_html(html: str, name: str) -> str:
    match = re.search(f'<table class="{name}">.*?</table>', html, re.S)
    assert match, name
    return match.group(0)


def test_one_session_gives_no_kappa_or_alpha_but_too_few_items(tmp_path):
    # Session 4: ann1 rated it 1, ann2 0. Over that one session statsmodels says Fleiss' kappa -1 and Cohen's
    # kappa 0, krippendorff alpha 0: numbers that only count the session, not the annotators' agreement.
    corpus = planted_team.make_team_corpus(tmp_path / "corpus", TWO, numbers=(4,))
    html, figures, stdout = agree(corpus, tmp_path)
    too_few = "too few items: 1 session, needs 2"
    coefficients = {row["figure"]: row for row in rows_of(figures / "task_completion.csv")}
    assert list(coefficients) == ["fleiss_kappa", "krippendorff_alpha", "cohens_kappa ann1/ann2"]
    assert [row["value"] for row in coefficients.values()] == ["", "", ""]
    for row in coefficients.values():
        assert (row["value"], row["sessions"], row["reason"]) == ("", "1", too_few)
    pair = rows_of(figures / "pairs.csv")[0]
    assert (pair["cohens_kappa"], pair["cohens_kappa_reason"]) == ("", too_few)
    assert stdout.splitlines()[1].split("\t")[-1] == too_few
    task_completion = table_html(html, "task_completion")
    assert task_completion.count(f'<td class="missing">{too_few}</td>') == 3
    assert "-1.0000" not in html and "0.0000" not in task_completion
    assert 'class="no-figure"><title>' + too_few + "</title>" in html  # the kappa heat map's cells
    assert ">too few</text>" in html and ">n = 1</text>" in html


def test_one_value_only_is_too_few_items_with_the_sessions_counted(tmp_path):
    # Sessions 1 and 2: both annotators rated both 1, so chance agreement is total: kappa is 0/0.
    corpus = planted_team.make_team_corpus(tmp_path / "corpus", TWO, numbers=(1, 2))
    html, figures, _stdout = agree(corpus, tmp_path)
    reason = "too few items: 2 sessions, all of one value, needs 2 values"
    for row in rows_of(figures / "task_completion.csv"):
        assert (row["value"], row["reason"]) == ("", reason), row["figure"]
    assert table_html(html, "task_completion").count(reason) == 3


@pytest.mark.slow
def test_figures_of_no_turn_in_common_are_too_few_items_and_computed_ones_have_no_reason(tmp_path):
    # No annotator gave concepts: the concept error rates rest on 0 turns. The words rest on 6 turns.
    corpus = planted_team.make_team_corpus(tmp_path / "corpus", TWO, numbers=(1, 4))
    html, figures, _stdout = agree(corpus, tmp_path)
    pair = rows_of(figures / "pairs.csv")[0]
    assert [pair[column] for column in ("cer_a_against_b", "cer_b_against_a", "cer_mean")] == ["", "", ""]
    assert pair["cer_reason"] == "too few items: 0 turns, needs 1"
    assert pair["wer_reason"] == "" and pair["wer_mean"] != ""
    assert pair["cohens_kappa"] != "" and pair["cohens_kappa_reason"] == ""
    for row in rows_of(figures / "sessions.csv") + rows_of(figures / "turns.csv"):
        assert row["wer_reason"] == ""
    # In the page, the three empty concept figures of a row share one cell that says why.
    assert '<td class="missing" colspan="3">too few items: 0 turns, needs 1</td>' in table_html(html, "pairs")
    assert "_reason" not in html  # the reason columns are the CSV's; the page prints reasons in the cells
