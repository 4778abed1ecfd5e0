"""Session metrics on hand-built logs whose every expected value is worked out by hand below."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.analysis.metrics import SESSION_METRIC_COLUMNS, SessionMetrics, session_metrics, turn_wer
from annotator.analysis.metrics_scan import transcriptions_by_turn
from tests.support.metric_logs import (
    Clock,
    asr,
    event,
    load,
    message,
    millis_clock,
    op,
    seconds_clock,
    session,
    system_said,
    transcription,
    turn,
)
from tests.support.xml_builders import data


def full_session(c: Clock) -> str:
    """Every metric's attributes present; the expected values are in test_every_metric_present."""
    t0 = turn(
        c,
        "1",
        0.0,
        3.0,
        op(c, "1", -0.1, 0.0, "greet", body=system_said("Hello."))  # before the start marker
        + op(
            c,
            "1",
            0.0,
            0.1,
            "paraphrase_reply",
            attrs='type_new_turn="system" type_start_task="total" type_prompt=":destination"',
            body=system_said("Welcome! Where would you like to go?"),
        )
        + op(c, "1", 0.1, 0.5, "synthesize", "synthesizer")
        + op(c, "1", 0.1, 0.5, "synthesis_duration", "synthesizer", 'type="synthesis_duration"')
        + op(c, "1", 0.6, 3.0, "play", "audio", 'type_start_utt="system" type_end_utt="system"'),
    )
    t1 = turn(
        c,
        "2",
        3.5,
        6.0,
        transcription("2", "I want to fly to Boston [noise]")
        + op(c, "2", 3.5, 5.0, "record", "audio", 'type_new_turn="user" type_end_utt="user"')
        + op(c, "2", 5.0, 5.6, "recognize", "recognizer", body=asr("i want to fly to austin"))
        + op(c, "2", 5.0, 5.6, "recognition_duration", "recognizer", 'type="recognition_duration"')
        + op(c, "2", 5.6, 5.7, "parse", body=data(":input_parse_successful", "1", 'dtype="integer"')),
    )
    t2 = turn(
        c,
        "3",
        6.0,
        7.5,
        transcription("3", "on Monday")
        + op(c, "3", 6.0, 7.0, "record", "audio", 'type_new_turn="user" type_end_utt="user"')
        + op(c, "3", 7.0, 7.4, "recognize", "recognizer", body=asr("on monday morning"))
        + op(c, "3", 7.0, 7.4, "recognition_duration", "recognizer", 'type="recognition_duration"')
        + op(c, "3", 7.4, 7.5, "parse", body=data(":parse_ok", "0", 'type="input_parse_successful"')),
    )
    t3 = turn(
        c,
        "4",
        8.0,
        11.5,
        op(
            c,
            "4",
            8.0,
            8.1,
            "reply",
            attrs='type_new_turn="system" type_prompt=":destination"',
            body=system_said("Sorry, where to?", 'type_error_msg="true"'),
        )
        + op(c, "4", 8.1, 8.3, "synthesis_duration", "synthesizer", 'type="synthesis_duration"')
        + op(c, "4", 8.5, 10.0, "play", "audio", 'type_start_utt="system" type_end_utt="system"')
        + op(
            c,
            "4",
            10.0,
            10.1,
            "reply",
            attrs='type_prompt=":date"',
            body=system_said("Say a date.", 'type_help_msg="true"'),
        )
        + op(c, "4", 10.2, 10.25, "play", "audio", 'type_start_utt="system"')
        + message(c, "4", 11.2, 'type_end_utt="system"'),
    )
    t4 = turn(
        c,
        "5",
        12.0,
        13.5,
        op(c, "5", 12.0, 13.0, "record", "audio", 'type_new_turn="user" type_end_utt="user"')
        + op(c, "5", 13.0, 13.2, "recognize", "recognizer", body=asr("yes")),
    )
    t5 = turn(
        c,
        "6",
        14.0,
        16.0,
        op(
            c,
            "6",
            14.0,
            14.2,
            "reply",
            attrs='type_new_turn="system" type_prompt=":date" type_end_task="true"',
            body=system_said("Goodbye."),
        )
        + op(c, "6", 14.3, 15.3, "play", "audio", 'type_start_utt="system" type_end_utt="system"')
        + op(c, "6", 15.3, 15.4, "close_off", body=system_said("Thanks for calling.")),
    )  # after the end marker
    return session(c, [t0, t1, t2, t3, t4, t5], 0.0, 30.0, extra='<GC_ANNOT type_task_completion="1"/>')


# By hand, for full_session (times in seconds from the session start):
# sides: system, user, user, system, user, system -> collapsed S | U(turns 1,2) | S | U | S = 5 turns
# transcription words: "i want to fly to boston" 6 ([noise] dropped) + "on monday" 2 = 8, over 2 user turns -> 4.0
# system words: hello 1 + welcome where would you like to go 7 + sorry where to 3 + say a date 3 + goodbye 1
#   + thanks for calling 3 = 18, over 3 system turns -> 6.0; from the start marker (turn 1's reply) to the
#   end marker (turn 6's reply): 7 + 3 + 3 + 1 = 14; user words in turns 1..6: 8
# time_to_completion: end marker etime 14.2 - start marker stime 0.0 = 14.2 (kind "total")
# prompts :destination, :destination, :date, :date -> 2 reprompts
# user ends 5.0, 7.0, 13.0 -> next system starts 8.5, 8.5, 14.3 -> latencies 3.5, 1.5, 1.3, mean 2.1
# system utterances: 0.6-3.0 = 2.4, 8.5-10.0 = 1.5, 10.2-11.2 (message) = 1.0, 14.3-15.3 = 1.0; mean 5.9/4 = 1.475
# system turns: 0.6-3.0 = 2.4, 8.5-11.2 = 2.7, 14.3-15.3 = 1.0; mean 6.1/3
# WER: turn 1 "boston"->"austin" S=1 of 6; turn 2 "morning" inserted I=1 of 2; turn 4 has no transcription.
#   session (1 + 1) / (6 + 2) = 0.25
# recognition: virtual 0.6 + 0.4 = 1.0; synthesis: virtual 0.4 + 0.2 = 0.6 (the real synthesize op is not added)
# output presentation: no virtual ops -> the system utterances, 5.9; parse: "1" and "0" -> 0.5
FULL_EXPECTED = {
    "task_completion": "1",
    "time_to_completion": 14.2,
    "turns_to_completion": 5,
    "mean_user_words_per_turn": 4.0,
    "mean_system_words_per_turn": 6.0,
    "error_messages": 1,
    "help_messages": 1,
    "response_latency": 2.1,
    "user_words_to_completion": 8,
    "system_words_to_completion": 14,
    "system_reprompts": 2,
    "word_error_rate": 0.25,
    "mean_system_utterance_s": 1.475,
    "mean_system_turn_s": 6.1 / 3,
    "session_duration_s": 30.0,
    "n_turns": 6,
    "n_user_turns": 3,
    "n_system_turns": 3,
    "recognition_s": 1.0,
    "synthesis_s": 0.6,
    "output_presentation_s": 5.9,
    "parse_success_rate": 0.5,
    "time_to_completion_kind": "total",
    # no reference concepts in this session: empty, not zero (tests/analysis/test_concept_metrics.py scores them)
    "concept_error_rate": None,
    "concept_accuracy": None,
    "concept_sentence_accuracy": None,
}


def assert_values(metrics: SessionMetrics, expected: dict) -> None:
    for name, value in expected.items():
        got = metrics.values[name]
        if isinstance(value, float):
            assert got == pytest.approx(value, abs=1e-6), name
        else:
            assert got == value, name
            assert type(got) is type(value), name


def test_columns_are_the_documented_ones_in_order():
    assert SESSION_METRIC_COLUMNS[:14] == [
        "task_completion",
        "time_to_completion",
        "turns_to_completion",
        "mean_user_words_per_turn",
        "mean_system_words_per_turn",
        "error_messages",
        "help_messages",
        "response_latency",
        "user_words_to_completion",
        "system_words_to_completion",
        "system_reprompts",
        "word_error_rate",
        "mean_system_utterance_s",
        "mean_system_turn_s",
    ]
    assert set(SESSION_METRIC_COLUMNS) == set(FULL_EXPECTED)
    assert len(SESSION_METRIC_COLUMNS) == len(set(SESSION_METRIC_COLUMNS))


def test_every_metric_present(tmp_path: Path):
    metrics = session_metrics(load(tmp_path, full_session(seconds_clock)).sessions[0])
    assert list(metrics.values) == SESSION_METRIC_COLUMNS
    assert_values(metrics, FULL_EXPECTED)
    assert metrics.turn_groups == [("system", [0]), ("user", [1, 2]), ("system", [3]), ("user", [4]), ("system", [5])]
    assert metrics.turn_response_latency == pytest.approx({1: 3.5, 2: 1.5, 4: 1.3})
    assert metrics.turn_wer == pytest.approx({1: 1 / 6, 2: 0.5, 4: None})
    assert metrics.turn_wer_reasons == {4: "the turn has no transcription"}
    assert (metrics.wer_substitutions, metrics.wer_deletions, metrics.wer_insertions) == (1, 0, 1)
    assert (metrics.wer_errors, metrics.wer_reference_words) == (2, 8)
    # values that stand on part of the data, or on a fallback, say so
    assert metrics.reasons["mean_user_words_per_turn"] == "only 2 of 3 user GC_TURNs are transcribed"
    assert "1 user GC_TURN(s) lack a transcription" in metrics.reasons["word_error_rate"]
    assert metrics.reasons["output_presentation_s"].startswith("estimated from the system utterances")
    assert "recognition_s" not in metrics.reasons and "synthesis_s" not in metrics.reasons
    assert "time_to_completion" not in metrics.reasons


def test_milliseconds_log_gives_the_same_seconds(tmp_path: Path):
    seconds = load(tmp_path, full_session(seconds_clock), name="s.xml")
    millis = load(tmp_path, full_session(millis_clock), name="ms.xml")
    assert seconds.unit.name == "SECONDS" and millis.unit.name == "MILLISECONDS"
    from_seconds, from_millis = session_metrics(seconds.sessions[0]), session_metrics(millis.sessions[0])
    assert_values(from_millis, FULL_EXPECTED)
    for name in SESSION_METRIC_COLUMNS:
        a, b = from_seconds.values[name], from_millis.values[name]
        assert (b == pytest.approx(a, abs=1e-6)) if isinstance(a, float) else a == b, name
    assert from_millis.turn_response_latency == pytest.approx(from_seconds.turn_response_latency)


def test_every_metric_missing_is_none_with_a_reason(tmp_path: Path):
    c = seconds_clock
    # One turn with no markers, texts or annotations at all: its side cannot be known either.
    bare = turn(c, "1", 0.0, 1.0, op(c, "1", 0.0, 1.0, "lookup", "backend"))
    doc = load(tmp_path, f'<GC_SESSION id="s" stime="{c(0.0)}">{bare}</GC_SESSION>')
    metrics = session_metrics(doc.sessions[0])
    counts = {"n_turns": 1, "n_user_turns": 0, "n_system_turns": 0}
    assert_values(metrics, counts)
    for name in SESSION_METRIC_COLUMNS:
        if name in counts:
            continue
        assert metrics.values[name] is None, name
        assert metrics.reasons[name], name
    assert metrics.reasons["time_to_completion"] == "no element carries type_start_task"
    assert metrics.reasons["task_completion"] == "the session has no GC_ANNOT with type_task_completion"
    assert metrics.reasons["session_duration_s"] == "the GC_SESSION has no usable stime and etime"
    assert metrics.reasons["system_reprompts"] == "no element carries type_prompt"
    assert metrics.reasons["response_latency"] == 'no element carries type_end_utt="user"'
    assert metrics.reasons["turns_to_completion"] == "no GC_TURN has a known side (no type_new_turn)"
    assert metrics.turn_wer == {} and metrics.turn_response_latency == {}


def test_partly_marked_session_keeps_real_zeros_and_nones_apart(tmp_path: Path):
    c = seconds_clock
    system = turn(
        c,
        "1",
        0.0,
        2.0,
        op(c, "1", 0.0, 1.0, "reply", attrs='type_new_turn="system" type_prompt=":a"', body=system_said("Where to?")),
    )
    user = turn(
        c,
        "2",
        2.0,
        4.0,
        op(c, "2", 2.0, 3.0, "record", "audio", 'type_new_turn="user" type_end_utt="user"')
        + op(c, "2", 3.0, 3.5, "recognize", "recognizer", body=asr("boston")),
    )
    metrics = session_metrics(load(tmp_path, session(c, [system, user])).sessions[0])
    # prompts exist but none repeats: a real 0
    assert metrics.values["system_reprompts"] == 0
    # system texts exist, but nothing in the log marks error or help messages: unknown, not 0
    assert metrics.values["error_messages"] is None and metrics.values["help_messages"] is None
    assert "type_error_msg" in metrics.reasons["error_messages"]
    # the start of the task is marked nowhere
    assert metrics.values["time_to_completion"] is None and metrics.values["user_words_to_completion"] is None
    # a user end with no system start after it
    assert metrics.values["response_latency"] is None
    assert "followed by" in metrics.reasons["response_latency"]
    # recognition from the recognizer's own operation: 3.0 .. 3.5
    assert metrics.values["recognition_s"] == pytest.approx(0.5)
    assert metrics.reasons["recognition_s"].startswith("estimated from operations of servers")
    assert metrics.values["word_error_rate"] is None
    assert metrics.reasons["word_error_rate"] == "no user turn has both a transcription and recognizer text"


def test_error_messages_are_zero_when_another_session_of_the_log_marks_them(tmp_path: Path):
    c = seconds_clock
    plain = turn(
        c, "1", 0.0, 1.0, op(c, "1", 0.0, 1.0, "reply", attrs='type_new_turn="system"', body=system_said("Hi."))
    )
    marked = turn(
        c,
        "1",
        0.0,
        1.0,
        op(
            c,
            "1",
            0.0,
            1.0,
            "reply",
            attrs='type_new_turn="system"',
            body=system_said("Sorry?", 'type_error_msg="true" type_help_msg="false"'),
        ),
    )
    doc = load(tmp_path, session(c, [plain], session_id="a"), session(c, [marked], session_id="b"))
    first, second = (session_metrics(s) for s in doc.sessions)
    assert first.values["error_messages"] == 0 and first.values["help_messages"] == 0
    assert second.values["error_messages"] == 1 and second.values["help_messages"] == 0


def test_collapsing_consecutive_same_side_turns(tmp_path: Path):
    c = seconds_clock

    def system(turn_id: str, start: float, text: str) -> str:
        return turn(
            c,
            turn_id,
            start,
            start + 1,
            op(c, turn_id, start, start + 0.5, "reply", attrs='type_new_turn="system"', body=system_said(text)),
        )

    def user(turn_id: str, start: float, heard: str, said: str) -> str:
        return turn(
            c,
            turn_id,
            start,
            start + 1,
            transcription(turn_id, said)
            + op(c, turn_id, start, start + 0.5, "record", "audio", 'type_new_turn="user"')
            + op(c, turn_id, start + 0.5, start + 0.8, "recognize", "recognizer", body=asr(heard)),
        )

    unknown = turn(c, "4", 4.0, 5.0, event(c, "4", 4.5))
    turns = [
        system("1", 0, "hello there"),
        system("2", 1, "how can i help"),  # S S -> one system turn
        user("3", 2, "boston", "boston"),
        unknown,
        user("5", 5, "please", "please"),  # U ? U -> one user turn
        system("6", 6, "ok"),
    ]
    metrics = session_metrics(load(tmp_path, session(c, turns)).sessions[0])
    # 3 turns: S(0,1) U(2,4) S(5); the unknown GC_TURN 3 neither counts nor separates
    assert metrics.turn_groups == [("system", [0, 1]), ("user", [2, 4]), ("system", [5])]
    assert metrics.values["turns_to_completion"] == 3
    assert metrics.reasons["turns_to_completion"] == "1 GC_TURN(s) have no known side and are left out"
    # user words 1 + 1 over ONE user turn; system words 2 + 4 + 1 = 7 over TWO system turns
    assert metrics.values["mean_user_words_per_turn"] == 2.0
    assert metrics.values["mean_system_words_per_turn"] == 3.5
    assert (metrics.values["n_turns"], metrics.values["n_user_turns"], metrics.values["n_system_turns"]) == (6, 2, 3)


def test_wer_per_turn_and_session_against_hand_counted_alignments(tmp_path: Path):
    c = seconds_clock
    cases = [
        # reference (transcription)             hypothesis (recognizer)                 S D I ref
        ("I want a flight from Boston to Denver", "i want flight from austin to denver please", (1, 1, 1, 8)),
        ("I'd like Boston, please.", "i'd like boston please", (0, 0, 0, 4)),
        ("[noise]", "", (0, 0, 0, 0)),  # nothing against nothing: 0.0
        ("yes please", "", (0, 2, 0, 2)),  # recognizer answered with nothing: 2 deletions
        ("[breath]", "yes", (0, 0, 1, 0)),  # words against no reference: no rate
    ]
    turns = []
    for i, (said, heard, _) in enumerate(cases):
        turn_id = str(i + 1)
        turns.append(
            turn(
                c,
                turn_id,
                i,
                i + 1,
                transcription(turn_id, said)
                + op(c, turn_id, i, i + 0.5, "record", "audio", 'type_new_turn="user"')
                + op(c, turn_id, i + 0.5, i + 0.9, "recognize", "recognizer", body=asr(heard)),
            )
        )
    no_asr = turn(
        c, "6", 5, 6, transcription("6", "hello") + op(c, "6", 5, 6, "record", "audio", 'type_new_turn="user"')
    )
    no_transcription = turn(
        c, "7", 6, 7, op(c, "7", 6, 7, "recognize", "recognizer", 'type_new_turn="user"', body=asr("hello"))
    )
    doc = load(tmp_path, session(c, turns + [no_asr, no_transcription]))
    s = doc.sessions[0]
    expected_rates = [3 / 8, 0.0, 0.0, 1.0, None, None, None]
    assert [turn_wer(t) for t in s.turns] == pytest.approx(expected_rates)
    metrics = session_metrics(s)
    assert metrics.turn_wer == pytest.approx(dict(enumerate(expected_rates)))
    assert (
        metrics.turn_wer_reasons[4] == "the transcription has no words after normalisation but the recognizer heard 1"
    )
    assert metrics.turn_wer_reasons[5].startswith("the turn has no recognizer text")
    assert metrics.turn_wer_reasons[6] == "the turn has no transcription"
    # session: S 1, D 1 + 2 = 3, I 1 + 1 = 2 -> 6 errors over 8 + 4 + 2 = 14 reference words
    assert (metrics.wer_substitutions, metrics.wer_deletions, metrics.wer_insertions) == (1, 3, 2)
    assert (metrics.wer_errors, metrics.wer_reference_words) == (6, 14)
    assert metrics.values["word_error_rate"] == pytest.approx(6 / 14)


def test_wer_of_words_against_an_empty_reference_only_is_none(tmp_path: Path):
    c = seconds_clock
    only = turn(
        c,
        "1",
        0,
        1,
        transcription("1", "[noise]")
        + op(c, "1", 0, 1, "recognize", "recognizer", 'type_new_turn="user"', body=asr("yes no")),
    )
    metrics = session_metrics(load(tmp_path, session(c, [only])).sessions[0])
    assert metrics.values["word_error_rate"] is None
    assert metrics.reasons["word_error_rate"] == "the transcriptions have no words but the recognizer heard 2"
    # and the transcription is there, with no words: 0 words per user turn is a real value
    assert metrics.values["mean_user_words_per_turn"] == 0.0


def test_task_markers_on_messages_and_events_and_the_task_span(tmp_path: Path):
    c = seconds_clock
    # kind "task": the start marker sits on the user's first recording, after the turn's annotation
    t1 = turn(
        c,
        "1",
        0.0,
        2.0,
        op(c, "1", 0.0, 0.5, "reply", attrs='type_new_turn="system"', body=system_said("Welcome to the service.")),
    )  # 4 words, before the start
    t2 = turn(
        c,
        "2",
        2.0,
        4.0,
        transcription("2", "to Denver")
        + message(c, "2", 2.25, 'type_new_turn="user" type_start_task="task"')
        + op(c, "2", 2.5, 3.0, "recognize", "recognizer", body=asr("to denver")),
    )
    t3 = turn(
        c,
        "3",
        4.0,
        6.0,
        op(c, "3", 4.0, 4.5, "reply", attrs='type_new_turn="system"', body=system_said("Booked."))
        + event(c, "3", 5.75, 'type_end_task="task"')
        + op(c, "3", 5.8, 5.9, "bye", body=system_said("Goodbye now.")),
    )  # 2 words, after the end
    t4 = turn(
        c,
        "4",
        6.0,
        7.0,
        transcription("4", "thanks bye")  # a user turn after the end marker's turn
        + op(c, "4", 6.0, 6.5, "record", "audio", 'type_new_turn="user"'),
    )
    metrics = session_metrics(load(tmp_path, session(c, [t1, t2, t3, t4])).sessions[0])
    # event time 5.75 - message time 2.25
    assert metrics.values["time_to_completion"] == pytest.approx(3.5)
    assert metrics.values["time_to_completion_kind"] == "task"
    # turns 2..3: "to denver" = 2 user words (turn 4 is after); system: "booked" = 1
    assert metrics.values["user_words_to_completion"] == 2
    assert metrics.values["system_words_to_completion"] == 1


def test_task_end_before_start_is_none(tmp_path: Path):
    c = seconds_clock
    t1 = turn(c, "1", 0.0, 1.0, op(c, "1", 0.0, 0.5, "reply", attrs='type_new_turn="system" type_end_task="true"'))
    t2 = turn(c, "2", 1.0, 2.0, op(c, "2", 1.0, 1.5, "record", "audio", 'type_new_turn="user" type_start_task="task"'))
    metrics = session_metrics(load(tmp_path, session(c, [t1, t2])).sessions[0])
    assert metrics.values["time_to_completion"] is None
    assert "comes before" in metrics.reasons["time_to_completion"]
    assert metrics.values["time_to_completion_kind"] == "task"


def test_durations_from_virtual_operations_and_fallbacks(tmp_path: Path):
    c = seconds_clock
    body = (
        op(c, "1", 0.0, 0.5, "reply", attrs='type_new_turn="system"')
        + op(c, "1", 0.5, 1.25, "synthesize", "Festival_Synth")  # fallback: 0.75
        + op(c, "1", 1.5, 2.0, "play", "audio", 'type_start_utt="system" type_end_utt="system"')
        + op(c, "1", 1.5, 3.5, "shown", "audio", 'type="output_presentation_duration"')
    )  # virtual: 2.0
    user = (
        op(c, "2", 4.0, 5.0, "record", "audio", 'type_new_turn="user"')
        + op(c, "2", 5.0, 5.4, "decode", "sphinx_recognizer")  # fallback: 0.4
        + op(c, "2", 5.4, 5.6, "decode", "Recognition_Server")
    )  # fallback: 0.2
    metrics = session_metrics(
        load(tmp_path, session(c, [turn(c, "1", 0, 4, body), turn(c, "2", 4, 6, user)])).sessions[0]
    )
    assert metrics.values["synthesis_s"] == pytest.approx(0.75)
    assert metrics.reasons["synthesis_s"] == (
        'estimated from operations of servers whose name contains "synth": no synthesis_duration virtual operations'
    )
    assert metrics.values["recognition_s"] == pytest.approx(0.6)
    assert metrics.values["output_presentation_s"] == pytest.approx(2.0)
    assert "output_presentation_s" not in metrics.reasons
    assert metrics.values["parse_success_rate"] is None


def test_system_utterance_pairing(tmp_path: Path):
    c = seconds_clock
    body = (
        op(c, "1", 0.0, 0.1, "reply", attrs='type_new_turn="system"')
        + message(c, "1", 1.0, 'type_start_utt="system"')  # dropped: another start comes before an end
        + message(c, "1", 2.0, 'type_start_utt="system"')
        + message(c, "1", 3.0, 'type_end_utt="system"')  # 3.0 - 2.0 = 1.0
        + message(c, "1", 3.5, 'type_end_utt="system"')
    )  # no start left: ignored
    second = turn(
        c,
        "2",
        5.0,
        8.0,
        op(c, "2", 5.0, 5.1, "reply", attrs='type_new_turn="system"')
        + op(c, "2", 6.0, 8.0, "play", "audio", 'type_start_utt="system" type_end_utt="system"'),
    )  # 2.0
    metrics = session_metrics(load(tmp_path, session(c, [turn(c, "1", 0, 4, body), second])).sessions[0])
    assert metrics.values["mean_system_utterance_s"] == pytest.approx(1.5)
    assert (
        metrics.reasons["mean_system_utterance_s"] == "1 system utterance start(s) have no timed end and are left out"
    )
    # both GC_TURNs are one system turn: first start 1.0 to last end 8.0
    assert metrics.values["mean_system_turn_s"] == pytest.approx(7.0)


def test_session_level_transcriptions_match_turn_transcription(tmp_path: Path):
    c = seconds_clock
    users = [
        turn(
            c,
            f"0{i}",
            i,
            i + 1,
            op(c, str(i), i, i + 1, "recognize", "recognizer", 'type_new_turn="user"', body=asr("hello world")),
        )
        for i in (1, 2)
    ]
    extra = transcription("1", "hello word") + transcription("2", "goodbye")
    s = load(tmp_path, session(c, users, extra=extra)).sessions[0]
    assert transcriptions_by_turn(s) == {t.index: t.transcription for t in s.turns}
    metrics = session_metrics(s)
    # "01" matches turnid "1": S=1 of 2; turn "02": S=1 and I=1 against 1 reference word
    assert metrics.turn_wer == pytest.approx({0: 0.5, 1: 2.0})
    assert metrics.values["word_error_rate"] == pytest.approx(3 / 3)


def test_turn_transcriptions_are_exposed_with_the_metrics(tmp_path: Path):
    c = seconds_clock
    users = [
        turn(
            c,
            f"0{i}",
            i,
            i + 1,
            op(c, str(i), i, i + 1, "recognize", "recognizer", 'type_new_turn="user"', body=asr("hello world")),
        )
        for i in (1, 2, 3)
    ]
    users[0] = users[0].replace("</GC_TURN>", transcription("1", "hello  word") + "</GC_TURN>")
    s = load(tmp_path, session(c, users, extra=transcription("3", "good\nbye"))).sessions[0]
    metrics = session_metrics(s)
    assert metrics.turn_transcriptions == {0: "hello word", 2: "good bye"}
    assert metrics.turn_transcriptions == transcriptions_by_turn(s)
    assert metrics.turn_wer_reasons[1] == "the turn has no transcription"
