"""Nothing in the report is wider than a 1280 px window, measured by chromium's own layout: the page does not
scroll sideways, every table ends inside the window and no cell's content sticks out of its cell, whatever the
text (a 300-character word, long transcriptions); a heat map of many annotators scrolls inside its own figure.
The report forbids scripts, so the measuring script runs on a copy without its Content-Security-Policy."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.support import planted_team
from tests.support.cli import run_annotator
from tests.support.headless_browser import WINDOW_WIDTH, chromium, needs_chromium

LONG_WORD = "supercalifragilistic" * 15
LONG_TEXT = "i would like to fly from boston massachusetts to san francisco california next tuesday " * 3
# The bounding boxes of what the page lays out, written into the page for --dump-dom to print.
MEASURE = """<script>
const sticking = [...document.querySelectorAll("td, th, li, p, figcaption, h1, h2")]
  .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.tagName + ": " + e.textContent.slice(0, 40));
const boxes = el => [...document.querySelectorAll(el)].map(e => Math.ceil(e.getBoundingClientRect().right));
const figures = [...document.querySelectorAll("figure")].map(e => [e.scrollWidth, e.clientWidth]);
const measured = {page: document.documentElement.scrollWidth, window: document.documentElement.clientWidth,
  tables: boxes("table"), figures: boxes("figure"), scrolled: figures, sticking: sticking};
const out = document.createElement("pre"); out.id = "measured"; out.textContent = JSON.stringify(measured);
document.body.append(out);
</script>"""


def measured(report: Path) -> dict:
    page = report.with_name("measured.html")
    html = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", report.read_text(encoding="utf-8"))
    page.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = chromium("--dump-dom", page.resolve().as_uri()).stdout
    found = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    return json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def report_of(corpus: Path, folder: Path) -> Path:
    done = run_annotator("agree", corpus, "-o", folder / "report.html", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    return folder / "report.html"


@needs_chromium
@pytest.mark.slow
def test_two_annotators_with_long_words_fit_a_1280_px_window(tmp_path):
    planted = {("ann2", 1, "2"): LONG_WORD, ("ann1", 1, "4"): LONG_TEXT, ("ann2", 1, "6"): "from " + LONG_WORD}
    corpus = planted_team.make_team_corpus(tmp_path / "corpus", ("ann1", "ann2"), numbers=(1, 2), planted=planted)
    sizes = measured(report_of(corpus, tmp_path))
    assert sizes["window"] <= WINDOW_WIDTH and sizes["page"] == sizes["window"]
    assert len(sizes["tables"]) == 4 and max(sizes["tables"]) <= sizes["window"]
    assert max(sizes["figures"]) <= sizes["window"]
    assert sizes["sticking"] == []


@needs_chromium
@pytest.mark.slow
def test_a_heat_map_of_many_annotators_scrolls_in_its_figure_not_the_page(tmp_path):
    annotators = tuple(f"annotator{number:02d}" for number in range(1, 19))
    corpus = planted_team.make_team_corpus(tmp_path / "corpus", annotators, numbers=(1,))
    sizes = measured(report_of(corpus, tmp_path))
    assert sizes["page"] == sizes["window"] and max(sizes["tables"]) <= sizes["window"]
    assert max(sizes["figures"]) <= sizes["window"]
    widest, shown = max(sizes["scrolled"])
    assert widest > sizes["window"] > shown  # the matrix is wider than the window: its figure scrolls
    assert sizes["sticking"] == []
