"""The agreement report as `annotator agree` makes it, made here in the test's own process from a generated team
corpus (tests/support/planted_team.py): every table of the figures, each heat map with its fixed scale's legend,
a histogram, and a figure the items cannot give written as too few items, never as a number."""

from __future__ import annotations

import re
from pathlib import Path

from lxml import etree

from annotator.agreement.figures import agreement
from annotator.agreement.report import TABLES_IN_HTML, report_html
from annotator.agreement.sources import gather, parse_specs, read_file_work
from tests.support import planted_team


def report_of(corpus: Path) -> str:
    works = gather(parse_specs([str(corpus)]), lambda files: [read_file_work(file) for file in files])
    return report_html(agreement(works), 5, {work.name: [str(path) for path in work.paths] for work in works})


def test_three_annotators_get_every_table_a_legend_per_heat_map_and_their_files(tmp_path: Path):
    html = report_of(planted_team.make_team_corpus(tmp_path / "corpus"))
    page = etree.HTML(html)
    for name in TABLES_IN_HTML:
        assert page.xpath(f'//table[@class="{name}"]'), f"no table {name}"
        assert page.xpath(f'//h2[@id="{name}"]'), f"no heading of {name}"
    heat_maps = page.xpath('//*[local-name()="svg"][@class="heat-map"]')
    assert len(heat_maps) >= 2  # WER and kappa at least
    for heat_map in heat_maps:
        assert heat_map.xpath('.//*[local-name()="g"][@class="legend"]//*[@class="swatch"]'), (
            "a heat map without legend"
        )
    assert page.xpath('//*[local-name()="svg"][@class="histogram"]')
    annotators = page.xpath('//h2[text()="Annotators"]/following-sibling::ul[1]/li')
    assert len(annotators) == len(planted_team.ANNOTATORS)
    # ann2 planted a transcription of its own on session 1: the pairs with ann2 have a WER above 0.
    assert re.search(r"austin", html)


def test_one_session_is_too_few_items_in_the_page_not_a_number(tmp_path: Path):
    html = report_of(planted_team.make_team_corpus(tmp_path / "corpus", ("ann1", "ann2"), numbers=(4,)))
    page = etree.HTML(html)
    missing = [cell.text for cell in page.xpath('//td[@class="missing"]')]
    assert missing and all(text.startswith("too few items: 1 session") for text in missing if "session" in text)
    assert page.xpath('//*[local-name()="g"][@class="no-figure"]'), "the heat maps show no figure for the pair"
    assert "-1.0" not in html
