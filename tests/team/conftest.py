"""Generated team corpora: copies of the sample logs, several sessions each named apart by file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.repository import sample_log_paths


def make_corpus(folder: Path, logs: int) -> Path:
    """FOLDER holding LOGS copies of the sample logs, in sub-folders of a few each (as corpora come)."""
    samples = sample_log_paths()
    for number in range(logs):
        target = folder / f"day{number % 3}" / f"travel-{number:03d}-hublog.xml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(samples[number % len(samples)], target)
    return folder


@pytest.fixture
def team_corpus(tmp_path: Path) -> Path:
    return make_corpus(tmp_path / "team-corpus", 14)


def annotate_as(log: Path, annotator: str, texts: dict[int, str], task: str | None = None) -> Path:
    """ANNOTATOR's work on LOG saved in team mode through the writer: TEXTS by user turn position
    in the first session, and the session's TASK completion; their file."""
    from annotator.log.annotations import set_task_completion, set_transcription
    from annotator.log.document import LogDocument
    from annotator.team.work import TeamWork

    doc = LogDocument.load(log)
    work = TeamWork(doc, annotator)
    users = doc.sessions[0].user_turns
    for position, text in texts.items():
        set_transcription(users[position], text)
    if task is not None:
        set_task_completion(doc.sessions[0], task)
    work.save()
    work.close()
    return work.file


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
