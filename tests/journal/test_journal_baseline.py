"""A recovery journal whose baseline (the file's values) is read after it starts watching, in steps
(journal/baseline.py): edits made before the read, while it goes on, and typing, are journalled
exactly as a journal that read the file first journals them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from annotator.journal.entries import parse_journal
from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_logs" / "travel-20261121-003" / "travel-20261121-003-hublog.xml"


@pytest.fixture
def log(tmp_path: Path) -> Path:
    copy = tmp_path / SAMPLE.name
    shutil.copy(SAMPLE, copy)
    return copy


def deferred_journal(doc: LogDocument, folder: Path) -> RecoveryJournal:
    journal = RecoveryJournal(doc, folder=folder, instance="deferred", deferred_baseline=True)
    journal.watch(doc)
    return journal


def as_the_file_says(doc: LogDocument, log: Path):
    """The edits a journal that read the file before any edit finds in DOC."""
    return RecoveryJournal(LogDocument.load(log), instance="eager").unsaved_edits(doc)


def test_edits_before_and_during_the_read_are_journalled_against_the_file(log: Path, tmp_path: Path):
    doc = LogDocument.load(log)
    journal = deferred_journal(doc, tmp_path / "journals")
    assert not journal.baseline.ready
    first, second = doc.sessions[0].user_turns[:2]
    was = first.transcription
    set_transcription(first, "before the read")  # read later by the steps, as changed
    set_task_completion(doc.sessions[0], "1")
    assert journal.unsaved_edits(doc) == as_the_file_says(doc, log)
    steps = journal.read_baseline_in_steps()
    next(steps)
    set_transcription(second, "while the read goes on")
    set_transcription(first, "changed again")
    for _step in steps:
        pass
    assert journal.baseline.ready
    edits = journal.unsaved_edits(doc)
    assert edits == as_the_file_says(doc, log)
    assert [(edit.text, edit.was) for edit in edits.transcriptions] == [
        ("changed again", was),
        ("while the read goes on", second_was(log)),
    ]
    journal.flush()
    assert parse_journal(journal.file.read_bytes())[3] == edits


def second_was(log: Path) -> str | None:
    return LogDocument.load(log).sessions[0].user_turns[1].transcription


def test_an_edit_put_back_before_the_read_is_no_edit(log: Path, tmp_path: Path):
    doc = LogDocument.load(log)
    journal = deferred_journal(doc, tmp_path / "journals")
    turn = doc.sessions[0].user_turns[0]
    was = turn.transcription
    set_transcription(turn, "typed, then undone")
    set_transcription(turn, was)
    for _step in journal.read_baseline_in_steps():
        pass
    assert not journal.unsaved_edits(doc)
    journal.flush()
    assert not journal.file.exists()


def test_typing_before_the_read_is_journalled_as_its_turn_value(log: Path, tmp_path: Path):
    doc = LogDocument.load(log)
    journal = deferred_journal(doc, tmp_path / "journals")
    turn = doc.sessions[0].user_turns[0]
    journal.set_typing(turn, "typed, not yet stored")
    edits = journal.unsaved_edits(doc)
    assert [(edit.turn_id, edit.text, edit.was) for edit in edits.transcriptions] == [
        (turn.id, "typed, not yet stored", turn.transcription)
    ]
    for _step in journal.read_baseline_in_steps():
        pass
    assert journal.unsaved_edits(doc) == edits


def test_leftovers_read_the_file_at_once_when_a_journal_is_found(log: Path, tmp_path: Path):
    folder = tmp_path / "journals"
    killed = LogDocument.load(log)
    dead = RecoveryJournal(killed, folder=folder, instance="deadwindow00")
    set_task_completion(killed.sessions[0], "0")
    assert dead.record(killed)  # a journal left by a window that died (it holds no lock)
    doc = LogDocument.load(log)
    journal = RecoveryJournal(doc, folder=folder, instance="deferred", deferred_baseline=True)
    found = journal.leftovers()
    assert journal.baseline.ready
    assert [entry.edits.task_completion[0].value for entry in found.entries] == ["0"]
