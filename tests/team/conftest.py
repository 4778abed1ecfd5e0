"""Fixtures of the team tests: generated team corpora (tests/support/team_corpora.py), and one annotated by three."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.team_corpora import annotate_as, make_corpus


@pytest.fixture
def team_corpus(tmp_path: Path) -> Path:
    return make_corpus(tmp_path / "team-corpus", 14)


@pytest.fixture
def three_annotator_corpus(tmp_path: Path) -> Path:
    """Six logs: 000 by alice alone; 001 by alice and bob, agreeing up to case and punctuation; 002 by
    alice and bob, differing in one word; 003 (a copy of the annotated sample log) by all three, agreeing;
    004 by bob and carol, differing in task completion only; 005 by nobody."""
    corpus = make_corpus(tmp_path / "three", 6)
    logs = sorted(corpus.rglob("*-hublog.xml"), key=lambda path: path.name)
    annotate_as(logs[0], "alice", {0: "to boston"}, "1")
    annotate_as(logs[1], "alice", {0: "To Boston, please."})
    annotate_as(logs[1], "bob", {0: "to boston please"})
    annotate_as(logs[2], "alice", {0: "to boston please"})
    annotate_as(logs[2], "bob", {0: "to austin please"})
    for name in ("alice", "bob", "carol"):
        annotate_as(logs[3], name, {1: "no thanks"}, "1")
    annotate_as(logs[4], "bob", {0: "yes"}, "1")
    annotate_as(logs[4], "carol", {0: "yes"}, "0")
    return corpus
