"""The session browser's filter language on the summaries of a real corpus, without Qt."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from annotator.corpus.scan import SessionSummary, scan_corpus
from annotator.corpus.session_filter import SessionQuery, parse_filter, parse_marker_filter

BROKEN = "<?xml version='1.0'?>\n<GC_LOG>\n  <GC_SESSION id='x'>\n</GC_LOG>\n"


@pytest.fixture
def summaries(corpus: Path) -> list[SessionSummary]:
    (corpus / "broken.xml").write_text(BROKEN, encoding="utf-8")
    return scan_corpus(corpus)


def kept(summaries: list[SessionSummary], text: str) -> list[str]:
    query = SessionQuery.parse(text)
    return [s.session_id or "<unreadable>" for s in summaries if query.matches(s, s.file.name)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ["<unreadable>", "travel:20261121:001", "travel:20261121:002", "travel:20261121:003"]),
        ("untranscribed", ["travel:20261121:002", "travel:20261121:003"]),
        ("No  Task Completion", ["travel:20261121:002", "travel:20261121:003"]),
        ("errors", ["<unreadable>"]),
        ("unreadable", ["<unreadable>"]),
        ("003", ["travel:20261121:003"]),
        ("Untranscribed 002", ["travel:20261121:002"]),
        ("broken", ["<unreadable>"]),  # a word matches the file name too
        ("untranscribed 001", []),
    ],
)
def test_keywords_and_words_each_narrow_the_sessions(summaries, text, expected):
    assert kept(summaries, text) == expected


def test_markers_keep_where_they_applied_or_did_not(summaries):
    first, second = summaries[1], summaries[2]
    marked = [
        dataclasses.replace(first, marker_counts=(("marker_task_failed", 2),)),
        dataclasses.replace(second, marker_counts=(("marker_task_failed", 0),)),
    ]
    assert kept(marked, "marker:task_failed") == [first.session_id]
    assert kept(marked, "!marker:marker_task_failed") == [second.session_id]


def test_the_text_parses_into_keywords_words_and_markers():
    text = "untranscribed  Task   not completed 002 marker:help !marker:task_failed"
    assert parse_filter(text) == (["untranscribed", "task not completed"], ["002"])
    assert parse_marker_filter(text) == [("help", True), ("task_failed", False)]
    assert SessionQuery.parse("untranscribed x") == SessionQuery.parse("UNTRANSCRIBED  x")
