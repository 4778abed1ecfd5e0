"""Rules of docs/metrics.md that test_metrics.py does not reach, each on a small log counted by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.analysis.metrics import session_metrics
from annotator.log.text import normalize_words
from tests.support.metric_logs import asr, load, op, seconds_clock, session, system_said, transcription, turn
from tests.support.xml_builders import data

c = seconds_clock


def test_the_documented_normalisation_example_has_four_words():
    assert normalize_words("I'd like  Boston,\nplease. [noise]") == ["i'd", "like", "boston", "please"]
    assert normalize_words("a round-trip - 'please' <breath>") == ["a", "round-trip", "please"]


def test_system_outputs_marked_only_as_text_output_add_no_words_and_no_messages(tmp_path: Path):
    # Turn 1 marks its reply with type_utt_text="system" (3 words); turn 3 only has type="text_output"
    # (4 words, flagged as an error): the metrics count what the log marks, so 3 words over 2 system turns.
    marked = turn(
        c,
        "1",
        0.0,
        1.0,
        op(
            c,
            "1",
            0.0,
            0.5,
            "reply",
            attrs='type_new_turn="system"',
            body=system_said("Where to, please?", 'type_error_msg="false"'),
        ),
    )
    user = turn(
        c,
        "2",
        1.0,
        2.0,
        op(c, "2", 1.0, 1.5, "record", "audio", 'type_new_turn="user"')
        + op(c, "2", 1.5, 1.8, "recognize", "recognizer", body=asr("boston")),
    )
    unmarked = turn(
        c,
        "3",
        2.0,
        3.0,
        op(
            c,
            "3",
            2.0,
            2.5,
            "reply",
            attrs='type_new_turn="system"',
            body=data(":reply_string", "Sorry, say that again.", 'type="text_output" type_error_msg="true"'),
        ),
    )
    metrics = session_metrics(load(tmp_path, session(c, [marked, user, unmarked])).sessions[0])
    assert metrics.values["mean_system_words_per_turn"] == 1.5
    # the log does mark error messages (type_error_msg="false" above), so none counted is a real 0
    assert metrics.values["error_messages"] == 0


def test_parse_success_counts_true_one_and_yes_in_any_case(tmp_path: Path):
    values = ["TRUE", " yes ", "1", "false", "0", "maybe"]
    body = "".join(
        op(c, "1", 0.1 * i, 0.1 * i + 0.05, "parse", body=data(":input_parse_successful", value))
        for i, value in enumerate(values)
    )
    user = turn(c, "1", 0.0, 1.0, op(c, "1", 0.0, 0.05, "record", "audio", 'type_new_turn="user"') + body)
    metrics = session_metrics(load(tmp_path, session(c, [user])).sessions[0])
    assert metrics.values["parse_success_rate"] == 0.5


def test_reprompts_compare_trimmed_prompts_and_skip_blank_ones(tmp_path: Path):
    prompts = [":city", " :city ", "  ", ":date", ":city"]
    body = "".join(
        op(c, "1", 0.1 * i, 0.1 * i + 0.05, "reply", attrs=f'type_prompt="{prompt}"')
        for i, prompt in enumerate(prompts)
    )
    system = turn(c, "1", 0.0, 1.0, op(c, "1", 0.0, 0.05, "reply", attrs='type_new_turn="system"') + body)
    metrics = session_metrics(load(tmp_path, session(c, [system])).sessions[0])
    # :city, :city (repeat), blank (no prompt), :date, :city -> one repeat
    assert metrics.values["system_reprompts"] == 1


def test_one_system_start_answers_every_user_end_before_it_but_not_its_own(tmp_path: Path):
    # User ends at 1.0 and 2.0; the element starting the system at 3.0 also ends a user utterance
    # (at 3.5), which only the system start at 5.0 answers.
    user = turn(
        c,
        "1",
        0.0,
        4.0,
        op(c, "1", 0.5, 1.0, "record", "audio", 'type_new_turn="user" type_end_utt="user"')
        + op(c, "1", 1.5, 2.0, "record", "audio", 'type_end_utt="user"')
        + op(c, "1", 3.0, 3.5, "both", "audio", 'type_start_utt="system" type_end_utt="user"'),
    )
    system = turn(
        c, "2", 4.0, 6.0, op(c, "2", 5.0, 5.5, "play", "audio", 'type_new_turn="system" type_start_utt="system"')
    )
    metrics = session_metrics(load(tmp_path, session(c, [user, system])).sessions[0])
    # latencies 3.0 - 1.0 = 2.0, 3.0 - 2.0 = 1.0, 5.0 - 3.5 = 1.5
    assert metrics.values["response_latency"] == pytest.approx(1.5)
    assert metrics.turn_response_latency == pytest.approx({0: 1.5})


def test_user_words_to_completion_take_transcribed_turns_between_the_markers_only(tmp_path: Path):
    before = turn(
        c,
        "1",
        0.0,
        1.0,
        transcription("1", "hello there") + op(c, "1", 0.0, 0.5, "record", "audio", 'type_new_turn="user"'),
    )
    start = turn(
        c,
        "2",
        1.0,
        2.0,
        op(
            c,
            "2",
            1.0,
            1.5,
            "reply",
            attrs='type_new_turn="system" type_start_task="task"',
            body=system_said("Where to?"),
        ),
    )
    inside = turn(
        c,
        "3",
        2.0,
        3.0,
        transcription("3", "to Denver, please")
        + op(c, "3", 2.0, 2.5, "record", "audio", 'type_new_turn="user" type_end_task="true"'),
    )
    after = turn(
        c,
        "4",
        3.0,
        4.0,
        transcription("4", "thank you") + op(c, "4", 3.0, 3.5, "record", "audio", 'type_new_turn="user"'),
    )
    metrics = session_metrics(load(tmp_path, session(c, [before, start, inside, after])).sessions[0])
    assert metrics.values["user_words_to_completion"] == 3
    assert metrics.values["time_to_completion"] == pytest.approx(1.5)  # 2.5 - 1.0
    assert metrics.values["time_to_completion_kind"] == "task"
    # all transcribed words (2 + 3 + 2) over the user turns: hello | S | to denver, thank you -> 2 user turns
    assert metrics.values["mean_user_words_per_turn"] == 3.5
