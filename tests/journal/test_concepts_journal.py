"""Unsaved reference concepts are journalled like transcriptions: they survive a kill -9 and come back exactly."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.annotations import set_concepts, set_transcription
from annotator.log.concepts import Concepts, reference_concepts
from annotator.log.document import LogDocument
from tests.support.journal_edits import SOURCE_FIX, edit_concepts, kill_after_recording, reopened

pytestmark = pytest.mark.usefixtures("data_dir")


def _frames(doc: LogDocument) -> list[Concepts | None]:
    return [reference_concepts(turn.facts()) for turn in doc.sessions[0].turns]


def test_a_killed_session_leaves_its_concept_edit_in_the_journal(annotated_log: Path):
    kill_after_recording(
        annotated_log,
        Path(os.environ["ANNOTATOR_DATA_DIR"]),
        """
        from tests.support.journal_edits import edit_concepts
        journal.watch(doc)
        edit_concepts(doc)
        journal.flush()
        """,
    )

    doc, journal, found = reopened(annotated_log)
    [entry] = found.entries
    assert entry.summary.startswith("1 transcription and 1 concept frame from ")
    [frame] = entry.edits.concepts
    assert (frame.text, frame.was) == (SOURCE_FIX.compact(), None)
    assert [edit.text for edit in entry.edits.transcriptions] == ["on friday morning"]
    restored = journal.restore(doc, found.entries)
    expected = LogDocument.load(annotated_log)
    edit_concepts(expected)
    assert _frames(doc) == _frames(expected) and reference_concepts(doc.sessions[0].user_turns[0].facts()) == SOURCE_FIX
    assert doc.sessions[0].user_turns[1].transcription == "on friday morning"
    for value in reversed(restored):  # the restore is one undoable step
        value.revert()
    assert _frames(doc) == _frames(LogDocument.load(annotated_log))


def test_a_watching_journal_keeps_concepts_apart_from_the_transcription(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    watching = RecoveryJournal(doc)
    watching.watch(doc)
    turn = doc.sessions[0].user_turns[0]
    set_concepts(turn, SOURCE_FIX)
    edits = watching.unsaved_edits(doc)
    assert edits.transcriptions == () and [e.text for e in edits.concepts] == [SOURCE_FIX.compact()]
    assert edits == RecoveryJournal(doc).unsaved_edits(doc), "watching and comparing the whole document agree"
    set_concepts(turn, None)
    assert not watching.unsaved_edits(doc), "back as in the file: nothing unsaved"


def test_removing_stored_concepts_is_journalled_and_restored(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    set_concepts(doc.sessions[0].user_turns[0], SOURCE_FIX)
    doc.save()
    journal = RecoveryJournal(doc)
    set_concepts(doc.sessions[0].user_turns[0], None)
    assert journal.record(doc)
    later_doc, later, found = reopened(annotated_log)
    assert found.entries[0].summary.startswith("1 removed concept frame from ")
    later.restore(later_doc, found.entries)
    assert reference_concepts(later_doc.sessions[0].user_turns[0].facts()) is None


def test_a_journal_written_before_concepts_existed_still_reads(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    set_transcription(doc.sessions[0].user_turns[0], "to boston")
    journal.record(doc)
    content = json.loads(journal.file.read_text(encoding="utf-8"))
    del content["concepts"]
    journal.file.write_text(json.dumps(content), encoding="utf-8")
    later_doc, later, found = reopened(annotated_log)
    [entry] = found.entries
    assert entry.edits.concepts == () and entry.summary.startswith("1 transcription from ")
    later.restore(later_doc, found.entries)
    assert later_doc.sessions[0].user_turns[0].transcription == "to boston"


def test_a_journal_with_a_malformed_concept_frame_is_set_aside(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    set_concepts(doc.sessions[0].user_turns[0], SOURCE_FIX)
    journal.record(doc)
    content = json.loads(journal.file.read_text(encoding="utf-8"))
    content["concepts"][0]["text"] = "give_source(:source"
    journal.file.write_text(json.dumps(content), encoding="utf-8")
    found = reopened(annotated_log)[2]
    assert found.entries == []
    [message] = found.set_aside
    assert "could not be read" in message and "no '='" in message and "\n" not in message
