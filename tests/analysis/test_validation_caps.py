"""Findings of one kind are capped where people read them (the CLI report, the app's findings
panel, the session browser's scan): the first ones are listed, the rest counted in one row per
kind and session, so the counts stay exact and a pathological log stays readable."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from annotator.analysis.validation import KEEP_PER_KIND, Severity, findings_with_paths, validate_document
from annotator.corpus.scan import summarize_document
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.xml_builders import write_log


def _log(tmp_path: Path, sessions: list[int]) -> Path:
    """Sessions of turns missing etime (one DTD error each) with an unreadable stime (bad-time)."""
    text = ['<?xml version="1.0"?>', "<GC_LOG>"]
    for number, turns in enumerate(sessions):
        text.append(f'<GC_SESSION id="s{number}" stime="1" etime="99999">')
        text += [f'<GC_TURN id="{i}" stime="1_{i}"/>' for i in range(turns)]
        text.append("</GC_SESSION>")
    text.append("</GC_LOG>")
    return write_log(tmp_path / "log.xml", "\n".join(text) + "\n")


def _counts(findings) -> Counter:
    totals: Counter = Counter()
    for finding in findings:
        totals[finding.severity, finding.code] += finding.count
    return totals


def test_the_first_of_each_kind_are_kept_and_the_rest_counted_per_session(tmp_path: Path):
    doc = LogDocument.load(_log(tmp_path, [4, 5]))
    every = validate_document(doc, audio=False)
    capped = validate_document(doc, audio=False, keep=3)
    assert (
        _counts(capped)
        == _counts(every)
        == Counter({(Severity.ERROR, "missing-attribute"): 9, (Severity.ERROR, "bad-time"): 9})
    )
    listed = [f for f in capped if not f.omitted]
    assert Counter(f.code for f in listed) == Counter({"missing-attribute": 3, "bad-time": 3})
    assert listed == [f for f in every if f in listed][:6]  # the first ones, in order
    summaries = [f for f in capped if f.omitted]
    assert [(f.code, f.omitted, f.line) for f in summaries] == [
        ("missing-attribute", 1, 7),
        ("missing-attribute", 5, 10),
        ("bad-time", 1, 7),
        ("bad-time", 5, 10),
    ]
    assert (
        summaries[1].message
        == "5 more findings like this (missing-attribute) in GC_SESSION s1 not listed, the first here"
    )
    assert summaries[1].element is doc.sessions[1].turns[0].el
    assert capped[-len(summaries) :] == summaries  # after the listed ones


def test_the_session_browser_counts_what_was_left_out(tmp_path: Path):
    doc = LogDocument.load(_log(tmp_path, [150, 2]))
    rows = summarize_document(doc)
    assert [(row.n_errors, row.n_warnings) for row in rows] == [(300, 0), (4, 0)]


def test_the_apps_findings_keep_their_contract_and_the_cap(tmp_path: Path):
    path = _log(tmp_path, [KEEP_PER_KIND + 50])
    result = findings_with_paths(path)
    assert all(finding.element is None for finding, _ in result)
    assert sum(1 for finding, _ in result if not finding.omitted) == 2 * KEEP_PER_KIND
    summaries = [(finding, where) for finding, where in result if finding.omitted]
    assert [(f.code, f.omitted, where) for f, where in summaries] == [
        ("missing-attribute", 50, f"/GC_LOG/GC_SESSION/GC_TURN[{KEEP_PER_KIND + 1}]"),
        ("bad-time", 50, f"/GC_LOG/GC_SESSION/GC_TURN[{KEEP_PER_KIND + 1}]"),
    ]


@pytest.mark.slow
def test_the_cli_lists_the_first_of_each_kind_then_says_how_many_more(tmp_path: Path):
    path = _log(tmp_path, [KEEP_PER_KIND + 150, 20])
    result = run_annotator("validate", "--no-audio", path)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert sum("lacks the required attribute etime" in line for line in lines) == KEEP_PER_KIND
    assert lines[-2:] == [
        f"{path}: error: and 170 more findings of this kind (missing-attribute), not listed (--all lists them)",
        f"{path}: error: and 170 more findings of this kind (bad-time), not listed (--all lists them)",
    ]
    every = run_annotator("validate", "--no-audio", "--all", path)
    assert len(every.stdout.splitlines()) == 2 * (KEEP_PER_KIND + 170)
    helped = run_annotator("validate", "--help", timeout=None)

    assert f"the first {KEEP_PER_KIND} of each kind" in " ".join(helped.stdout.split())
