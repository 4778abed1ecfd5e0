"""Views: times in seconds whatever the unit, numeric turn ids, speakers, texts."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.log.document import LogDocument
from annotator.log.times import TimeUnit
from tests.log.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log


def _load(tmp_path: Path, text: str) -> LogDocument:
    return LogDocument.load(write_log(tmp_path / "log.xml", text))


def test_seconds_and_milliseconds_logs_give_the_same_seconds(tmp_path: Path):
    seconds = _load(tmp_path, log_text([session("s", [system_turn("1", 930254422.72, "hi")],
                                                930254422.72, 930254434.79)]))
    millis_text = log_text([session("s", [system_turn("1", 930254422720, "hi")], 930254422720, 930254434790)])
    millis = LogDocument.load(write_log(tmp_path / "ms.xml", millis_text))
    assert seconds.unit is TimeUnit.SECONDS and millis.unit is TimeUnit.MILLISECONDS
    assert seconds.sessions[0].duration == pytest.approx(12.07)
    assert millis.sessions[0].duration == pytest.approx(12.07)
    assert millis.sessions[0].stime == pytest.approx(930254422.72)
    # system_turn spans 2 units of the log: 2 s in seconds, 2 ms in milliseconds
    assert millis.sessions[0].turns[0].duration == pytest.approx(0.002)


def test_turn_ids_match_numerically(tmp_path: Path):
    doc = _load(tmp_path, log_text([session("s", [system_turn("-01", 1000, "hi"), user_turn("02", 1002, "yes", turnid="2")])]))
    s = doc.sessions[0]
    assert s.turn("-1").id == "-01"
    assert s.turn("2").id == "02" and s.turn("002").id == "02"
    assert s.turn(2) is s.turns[1]
    assert s.turns[1].operations[0].turn_key == 2
    assert s.turn("9") is None


def test_speaker_from_markers_then_content(tmp_path: Path):
    unmarked_user = ('<GC_TURN id="3" stime="1004" etime="1005">'
                     + operation("3", 1004, 1005, "recognize", "recognizer", "", data(":in", "hello", 'type="text_input"'))
                     + "</GC_TURN>")
    unmarked_system = ('<GC_TURN id="4" stime="1005" etime="1006">'
                       + operation("4", 1005, 1006, "reply", "nl", "", data(":out", "hi", 'type="text_output"'))
                       + "</GC_TURN>")
    start_utt = ('<GC_TURN id="5" stime="1006" etime="1007">'
                 + operation("5", 1006, 1007, "play", "audio", 'type_start_utt="system"', data(":in", "x", 'type="text_input"'))
                 + "</GC_TURN>")
    empty = '<GC_TURN id="6" stime="1007" etime="1008"/>'
    doc = _load(tmp_path, log_text([session("s", [system_turn("1", 1000, "hi"), user_turn("2", 1002, "yes"),
                                                  unmarked_user, unmarked_system, start_utt, empty])]))
    assert [t.speaker for t in doc.sessions[0].turns] == ["system", "user", "user", "system", "system", None]


def test_texts_and_nested_data(tmp_path: Path):
    nested = data(":nbest", '<GC_LIST name=":nbest">' + data(":nbest[0]", "boston", 'type="text_input_hypothesis"')
                  + "</GC_LIST>")
    frame = data(":parse", '<GC_FRAME name="flight_query">' + data(":destination", "Zürich") + "</GC_FRAME>", 'type="concept"')
    turn = ('<GC_TURN id="2" stime="1002" etime="1004">'
            + operation("2", 1002, 1003, "recognize", "recognizer", 'type_new_turn="user"',
                        data(":input_string", "i want\n   to fly", 'type="text_input"') + nested + frame)
            + "</GC_TURN>")
    doc = _load(tmp_path, log_text([session("s", [system_turn("1", 1000, "where to?"), turn])]))
    user = doc.sessions[0].turns[1]
    assert user.asr_text == "i want to fly"  # whitespace collapsed; hypotheses are not the chosen text
    assert doc.sessions[0].turns[0].system_text == "where to?"
    parse = [d for d in user.operations[0].data if d.has_type("concept")][0]
    assert parse.frames[0].name == "flight_query"
    assert [d.text for d in parse.iter_all_data()] == ["Zürich"]
    assert [type(c).__name__ for c in user.operations[0].data[1].children] == ["ListView"]


def test_events_in_document_order_with_point_times(tmp_path: Path):
    extra = ('<GC_MESSAGE name="filelog" direction="server_to_hub" server="audio" location="l:1" turnid="1" time="1001.5"/>'
             '<GC_EVENT etype="LOCK" name=":lock" turnid="1" time="1001.7"/>')
    turn = system_turn("1", 1000, "hi").replace("</GC_TURN>", extra + "</GC_TURN>")
    doc = _load(tmp_path, log_text([session("s", [turn])]))
    events = list(doc.sessions[0].iter_events())
    assert [e.tag for e in events] == ["GC_OPERATION", "GC_MESSAGE", "GC_EVENT"]
    assert events[1].stime == events[1].etime == 1001.5 and events[1].duration == 0.0
    assert events[2].etype == "LOCK"
    assert events[0].duration == pytest.approx(0.5)


def test_sample_logs_load(sample_logs):
    for path in sample_logs:
        doc = LogDocument.load(path)
        for s in doc.sessions:
            assert 8 <= len(s.turns) <= 20
            speakers = [t.speaker for t in s.turns]
            assert speakers[0] == "system"
            assert all(a != b for a, b in zip(speakers, speakers[1:])), "turns alternate"
            assert all(t.duration is not None and t.duration > 0 for t in s.turns)
