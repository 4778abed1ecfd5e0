"""Team work on real logs through the writer: each annotator's own file, the log untouched."""

from __future__ import annotations

from lxml import etree

from annotator.annotation_files.fold import extract
from annotator.annotation_files.human_format import human_file_content, read_human_file
from annotator.log.annotations import set_concepts, set_task_completion, set_transcription
from annotator.log.concepts import Concepts, reference_concepts
from annotator.log.document import LogDocument
from annotator.team.files import human_files_beside
from annotator.team.work import TeamWork


def _user_turns(doc):
    return [turn for session in doc.sessions for turn in session.user_turns]


def test_each_annotator_saves_only_their_own_work_and_the_log_keeps_its_bytes(absolute_audio_log):
    before = absolute_audio_log.read_bytes()
    for name, text, done in [("alice", "to boston please", "1"), ("bob", "two boston please", "0")]:
        doc = LogDocument.load(absolute_audio_log)
        work = TeamWork(doc, name, clock=lambda name=name: f"2026-11-25T00:00:00Z-{name}"[:20])
        set_transcription(_user_turns(doc)[0], text)
        set_task_completion(doc.sessions[0], done)
        assert doc.is_modified
        work.save()
        assert not doc.is_modified
        work.close()
    assert absolute_audio_log.read_bytes() == before
    files = human_files_beside(absolute_audio_log)
    assert sorted(files) == ["alice", "bob"]
    alice, bob = (human_file_content(files[name]) for name in ("alice", "bob"))
    assert alice.annotator == "alice" and bob.annotator == "bob"
    assert list(alice.annotations.transcriptions.values()) == ["to boston please"]
    assert list(bob.annotations.transcriptions.values()) == ["two boston please"]
    assert list(alice.annotations.task_completion.values()) == ["1"]
    assert set(alice.changed.values()) == {"2026-11-25T00:00:00Z"}
    assert len(alice.changed) == 2  # the turn and the session
    assert read_human_file(files["alice"]) == alice.annotations  # what `annotator fold` reads


def test_opening_again_loads_the_annotators_file_into_the_document_without_unsaved_work(absolute_audio_log):
    doc = LogDocument.load(absolute_audio_log)
    work = TeamWork(doc, "alice", clock=lambda: "2026-11-25T01:00:00Z")
    set_transcription(_user_turns(doc)[1], "yes")
    work.save()
    work.close()
    again = LogDocument.load(absolute_audio_log)
    TeamWork(again, "alice").save()  # saving unchanged work keeps each value's time
    assert _user_turns(again)[1].transcription == "yes"
    assert not again.is_modified
    assert list(human_file_content(work.file).changed.values()) == ["2026-11-25T01:00:00Z"]
    other = LogDocument.load(absolute_audio_log)
    TeamWork(other, "carol")
    assert _user_turns(other)[1].transcription is None  # carol sees the log, not alice's work


def test_values_the_log_already_holds_are_nobodys_work(annotated_log):
    doc = LogDocument.load(annotated_log)
    logged = extract(doc)
    assert logged.transcriptions
    work = TeamWork(doc, "alice")
    turn = next(turn for turn in _user_turns(doc) if turn.transcription)
    set_transcription(turn, turn.transcription + " indeed")
    work.save()
    saved = etree.parse(str(work.file)).getroot()
    assert [el.text for el in saved.iter("GC_DATA")] == [turn.transcription]


def test_reference_concepts_go_into_the_annotators_file_and_come_back_on_open(absolute_audio_log):
    before = absolute_audio_log.read_bytes()
    frame = Concepts("give_destination", ((":destination", "Boston"),))
    doc = LogDocument.load(absolute_audio_log)
    work = TeamWork(doc, "alice", clock=lambda: "2026-11-25T02:00:00Z")
    set_concepts(_user_turns(doc)[0], frame)
    work.save()
    work.close()
    assert absolute_audio_log.read_bytes() == before
    content = human_file_content(work.file)
    assert list(content.annotations.concepts.values()) == [frame]
    assert set(content.changed.values()) == {"2026-11-25T02:00:00Z"}
    again = LogDocument.load(absolute_audio_log)
    TeamWork(again, "alice")
    assert reference_concepts(_user_turns(again)[0].facts()) == frame
    assert not again.is_modified


def test_each_value_keeps_the_time_it_changed_not_the_time_of_the_save(absolute_audio_log):
    """Time spent is stored on the turn as a save begins: it must not move the transcription's `changed`."""
    from annotator.log.annotations import add_time_spent

    doc = LogDocument.load(absolute_audio_log)
    now = ["2026-11-25T09:00:00Z"]
    work = TeamWork(doc, "alice", clock=lambda: now[0])
    turn = _user_turns(doc)[0]
    set_transcription(turn, "to boston please")
    now[0] = "2026-11-25T09:30:00Z"
    set_task_completion(doc.sessions[0], "1")
    now[0] = "2026-11-25T10:00:00Z"  # the save, with the time spent added as it begins
    add_time_spent(turn, 12.5)
    work.save()
    work.close()
    content = human_file_content(human_files_beside(absolute_audio_log)["alice"])
    assert sorted(content.changed.values()) == ["2026-11-25T09:00:00Z", "2026-11-25T09:30:00Z"]
