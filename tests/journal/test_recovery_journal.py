"""The recovery journal: unsaved edits survive a kill -9 and come back exactly, once."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from annotator.annotation_files.fold import extract
from annotator.errors import AnnotationFileError
from annotator.journal import recovery_journal
from annotator.journal.files import journal_dir
from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.journal_edits import edit, kill_after_recording, reopened

pytestmark = pytest.mark.usefixtures("data_dir")


def test_the_journal_lives_in_the_data_folder(data_dir: Path, monkeypatch):
    assert journal_dir() == data_dir / "journals"
    monkeypatch.delenv("ANNOTATOR_DATA_DIR")
    assert "communicator-annotator" in str(journal_dir())


def test_record_then_restore_in_a_new_session(annotated_log: Path, data_dir: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    assert not journal.record(doc) and not journal.file.exists(), "nothing to keep yet"
    edit(doc)
    assert journal.record(doc)
    assert journal.file.parent == data_dir / "journals"
    assert journal.file.name.startswith(annotated_log.name)
    stored = json.loads(journal.file.read_text(encoding="utf-8"))
    assert stored["sha256"] == doc.stamp.sha256 and stored["log"] == str(annotated_log.resolve())

    reopened_doc, later, found = reopened(annotated_log)
    [entry] = found.entries
    assert entry.matches_file and entry.warning is None and found.set_aside == []
    minute = f"{datetime.now():%Y-%m-%d %H:}"
    assert entry.summary.startswith("3 transcriptions, 1 removed transcription and 1 task completion from " + minute)
    assert len(later.restore(reopened_doc, found.entries)) == 5
    assert extract(reopened_doc) == extract(doc)
    later.drop(found.entries)
    assert reopened(annotated_log)[2].entries == [] and list(journal.folder.glob("*.json")) == []


def test_a_killed_session_leaves_a_journal_that_restores_exactly(annotated_log: Path, data_dir: Path):
    kill_after_recording(
        annotated_log,
        data_dir,
        """
        from tests.support.journal_edits import edit
        edit(doc)
        journal.record(doc)
        """,
    )
    expected = LogDocument.load(annotated_log)
    edit(expected)  # what the killed session had on screen

    doc, journal, found = reopened(annotated_log)
    [entry] = found.entries
    assert entry.summary.startswith("3 transcriptions, 1 removed transcription and 1 task completion from ")
    assert len(entry.edits) == 5
    journal.restore(doc, found.entries)
    assert extract(doc) == extract(expected)
    journal.drop(found.entries)
    assert reopened(annotated_log)[2].entries == []


def test_declining_discards(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    edit(doc)
    journal.record(doc)
    _doc, later, found = reopened(annotated_log)
    assert len(found.entries) == 1
    later.drop(found.entries)
    assert reopened(annotated_log)[2].entries == []


def test_a_successful_save_removes_the_journal(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    edit(doc)
    journal.record(doc)
    doc.save()
    journal.saved(doc)  # what the GUI does after each successful save
    assert not journal.file.exists()
    assert not journal.record(doc), "the saved state is the new baseline"
    set_transcription(doc.sessions[0].user_turns[0], "to austin")
    assert journal.record(doc)
    [entry] = reopened(annotated_log)[2].entries
    assert entry.summary.startswith("1 transcription from ")


def test_record_after_a_save_needs_no_discard(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    edit(doc)
    journal.record(doc)
    doc.save()
    assert not journal.record(doc) and not journal.file.exists()


def test_undoing_every_edit_removes_the_journal(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    before = extract(doc)
    journal = RecoveryJournal(doc)
    turn = doc.sessions[0].user_turns[0]
    old = turn.transcription
    set_transcription(turn, "something else")
    assert journal.record(doc)
    set_transcription(turn, old)
    assert not journal.record(doc) and not journal.file.exists()
    assert extract(doc) == before


def test_a_journal_made_before_a_crash_after_the_save_is_not_offered(annotated_log: Path):
    """Killed between the save and the journal's removal: the file already holds the edits."""
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    edit(doc)
    journal.record(doc)
    kept = journal.file.read_bytes()
    doc.save()
    journal.file.write_bytes(kept)  # as if the discard never happened
    assert reopened(annotated_log)[2].entries == [] and list(journal.folder.glob("*.json")) == []


def test_a_journal_for_an_older_version_of_the_file_is_offered_with_a_warning(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    edit(doc)
    journal.record(doc)
    # After the crash another program changes the log: a system prompt and one transcription we also edited.
    theirs = LogDocument.load(annotated_log)
    set_transcription(theirs.sessions[0].user_turns[1], "on saturday")
    theirs.save()

    reopened_doc, later, found = reopened(annotated_log)
    [entry] = found.entries
    assert not entry.matches_file and entry.conflicts == 1
    assert "changed on disk after these edits" in entry.warning and "1 annotation also changed" in entry.warning
    later.restore(reopened_doc, found.entries)
    assert extract(reopened_doc) == extract(doc), "restoring sets exactly the journalled values"


def test_a_journal_that_no_longer_fits_restores_nothing(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    edit(doc)
    journal.record(doc)
    stripped = annotated_log.read_text(encoding="utf-8")
    first_user = doc.sessions[0].user_turns[0].id
    stripped = stripped.replace(f'<GC_TURN id="{first_user}"', '<GC_TURN id="gone"', 1)
    annotated_log.write_text(stripped, encoding="utf-8")
    reopened_doc, later, found = reopened(annotated_log)
    before = reopened_doc.serialize()
    assert len(found.entries) == 1
    with pytest.raises(AnnotationFileError, match=f"turn {first_user}; nothing was restored"):
        later.restore(reopened_doc, found.entries)
    assert reopened_doc.serialize() == before and not reopened_doc.is_modified


def test_an_unreadable_journal_is_set_aside_with_a_message_not_offered(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    journal = RecoveryJournal(doc)
    journal.folder.mkdir(parents=True)
    journal.file.write_text('{"format": 1, "transcriptions": [')
    found = reopened(annotated_log)[2]
    assert found.entries == []
    [message] = found.set_aside
    assert "could not be read" in message and "nothing was restored" in message and "\n" not in message
    [kept] = journal.folder.glob("*.unreadable")
    assert kept.name in message and kept.read_text() == '{"format": 1, "transcriptions": ['
    assert list(journal.folder.glob("*.json")) == []


def test_for_document_on_an_edited_document_takes_the_file_as_baseline(annotated_log: Path):
    doc = LogDocument.load(annotated_log)
    edit(doc)
    journal = RecoveryJournal(doc)  # created late: the baseline is still the file on disk
    assert len(journal.unsaved_edits(doc)) == 5


def test_journals_of_different_logs_do_not_mix(corpus: Path):
    first, second = sorted(corpus.glob("*/*-hublog.xml"))[:2]
    a = LogDocument.load(first)
    set_task_completion(a.sessions[0], "0")
    RecoveryJournal(a).record(a)
    assert reopened(second)[2].entries == []
    assert len(reopened(first)[2].entries) == 1
    assert recovery_journal.journal_stem(first.resolve()) != recovery_journal.journal_stem(second.resolve())


def test_a_watching_journal_records_exactly_what_a_full_comparison_finds(tmp_path):
    import shutil

    from annotator.journal.recovery_journal import RecoveryJournal
    from annotator.log.annotations import set_task_completion, set_transcription
    from annotator.log.document import LogDocument
    from tests.support.repository import SAMPLE_LOGS

    shutil.copytree(SAMPLE_LOGS / "travel-20261121-001", tmp_path / "call")
    log = tmp_path / "call" / "travel-20261121-001-hublog.xml"
    watched_doc, full_doc = LogDocument.load(log), LogDocument.load(log)
    watching = RecoveryJournal(watched_doc, tmp_path / "a")
    watching.watch(watched_doc)
    full = RecoveryJournal(full_doc, tmp_path / "b")
    for doc in (watched_doc, full_doc):
        users = doc.sessions[0].user_turns
        set_transcription(users[0], "changed text")
        set_transcription(users[1], None)
        original = users[2].transcription
        set_transcription(users[2], "first")
        set_transcription(users[2], original)  # touched, then back as it was: no edit
        set_task_completion(doc.sessions[0], "0")
    assert watching.unsaved_edits(watched_doc) == full.unsaved_edits(full_doc)
    assert len(watching.unsaved_edits(watched_doc)) == 3
    watching.unwatch(watched_doc)


def _typing_entry(raw_log: Path, folder: Path, instance: str, turn_position: int, text: str):
    """The journal entry of a window (INSTANCE) that died typing TEXT, not stored, on the user turn at TURN_POSITION."""
    from annotator.journal.entries import JournalEntry, parse_journal

    doc = LogDocument.load(raw_log)
    journal = RecoveryJournal(doc, folder=folder, instance=instance)
    journal.watch(doc)
    journal.set_typing(doc.sessions[0].user_turns[turn_position], text)
    journal.flush()
    path, sha256, written, edits = parse_journal(journal.file.read_bytes())
    return JournalEntry(journal.file, path, sha256, written, edits, True, 0)


def test_of_several_windows_typing_the_newest_is_the_draft_and_the_older_are_values(
    absolute_audio_log: Path, tmp_path: Path
):
    from annotator.journal.values import split_draft

    older = _typing_entry(absolute_audio_log, tmp_path, "older", 0, "to boston")
    newer = _typing_entry(absolute_audio_log, tmp_path, "newer", 1, "on fri")
    fresh = LogDocument.load(absolute_audio_log)
    users = fresh.sessions[0].user_turns
    kept, draft = split_draft(fresh, [older, newer])
    assert draft == (users[1], "on fri")
    assert [[edit.text for edit in entry.edits.transcriptions] for entry in kept] == [["to boston"], []]
    assert all(entry.edits.typing is None for entry in kept)
    same_turn = _typing_entry(absolute_audio_log, tmp_path, "same", 1, "on friday")
    kept, draft = split_draft(fresh, [newer, same_turn])
    assert draft == (users[1], "on friday") and [edit.text for edit in kept[0].edits.transcriptions] == ["on fri"]


def test_typing_not_yet_stored_is_journalled_as_typing_and_split_off_as_a_draft(
    absolute_audio_log: Path, tmp_path: Path
):
    raw_log = absolute_audio_log
    from annotator.journal.entries import JournalEntry, UnreadableJournal, encode_journal, parse_journal
    from annotator.journal.values import split_draft

    doc = LogDocument.load(raw_log)
    stored, typed = doc.sessions[0].user_turns[:2]
    journal = RecoveryJournal(doc, folder=tmp_path, instance="dead")
    journal.watch(doc)
    set_transcription(stored, "to boston")
    journal.set_typing(typed, "on fri")
    journal.flush()
    path, sha256, written, edits = parse_journal(journal.file.read_bytes())
    assert edits.typing == (0, typed.index) and len(edits.transcriptions) == 2
    fresh = LogDocument.load(raw_log)
    kept, draft = split_draft(fresh, [JournalEntry(journal.file, path, sha256, written, edits, True, 0)])
    assert [edit.text for edit in kept[0].edits.transcriptions] == ["to boston"] and kept[0].edits.typing is None
    assert draft == (fresh.sessions[0].user_turns[1], "on fri")
    content = json.loads(encode_journal(raw_log, sha256, edits))
    content["typing"] = [0, 0]  # the greeting: no transcription of the journal
    with pytest.raises(UnreadableJournal, match="typing"):
        parse_journal(json.dumps(content).encode())
