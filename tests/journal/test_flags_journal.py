"""Unsaved flags, comments, time spent and reviews are journalled like transcriptions and come back exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.annotations import set_comment, set_flags, set_reviewed, set_time_spent
from annotator.log.document import LogDocument
from annotator.log.flags import session_reviewer, turn_comment, turn_flags, turn_time_spent
from tests.support.journal_edits import reopened

pytestmark = pytest.mark.usefixtures("data_dir")


def _note_everything(doc: LogDocument) -> None:
    turn = doc.sessions[0].user_turns[0]
    set_flags(turn, ["noise", "truncated"])
    set_comment(turn, "a door slams")
    set_time_spent(turn, 31.5)
    set_reviewed(doc.sessions[0], "alice")


def _notes(doc: LogDocument) -> tuple:
    facts = doc.sessions[0].user_turns[0].facts()
    return turn_flags(facts), turn_comment(facts), turn_time_spent(facts), session_reviewer(doc.sessions[0].el)


def test_notes_are_journalled_restored_and_undone_in_one_step(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    _note_everything(doc)
    assert journal.record(doc)
    later_doc, later, found = reopened(annotated_log)
    [entry] = found.entries
    assert entry.summary.startswith("1 flag change, 1 comment, 1 time spent and 1 review from ")
    restored = later.restore(later_doc, found.entries)
    assert _notes(later_doc) == (("truncated", "noise"), "a door slams", 31.5, "alice")
    for value in reversed(restored):
        value.revert()
    assert _notes(later_doc) == _notes(LogDocument.load(annotated_log)) == ((), None, 0.0, None)


def test_a_watching_journal_agrees_with_comparing_the_whole_document(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    watching = RecoveryJournal(doc)
    watching.watch(doc)
    _note_everything(doc)
    edits = watching.unsaved_edits(doc)
    assert [(e.kind, e.text) for e in edits.notes] == [
        ("flags", "truncated noise"),
        ("comment", "a door slams"),
        ("time_spent", "31.5"),
    ]
    assert [e.value for e in edits.reviewed] == ["alice"] and edits.transcriptions == ()
    assert edits == RecoveryJournal(doc).unsaved_edits(doc)
    set_flags(doc.sessions[0].user_turns[0], [])
    set_reviewed(doc.sessions[0], None)
    assert [e.kind for e in watching.unsaved_edits(doc).notes] == ["comment", "time_spent"]
    assert watching.unsaved_edits(doc).reviewed == ()


def test_removing_stored_flags_is_journalled_and_restored(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    _note_everything(doc)
    doc.save()
    journal = RecoveryJournal(doc)
    set_flags(doc.sessions[0].user_turns[0], [])
    assert journal.record(doc)
    later_doc, later, found = reopened(annotated_log)
    assert found.entries[0].summary.startswith("1 flag change from ")
    later.restore(later_doc, found.entries)
    assert turn_flags(later_doc.sessions[0].user_turns[0].facts()) == ()


def test_a_journal_with_an_unknown_flag_is_set_aside(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    _note_everything(doc)
    assert journal.record(doc)
    content = json.loads(journal.file.read_text(encoding="utf-8"))
    content["notes"][0]["text"] = "loud"
    journal.file.write_text(json.dumps(content), encoding="utf-8")
    found = reopened(annotated_log)[2]
    assert found.entries == [] and "'loud' is no flag" in found.set_aside[0]
