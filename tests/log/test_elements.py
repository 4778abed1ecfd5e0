"""Views: times in seconds whatever the unit, numeric turn ids, speakers, texts."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from annotator.log.document import LogDocument
from annotator.log.text import clean_text
from annotator.log.times import TimeUnit
from annotator.log.turn_ids import turn_key
from tests.support.xml_builders import data, log_text, operation, session, system_turn, user_turn, write_log


def _load(tmp_path: Path, text: str) -> LogDocument:
    return LogDocument.load(write_log(tmp_path / "log.xml", text))


def test_seconds_and_milliseconds_logs_give_the_same_seconds(tmp_path: Path):
    seconds = _load(
        tmp_path, log_text([session("s", [system_turn("1", 930254422.72, "hi")], 930254422.72, 930254434.79)])
    )
    millis_text = log_text([session("s", [system_turn("1", 930254422720, "hi")], 930254422720, 930254434790)])
    millis = LogDocument.load(write_log(tmp_path / "ms.xml", millis_text))
    assert seconds.unit is TimeUnit.SECONDS and millis.unit is TimeUnit.MILLISECONDS
    assert seconds.sessions[0].duration == pytest.approx(12.07)
    assert millis.sessions[0].duration == pytest.approx(12.07)
    assert millis.sessions[0].stime == pytest.approx(930254422.72)
    # system_turn spans 2 units of the log: 2 s in seconds, 2 ms in milliseconds
    assert millis.sessions[0].turns[0].duration == pytest.approx(0.002)


def test_turn_ids_match_numerically(tmp_path: Path):
    doc = _load(
        tmp_path, log_text([session("s", [system_turn("-01", 1000, "hi"), user_turn("02", 1002, "yes", turnid="2")])])
    )
    s = doc.sessions[0]
    assert s.turn("-1").id == "-01"
    assert s.turn("2").id == "02" and s.turn("002").id == "02"
    assert s.turn(2) is s.turns[1]
    assert s.turns[1].operations[0].turn_key == 2
    assert s.turn("9") is None


def test_speaker_from_markers_then_content(tmp_path: Path):
    unmarked_user = (
        '<GC_TURN id="3" stime="1004" etime="1005">'
        + operation("3", 1004, 1005, "recognize", "recognizer", "", data(":in", "hello", 'type="text_input"'))
        + "</GC_TURN>"
    )
    unmarked_system = (
        '<GC_TURN id="4" stime="1005" etime="1006">'
        + operation("4", 1005, 1006, "reply", "nl", "", data(":out", "hi", 'type="text_output"'))
        + "</GC_TURN>"
    )
    start_utt = (
        '<GC_TURN id="5" stime="1006" etime="1007">'
        + operation("5", 1006, 1007, "play", "audio", 'type_start_utt="system"', data(":in", "x", 'type="text_input"'))
        + "</GC_TURN>"
    )
    empty = '<GC_TURN id="6" stime="1007" etime="1008"/>'
    doc = _load(
        tmp_path,
        log_text(
            [
                session(
                    "s",
                    [
                        system_turn("1", 1000, "hi"),
                        user_turn("2", 1002, "yes"),
                        unmarked_user,
                        unmarked_system,
                        start_utt,
                        empty,
                    ],
                )
            ]
        ),
    )
    assert [t.speaker for t in doc.sessions[0].turns] == ["system", "user", "user", "system", "system", None]


def test_texts_and_nested_data(tmp_path: Path):
    nested = data(
        ":nbest", '<GC_LIST name=":nbest">' + data(":nbest[0]", "boston", 'type="text_input_hypothesis"') + "</GC_LIST>"
    )
    frame = data(
        ":parse", '<GC_FRAME name="flight_query">' + data(":destination", "Zürich") + "</GC_FRAME>", 'type="concept"'
    )
    turn = (
        '<GC_TURN id="2" stime="1002" etime="1004">'
        + operation(
            "2",
            1002,
            1003,
            "recognize",
            "recognizer",
            'type_new_turn="user"',
            data(":input_string", "i want\n   to fly", 'type="text_input"') + nested + frame,
        )
        + "</GC_TURN>"
    )
    doc = _load(tmp_path, log_text([session("s", [system_turn("1", 1000, "where to?"), turn])]))
    user = doc.sessions[0].turns[1]
    assert user.asr_text == "i want to fly"  # whitespace collapsed; hypotheses are not the chosen text
    assert doc.sessions[0].turns[0].system_text == "where to?"
    parse = [d for d in user.operations[0].data if d.has_type("concept")][0]
    assert parse.frames[0].name == "flight_query"
    assert [d.text for d in parse.iter_all_data()] == ["Zürich"]
    assert [type(c).__name__ for c in user.operations[0].data[1].children] == ["ListView"]


def test_events_in_document_order_with_point_times(tmp_path: Path):
    extra = (
        '<GC_MESSAGE name="filelog" direction="server_to_hub" server="audio" location="l:1" turnid="1" time="1001.5"/>'
        '<GC_EVENT etype="LOCK" name=":lock" turnid="1" time="1001.7"/>'
    )
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


# --- Turn.facts(): the one-pass scan agrees with the rules as the views used to apply them ---------


def _reference_facts(turn) -> dict:
    """The rules as separate walks over DataViews (the views' code before the one-pass scan)."""
    activities = [c for c in turn.el.iterchildren("GC_OPERATION", "GC_MESSAGE", "GC_EVENT")]
    datas = [d for c in activities for d in c.iter("GC_DATA")]

    def types(d):
        return (d.get("type") or "").split()

    speaker = None
    for attribute in ("type_new_turn", "type_start_utt"):
        for child in activities:
            if speaker is None and child.get(attribute) in ("user", "system"):
                speaker = child.get(attribute)
    for d in datas:
        if speaker is not None:
            break
        if "audio_input" in types(d) or "text_input" in types(d) or d.get("type_utt_text") == "asr":
            speaker = "user"
        elif "text_output" in types(d) or "audio_output" in types(d) or d.get("type_utt_text") == "system":
            speaker = "system"

    def texts(utt, fallback):
        marked = [d for d in datas if d.get("type_utt_text") == utt]
        chosen = marked or [d for d in datas if fallback in types(d)]
        joined = [clean_text(d.text) for d in chosen if clean_text(d.text)]
        return chosen, " ".join(joined) if joined else None

    def first(wanted):
        return next((d for d in datas if wanted in types(d)), None)

    transcription = None
    for annotation in list(turn.el.iterchildren("GC_ANNOT")) + [
        a for a in turn.session.el.iterchildren("GC_ANNOT") if turn_key(a.get("turnid")) == turn.key
    ]:
        held = next(
            (
                d
                for d in annotation.iterchildren("GC_DATA")
                if d.get("type_utt_text") == "transcription" or d.get("key") == ":transcription"
            ),
            None,
        )
        if held is not None:
            transcription = clean_text(held.text)
            break
    asr, asr_text = texts("asr", "text_input")
    system, system_text = texts("system", "text_output")
    parse = [d for d in datas if d.get("key") == ":input_parse_successful" or "input_parse_successful" in types(d)]
    return {
        "speaker": speaker,
        "asr_data": asr,
        "asr_text": asr_text,
        "system_data": system,
        "system_text": system_text,
        "audio_input": first("audio_input"),
        "audio_output": first("audio_output"),
        "transcription": transcription,
        "parse_data": parse,
        "counts": tuple(sum(1 for c in activities if c.tag == t) for t in ("GC_OPERATION", "GC_MESSAGE", "GC_EVENT")),
    }


def _facts_as_dict(facts) -> dict:
    return {
        "speaker": facts.speaker,
        "asr_data": facts.asr_data,
        "asr_text": facts.asr_text,
        "system_data": facts.system_data,
        "system_text": facts.system_text,
        "audio_input": facts.audio_input,
        "audio_output": facts.audio_output,
        "transcription": facts.transcription,
        "parse_data": facts.parse_data,
        "counts": (facts.n_operations, facts.n_messages, facts.n_events),
    }


def _assert_facts_follow_the_rules(doc: LogDocument) -> None:
    for s in doc.sessions:
        all_facts = s.turn_facts()
        assert len(all_facts) == len(s.turns)
        for turn, facts in zip(s.turns, all_facts):
            expected = _reference_facts(turn)
            assert _facts_as_dict(facts) == expected
            assert _facts_as_dict(turn.facts()) == expected
            assert (turn.speaker, turn.asr_text, turn.system_text, turn.transcription) == (
                expected["speaker"],
                expected["asr_text"],
                expected["system_text"],
                expected["transcription"],
            )
            assert [d.el for d in turn.asr_data] == expected["asr_data"]
            assert [d.el for d in turn.system_data] == expected["system_data"]
            for direction in ("input", "output"):
                view = turn.audio_data(direction)
                assert (None if view is None else view.el) is expected[f"audio_{direction}"]
            marked = [d.get("type_utt_text") == "system" for d in facts.system_data]
            assert all(marked) if facts.system_marked else not any(marked)
            activities = list(turn.el.iterchildren("GC_OPERATION", "GC_MESSAGE", "GC_EVENT"))
            for said, index in zip(facts.system_data, facts.system_data_at, strict=True):
                assert said in list(activities[index].iter("GC_DATA"))


EDGE_TURNS = [
    # fallback texts (no type_utt_text), hypotheses that are not the chosen text, an annotation's data ignored,
    # a type with odd spacing, an empty text_input, a longer token containing a wanted one
    (
        '<GC_TURN id="3" stime="1004" etime="1005">'
        '<GC_ANNOT turnid="3"><GC_DATA key=":x" type="text_input audio_input">not activity data</GC_DATA></GC_ANNOT>'
        + operation(
            "3",
            1004,
            1005,
            "recognize",
            "recognizer",
            "",
            data(":in", " i   want\n to fly ", 'type="text_input"')
            + data(
                ":nbest", '<GC_LIST name=":n">' + data(":n0", "boston", 'type="text_input_hypothesis"') + "</GC_LIST>"
            )
            + data(":in2", "", 'type="text_input"')
            + data(":wav", "gone.wav", 'type="  audio_input  mime"'),
        )
        + '<GC_MESSAGE name="m" direction="server_to_hub" server="s" location="l:1" turnid="3" time="1004.5">'
        + data(":out", "spoken", 'type="text_output audio_outputs"')
        + "</GC_MESSAGE></GC_TURN>"
    ),
    # a user/system type_new_turn anywhere beats an earlier type_start_utt; other values are no side
    (
        '<GC_TURN id="4" stime="1005" etime="1006">'
        + operation("4", 1005, 1006, "a", "nl", 'type_new_turn="maybe" type_start_utt="system"')
        + operation("4", 1005, 1006, "b", "nl", 'type_new_turn="user"', data(":out", "hi", 'type="text_output"'))
        + "</GC_TURN>"
    ),
    # the side from data only; marked texts beat the fallback; parse results by key and by type; nested data
    (
        '<GC_TURN id="5" stime="1006" etime="1007">'
        + operation(
            "5",
            1006,
            1007,
            "a",
            "nl",
            "",
            data(":r", "fallback", 'type="text_output"')
            + data(":s", "marked", 'type_utt_text="system"')
            + data(":input_parse_successful", "true")
            + data(":p", "no", 'type="input_parse_successful x"')
            + data(":f", '<GC_FRAME name="f">' + data(":deep", "deep", 'type_utt_text="system"') + "</GC_FRAME>"),
        )
        + "</GC_TURN>"
    ),
    # nothing but an event; a comment among the children; an activity nested in data (not valid, but seen)
    (
        '<GC_TURN id="6" stime="1007" etime="1008"><!-- note -->'
        '<GC_EVENT etype="LOCK" name=":lock" turnid="6" time="1007.5"/>'
        + operation(
            "6",
            1007,
            1008,
            "outer",
            "nl",
            "",
            data(":d", '<GC_OPERATION name="inner" turnid="6" stime="1" etime="2" type_new_turn="user"/>'),
        )
        + "</GC_TURN>"
    ),
    '<GC_TURN id="7" stime="1008" etime="1009"/>',
    # two transcriptions in the turn (the first counts), one more at session level (ignored)
    (
        '<GC_TURN id="8" stime="1009" etime="1010">'
        '<GC_ANNOT><GC_DATA key=":other">x</GC_DATA></GC_ANNOT>'
        '<GC_ANNOT><GC_DATA key=":transcription">first  one</GC_DATA></GC_ANNOT>'
        '<GC_ANNOT><GC_DATA type_utt_text="transcription">second</GC_DATA></GC_ANNOT></GC_TURN>'
    ),
]
SESSION_ANNOTATIONS = (
    '<GC_ANNOT turnid="08"><GC_DATA type_utt_text="transcription">session level</GC_DATA></GC_ANNOT>'
    '<GC_ANNOT turnid="5"><GC_DATA key=":transcription">five\n said</GC_DATA></GC_ANNOT>'
    '<GC_ANNOT turnid="5"><GC_DATA key=":transcription">not the first</GC_DATA></GC_ANNOT>'
)


def test_facts_follow_the_view_rules_on_edge_cases(tmp_path: Path):
    turns = [system_turn("1", 1000, "hi"), user_turn("2", 1002, "yes")] + EDGE_TURNS
    doc = _load(tmp_path, log_text([session("s", turns, extra=SESSION_ANNOTATIONS)]))
    _assert_facts_follow_the_rules(doc)
    facts = doc.sessions[0].turn_facts()
    assert [f.speaker for f in facts] == ["system", "user", "user", "user", "system", None, None, None]
    assert facts[2].asr_text == "i want to fly" and not facts[2].asr_marked and facts[2].audio_input is not None
    assert facts[4].system_text == "marked deep" and facts[4].system_marked and facts[4].system_data_at == [0, 0]
    assert [d.text for d in facts[4].parse_data] == ["true", "no"]
    assert (facts[5].n_operations, facts[5].n_events) == (1, 1)
    assert facts[5].speaker is None, "an operation nested in data says nothing about the turn"
    assert facts[4].transcription == "five said" and facts[7].transcription == "first one"


XML_WORD = st.sampled_from(["hello", "", "  two  words ", "[noise]"])
DATA_ATTRS = st.sampled_from(
    [
        'type="text_input"',
        'type="text_output"',
        'type="audio_input"',
        'type="audio_output"',
        'type_utt_text="asr"',
        'type_utt_text="system"',
        'type="concept"',
        'type="text_input audio_input"',
        'type="text_input_hypothesis"',
        'key=":transcription"',
        'key=":input_parse_successful"',
        "",
    ]
)
ACTIVITY_ATTRS = st.sampled_from(
    [
        "",
        'type_new_turn="user"',
        'type_new_turn="system"',
        'type_start_utt="user"',
        'type_start_utt="system"',
        'type_new_turn="x"',
    ]
)


@st.composite
def random_turns(draw) -> str:
    children = []
    for _ in range(draw(st.integers(0, 4))):
        datas = "".join(
            f"<GC_DATA {draw(DATA_ATTRS)}>{draw(XML_WORD)}</GC_DATA>" for _ in range(draw(st.integers(0, 3)))
        )
        if draw(st.booleans()):
            datas = data(":frame", f'<GC_FRAME name="f">{datas}</GC_FRAME>') if datas else datas
        kind = draw(st.sampled_from(["op", "message", "event", "annot"]))
        if kind == "op":
            children.append(operation("1", 1000, 1001, "op", "nl", draw(ACTIVITY_ATTRS), datas))
        elif kind == "annot":
            children.append(f"<GC_ANNOT>{datas}</GC_ANNOT>")
        else:
            tag = "GC_MESSAGE" if kind == "message" else "GC_EVENT"
            children.append(f'<{tag} name="m" turnid="1" time="1000.5" {draw(ACTIVITY_ATTRS)}>{datas}</{tag}>')
    return f'<GC_TURN id="1" stime="1000" etime="1002">{"".join(children)}</GC_TURN>'


@settings(max_examples=150, deadline=None)
@given(turns=st.lists(random_turns(), min_size=1, max_size=3))
@pytest.mark.slow
def test_facts_follow_the_view_rules_on_random_turns(turns: list[str]):
    with tempfile.TemporaryDirectory() as folder:
        _assert_facts_follow_the_rules(_load(Path(folder), log_text([session("s", turns)])))


def test_facts_of_the_sample_logs_follow_the_view_rules(sample_logs):
    for path in sample_logs:
        _assert_facts_follow_the_rules(LogDocument.load(path))


def test_turn_containing_finds_the_turn_of_any_element(tmp_path: Path):
    doc = _load(tmp_path, log_text([session("s", [system_turn("1", 1000, "hi"), user_turn("2", 1002, "yes")])]))
    user = doc.sessions[0].turns[1]
    deep = user.el.find(".//GC_DATA")
    assert doc.turn_containing(deep) is user
    assert doc.turn_containing(user.el) is user
    assert doc.turn_containing(doc.sessions[0].el) is None
