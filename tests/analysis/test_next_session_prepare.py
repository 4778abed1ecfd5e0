"""prepare_doubts (annotator.analysis.next_session) fills the facts cache with what a press would make: the
same facts, the same doubts, so the most doubtful session found after it is the one found without it,
and a stop asked for leaves it early."""

from __future__ import annotations

from annotator.analysis.doubt import cached_session_doubts
from annotator.analysis.next_session import most_doubtful_session_to_transcribe, prepare_doubts
from annotator.log.document import LogDocument
from tests.support.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log

FAILED_PARSE = operation("2", 1, 2, "parse", "nl", "", data(":input_parse_successful", "0"))


def _log(tmp_path):
    sessions = [
        session(
            f"s{n}",
            [
                system_turn("1", 1000 + 100 * n, "where to?"),
                user_turn("2", 1010 + 100 * n, "boston", extra=FAILED_PARSE if n in (3, 5) else ""),
            ],
            start=1000 + 100 * n,
            end=1099 + 100 * n,
        )
        for n in range(8)
    ]
    return write_log(tmp_path / "eight-hublog.xml", log_text(sessions))


def test_prepared_doubts_and_facts_are_what_a_press_makes(tmp_path):
    log = _log(tmp_path)
    cold, prepared = LogDocument.load(log), LogDocument.load(log)
    assert prepare_doubts(prepared, lambda: False)
    for made, fresh in zip(prepared.sessions, cold.sessions):
        assert cached_session_doubts(made) == cached_session_doubts(fresh)
        assert _read(prepared.facts_cache.session_facts(made)) == _read(cold.facts_cache.session_facts(fresh))
    assert most_doubtful_session_to_transcribe(prepared, 0) == most_doubtful_session_to_transcribe(cold, 0) == 3
    assert most_doubtful_session_to_transcribe(prepared, 3) == most_doubtful_session_to_transcribe(cold, 3) == 5


def _read(facts) -> list[tuple]:
    return [
        (f.speaker, f.asr_text, f.system_text, f.transcription, f.prompt_type, f.n_operations, len(f.parse_data))
        for f in facts
    ]


def test_a_stop_leaves_the_rest_undone(tmp_path):
    document = LogDocument.load(_log(tmp_path))
    asked = []
    assert not prepare_doubts(document, lambda: asked.append(1) or len(asked) > 2)
    assert len(asked) == 3
