"""The facts cache: each turn scanned once, and after a change exactly the turns it can affect again."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.log import turn_facts
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

SESSION_LEVEL = (
    '<GC_ANNOT turnid="4"><GC_DATA key=":transcription" type_utt_text="transcription">to austin</GC_DATA></GC_ANNOT>'
)


@pytest.fixture
def document(tmp_path: Path) -> LogDocument:
    turns = [
        system_turn("1", 1000, "where to"),
        user_turn("2", 1002, "boston"),
        system_turn("3", 1004, "when"),
        user_turn("4", 1006, "to austin"),
        user_turn("5", 1008, "monday"),
    ]
    return LogDocument.load(write_log(tmp_path / "log.xml", log_text([session("s", turns, extra=SESSION_LEVEL)])))


@pytest.fixture
def scanned(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the turns scan_turn walked, in order (the real function does the walk)."""
    seen: list[str] = []
    real = turn_facts.scan_turn

    def counting(el):
        seen.append(el.get("id"))
        return real(el)

    monkeypatch.setattr(turn_facts, "scan_turn", counting)
    return seen


def _read_all(document: LogDocument) -> list[tuple]:
    return [(t.speaker, t.asr_text, t.system_text, t.transcription) for t in document.sessions[0].turns]


def test_each_turn_is_scanned_once_whatever_is_read(document, scanned):
    first = _read_all(document)
    assert first[3] == ("user", "to austin", None, "to austin")  # the session-level transcription
    assert first[1][3] is None
    _read_all(document)
    document.sessions[0].turn_facts()
    assert scanned == ["1", "2", "3", "4", "5"]


def test_a_transcription_rescans_its_turn_only(document, scanned):
    _read_all(document)
    scanned.clear()
    set_transcription(document.sessions[0].turns[1], "to boston")
    assert _read_all(document)[1][3] == "to boston"
    assert scanned == ["2"]
    scanned.clear()
    set_transcription(document.sessions[0].turns[1], None)
    assert _read_all(document)[1][3] is None
    assert scanned == ["2"]


def test_a_session_level_transcription_changed_and_cleared(document, scanned):
    turn = document.sessions[0].turns[3]
    assert turn.transcription == "to austin"
    scanned.clear()
    set_transcription(turn, "to houston")  # the session-level GC_ANNOT moves into the turn
    assert turn.transcription == "to houston"
    assert document.sessions[0].session_level_transcription(turn.key) is None
    set_transcription(turn, None)
    assert turn.transcription is None
    assert scanned == ["4", "4"]


def test_a_task_completion_rescans_nothing(document, scanned):
    _read_all(document)
    scanned.clear()
    set_task_completion(document.sessions[0], "1")
    assert document.sessions[0].task_completion == "1"
    _read_all(document)
    assert scanned == []


def test_the_untranscribed_index_follows_the_changes(document):
    session_ = document.sessions[0]
    cache = document.facts_cache
    assert cache.untranscribed(session_) == [1, 4]
    set_transcription(session_.turns[4], "monday")
    assert cache.untranscribed(session_) == [1]
    set_transcription(session_.turns[3], None)  # the session-level one removed
    assert cache.untranscribed(session_) == [1, 3]
    set_transcription(session_.turns[4], None)
    assert cache.untranscribed(session_) == [1, 3, 4]


def test_turns_sharing_an_id_are_rescanned_together(tmp_path: Path, monkeypatch):
    turns = [user_turn("7", 1000, "boston"), user_turn("7", 1002, "austin")]
    shared = (
        '<GC_ANNOT turnid="7"><GC_DATA key=":transcription" type_utt_text="transcription">'
        "to boston</GC_DATA></GC_ANNOT>"
    )
    document = LogDocument.load(write_log(tmp_path / "log.xml", log_text([session("s", turns, extra=shared)])))
    first, second = document.sessions[0].turns
    assert (first.transcription, second.transcription) == ("to boston", "to boston")
    set_transcription(first, "boston")  # the shared session-level annotation moves into the first turn
    assert (first.transcription, second.transcription) == ("boston", None)


def test_a_reloaded_document_has_its_own_cache(document, tmp_path):
    set_transcription(document.sessions[0].turns[1], "to boston")
    document.save()
    other = document.reload()
    assert other.facts_cache is not document.facts_cache
    assert other.sessions[0].turns[1].transcription == "to boston"


def test_the_metrics_walk_leaves_its_facts_for_the_views(sample_logs):
    from annotator.analysis.metrics import session_metrics_parts

    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    session = document.sessions[0]
    walked = session_metrics_parts(session).facts
    assert all(turn.facts() is facts for turn, facts in zip(session.turns, walked, strict=True))  # one walk, not two
    user = next(turn for turn in session.turns if turn.speaker == "user")
    set_transcription(user, "a change after the walk")
    assert user.facts() is not walked[user.index] and user.facts().transcription == "a change after the walk"


def test_facts_walked_before_a_change_are_not_adopted_after_it(sample_logs):
    from annotator.analysis.metrics_scan import SessionPass

    document = LogDocument.load(next(p for p in sample_logs if "003" in p.name))
    session = document.sessions[0]
    revision = document.revision
    walk = SessionPass(session).run()
    user = next(turn for turn in session.turns if turn.speaker == "user")
    set_transcription(user, "a change made while a worker walked")
    document.facts_cache.adopt(session, walk.facts, revision)  # a worker's walk ending after the change
    assert user.facts() is not walk.facts[user.index]
    assert user.facts().transcription == "a change made while a worker walked"
