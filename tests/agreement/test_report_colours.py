"""The report's heat maps colour each metric on a fixed scale, shown in a legend: WER 0 is light, a WER has the
same colour in every report whatever else the report holds. Run for real on generated corpora
(tests/support/planted_team.py: ann2 writes "austin" for "boston" in session 1, so ann1 and ann2 differ by
WER 1/22 = 0.0455 there; ann3 drops a word elsewhere in that session)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from tests.support import planted_team
from tests.support.cli import run_annotator

SVG = "{http://www.w3.org/2000/svg}"


def heat_maps(corpus: Path, report: Path) -> list[etree._Element]:
    """The report's heat maps (WER first, then kappa), parsed."""
    done = run_annotator("agree", corpus, "-o", report, "--jobs", "1")
    assert done.returncode == 0, done.stderr
    html = report.read_text(encoding="utf-8")
    svgs = re.findall(r'<svg [^>]*class="heat-map".*?</svg>', html, re.S)
    assert len(svgs) == 2
    return [etree.fromstring(svg) for svg in svgs]


def cell_fill(heat_map: etree._Element, row: int, column: int, size: int) -> str:
    cells = [rect for rect in heat_map.iter(f"{SVG}rect") if rect.get("width") == rect.get("height") == "64"]
    assert len(cells) == size * size
    return cells[row * size + column].get("fill")


def legend(heat_map: etree._Element) -> list[tuple[str, str]]:
    """The legend's swatches, lightest first: (label, fill)."""
    swatches = [rect for rect in heat_map.iter(f"{SVG}rect") if rect.get("class") == "swatch"]
    labels = [text.text for text in heat_map.iter(f"{SVG}text")][-len(swatches) - 1 : -1]
    return list(zip(labels, [swatch.get("fill") for swatch in swatches]))


def rgb(fill: str) -> tuple[int, ...]:
    match = re.fullmatch(r"rgb\((\d+),(\d+),(\d+)\)", fill)
    assert match, fill
    return tuple(int(channel) for channel in match.groups())


def test_a_small_wer_is_light_between_the_legends_own_steps(tmp_path):
    corpus = planted_team.make_team_corpus(tmp_path / "corpus", ("ann1", "ann2"), numbers=(1,))
    wer_map, _kappa_map = heat_maps(corpus, tmp_path / "report.html")
    steps = legend(wer_map)
    assert [label for label, _fill in steps] == ["0", "0.05", "0.1", "0.15", "0.2", "≥0.25"]
    zero, five_hundredths, darkest = rgb(steps[0][1]), rgb(steps[1][1]), rgb(steps[-1][1])
    assert rgb(cell_fill(wer_map, 0, 0, 2)) == zero  # an annotator against themself: WER 0, the lightest
    ann1_ann2 = rgb(cell_fill(wer_map, 0, 1, 2))  # WER 0.0455: the report's largest, and still light
    for channel in range(3):
        assert five_hundredths[channel] <= ann1_ann2[channel] <= zero[channel]
        assert ann1_ann2[channel] - darkest[channel] > 120


@pytest.mark.slow
def test_a_wer_has_the_same_colour_whatever_else_the_report_holds(tmp_path):
    # ann1 and ann2 on session 1 alone, then with ann3 beside them (whose WER against ann2 is twice as large).
    pair = planted_team.make_team_corpus(tmp_path / "two", ("ann1", "ann2"), numbers=(1,))
    trio = planted_team.make_team_corpus(tmp_path / "three", ("ann1", "ann2", "ann3"), numbers=(1,))
    alone, _ = heat_maps(pair, tmp_path / "two.html")
    beside, _ = heat_maps(trio, tmp_path / "three.html")
    assert cell_fill(alone, 0, 1, 2) == cell_fill(beside, 0, 1, 3)
    assert legend(alone) == legend(beside)
    assert cell_fill(beside, 1, 2, 3) != cell_fill(beside, 0, 1, 3)  # the larger WER is another colour


@pytest.mark.slow
def test_kappa_is_darker_the_less_the_annotators_agree(tmp_path):
    # Over the five sessions: ann1/ann2 kappa 8/13, ann2/ann3 1/6 (tests/agreement/test_agree_command.py).
    corpus = planted_team.make_team_corpus(tmp_path / "corpus")
    _wer_map, kappa_map = heat_maps(corpus, tmp_path / "report.html")
    steps = legend(kappa_map)
    assert [label for label, _fill in steps] == ["1", "0.8", "0.6", "0.4", "0.2", "≤0"]
    assert rgb(cell_fill(kappa_map, 0, 0, 3)) == rgb(steps[0][1])
    brightness = [sum(rgb(cell_fill(kappa_map, *cell, 3))) for cell in ((0, 0), (0, 1), (1, 2))]
    assert brightness == sorted(brightness, reverse=True) and len(set(brightness)) == 3
