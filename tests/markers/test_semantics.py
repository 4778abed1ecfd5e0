"""What each condition and operator means, on small logs whose expected events are derived by hand.

Event indices count GC_OPERATION, GC_MESSAGE, GC_EVENT and GC_ANNOT elements
of the whole file in document order; the comments number them.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.log.document import LogDocument
from annotator.markers import apply_markers, parse_markers
from tests.support.marker_logs import (
    annot,
    asr,
    concept,
    data,
    event,
    frame,
    log,
    msg,
    op,
    session,
    system_text,
    transcription,
    turn,
    write,
)
from tests.support.rasa_reference import Event, Reference, evaluate


def hits(tmp_path: Path, markers: str, *sessions: str) -> list[tuple[str, int, int, int]]:
    """(marker, session index, event index, preceding user turns) of every reported event."""
    doc = LogDocument.load(write(tmp_path, "log", log(*sessions)))
    found = apply_markers(parse_markers(textwrap.dedent(markers)), doc)
    return [(h.marker, h.session_index, h.event_index, h.num_preceding_user_turns) for h in found]


def events(tmp_path: Path, marker: str, *sessions: str) -> list[int]:
    """The event indices at which the single marker MARKER (a YAML condition or operator) is reported."""
    body = textwrap.indent(textwrap.dedent(marker).strip(), "  ")
    return [event_index for _, _, event_index, _ in hits(tmp_path, f"m:\n{body}\n", *sessions)]


# --- conditions -------------------------------------------------------------

ACTIONS = session(turn(op("x"), msg("x"), event("LOCK", name="x"), op("y"), annot(task_completion="1")))  # 0..4


def test_action_applies_at_operations_and_messages_of_that_name(tmp_path):
    assert events(tmp_path, "action: x", ACTIONS) == [0, 1]
    assert events(tmp_path, "not_action: x", ACTIONS) == [2, 3, 4]
    assert events(tmp_path, "action: nowhere", ACTIONS) == []


INTENTS = session(
    turn(op("reply", concept("help"), new_turn="system")),  # 0: a system turn
    turn(
        op("record", new_turn="user"),  # 1
        op("parse", concept("help")),  # 2
        op("parse", data(":outer", body=concept("help"))),  # 3: concept GC_DATA deeper down
        op("parse", data(":p", type="concept", body=frame("flight") + frame("help"))),  # 4: help is not the first frame
        op("parse", data(":p", type="text concept", body=frame("help"))),
    ),  # 5: one of several types
    op("stray", concept("help")),  # 6: not in a turn
    turn(op("record", data(":u", type="audio_input")), op("parse", concept("help")), id="3"),  # 7, 8: user by its data
)


def test_intent_applies_in_user_turns_at_elements_carrying_the_concept_frame(tmp_path):
    assert events(tmp_path, "intent: help", INTENTS) == [2, 3, 5, 8]
    assert events(tmp_path, "not_intent: help", INTENTS) == [0, 1, 4, 6, 7]
    assert events(tmp_path, "intent: flight", INTENTS) == [4]


SLOTS = (
    session(
        turn(
            op("a"),  # 0
            op("parse", concept("flight_query", data(":destination", "Boston"))),  # 1: set (inside a frame)
            op("b"),  # 2
            op("clear", data(":destination", "  ")),  # 3: cleared (blank text)
            op("c"),  # 4
            op("again", data("destination", "Denver")),
        )
    ),  # 5: set again (key without colon)
    session(turn(op("d"))),  # 6: a new session starts unset
)


def test_slot_was_set_holds_from_a_setting_element_until_a_clearing_one_within_the_session(tmp_path):
    assert events(tmp_path, "slot_was_set: destination", *SLOTS) == [1, 2, 5]
    assert events(tmp_path, 'slot_was_set: ":destination"', *SLOTS) == [1, 2, 5]
    assert events(tmp_path, "slot_was_not_set: destination", *SLOTS) == [0, 3, 4, 6]


def test_the_last_gc_data_of_a_key_in_an_element_decides(tmp_path):
    one = session(turn(op("a", data(":k", "v"), data(":k", "")), op("b", data(":k", ""), data(":k", "v")), op("c")))
    assert events(tmp_path, "slot_was_set: k", one) == [1, 2]


SERVERS = session(
    turn(
        op("a", server="recognizer"),
        msg("m", server="recognizer"),
        event("LOCK", server="recognizer"),
        op("b", server="nl"),
        annot(task_completion="1"),
    )
)


def test_server(tmp_path):
    assert events(tmp_path, "server: recognizer", SERVERS) == [0, 1, 2]
    assert events(tmp_path, "not_server: recognizer", SERVERS) == [3, 4]


def test_event_matches_the_etype_of_gc_events_only(tmp_path):
    etypes = session(turn(event("LOCK"), event("UNLOCK"), op("LOCK"), event("LOCK", name="other")))
    assert events(tmp_path, "event: LOCK", etypes) == [0, 3]
    assert events(tmp_path, "not_event: LOCK", etypes) == [1, 2]


def test_data_type_at_any_depth_and_among_several_types(tmp_path):
    types = session(
        turn(
            op("record", data(":u", "a.wav", type="audio_input")),  # 0
            op("list", data(":l", body='<GC_LIST name="l">' + data(":i", type="audio_input") + "</GC_LIST>")),
            op("two", data(":t", type="text_output audio_input")),  # 2
            op("hyp", data(":h", type="audio_input_hypothesis")),  # 3: a different token
            op("none"),
        )
    )  # 4
    assert events(tmp_path, "data_type: audio_input", types) == [0, 1, 2]
    assert events(tmp_path, "not_data_type: audio_input", types) == [3, 4]


FLAGS = session(
    turn(
        op("reply", system_text("Sorry?", error=True), prompt=":source"),  # 0
        op("reply", system_text("You can say a city.", help=True)),  # 1
        op("reply", data(":r", "Sorry?", utt="system", error=True)),  # 2: system by type_utt_text only
        op("reply", data(":r", "Sorry?", type="text_output", error=True)),  # 3: system by type only
        op("heard", data(":i", "sorry", type="text_input", utt="asr", error=True)),  # 4: not system text
        op("reply", '<GC_DATA key=":r" type_utt_text="system" type_error_msg="false">Hello</GC_DATA>'),  # 5
    )
)


def test_error_and_help_messages_are_marked_system_texts(tmp_path):
    assert events(tmp_path, "error_message: true", FLAGS) == [0, 2, 3]
    assert events(tmp_path, 'error_message: "true"', FLAGS) == [0, 2, 3]
    assert events(tmp_path, "not_error_message: true", FLAGS) == [1, 4, 5]
    assert events(tmp_path, "help_message: true", FLAGS) == [1]
    assert events(tmp_path, "not_help_message: true", FLAGS) == [0, 2, 3, 4, 5]


def test_prompt_with_or_without_the_colon_on_any_element(tmp_path):
    prompts = session(
        turn(op("reply", prompt=":source"), msg("note", prompt="source"), op("reply", prompt=":date"), op("reply"))
    )
    assert events(tmp_path, "prompt: source", prompts) == [0, 1]
    assert events(tmp_path, 'prompt: ":source"', prompts) == [0, 1]
    assert events(tmp_path, "not_prompt: source", prompts) == [2, 3]


def test_task_completion_is_read_from_gc_annot(tmp_path):
    sessions = (
        session(annot(task_completion="1"), turn(op("a"))),  # 0, 1
        session('<GC_ANNOT task_completion="0"/>', turn(op("b"), annot(task_completion="1"))),
    )  # 2, 3, 4
    assert events(tmp_path, 'task_completion: "1"', *sessions) == [0, 4]
    assert events(tmp_path, "task_completion: 1", *sessions) == [0, 4]
    assert events(tmp_path, "task_completion: 0", *sessions) == [2]
    assert events(tmp_path, "not_task_completion: 1", *sessions) == [1, 2, 3]


TEXTS = session(
    turn(
        op("reply", system_text("Where would you like to go?")),  # 0
        transcription("i want  to\n  go to boston"),  # 1: whitespace collapsed
        op(
            "recognize",
            asr("i want to go to austin"),  # 2
            data(
                ":nbest",
                body='<GC_LIST name="n">'
                + data(":h", "i want to go to boston", type="text_input_hypothesis")
                + "</GC_LIST>",
            ),
        ),
        op("query", data(":sql", "select boston")),  # 3: not an utterance text
        op("recognize", data(":s", "to boston", utt="asr")),  # 4: asr by type_utt_text only
    )
)


def test_text_matches_recognizer_system_and_transcription_text(tmp_path):
    assert events(tmp_path, 'text_matches: "go to boston"', TEXTS) == [1]
    assert events(tmp_path, 'text_matches: "boston"', TEXTS) == [1, 4]
    assert events(tmp_path, 'text_matches: "(?i)^where"', TEXTS) == [0]
    assert events(tmp_path, 'text_matches: "want to go"', TEXTS) == [1, 2]
    assert events(tmp_path, 'not_text_matches: "boston"', TEXTS) == [0, 2, 3]


# --- operators -------------------------------------------------------------


def test_and_or_not_and_at_least_one_not_combine_at_the_same_event(tmp_path):
    s = session(turn(op("x", server="a"), op("x", server="b"), op("y", server="a"), op("y", server="b")))
    assert events(tmp_path, "and: [action: x, server: a]", s) == [0]
    assert events(tmp_path, "or: [action: x, server: a]", s) == [0, 1, 2]
    assert events(tmp_path, "at_least_one_not: [action: x, server: a]", s) == [1, 2, 3]
    assert events(tmp_path, "not: [action: x]", s) == [2, 3]
    assert events(tmp_path, "not: [or: [action: x, server: a]]", s) == [3]
    assert events(tmp_path, "and: [not: [action: x], not_server: a]", s) == [3]


def test_nested_operators_as_in_the_seed(tmp_path):
    s = session(
        turn(op("record", new_turn="user"), op("parse", concept("mood_great"))),  # 0, 1
        turn(op("ask"), op("name", data(":name", "Ann"))),  # 2, 3: the name slot is set
        turn(op("record", new_turn="user"), op("parse", concept("mood_unhappy"))),
    )  # 4, 5
    marker = """
        and:
          - or:
            - intent: mood_unhappy
            - intent: mood_great
          - not:
            - slot_was_set: name
    """
    assert events(tmp_path, marker, s) == [1]


A_B = session(turn(op("a"), op("b"), op("c"), op("a"), op("c"), op("b"), op("b")))  # 0..6


def test_seq_applies_at_its_last_step_with_any_events_in_between_then_starts_over(tmp_path):
    assert events(tmp_path, "seq: [action: a, action: b]", A_B) == [1, 5]
    assert events(tmp_path, "seq: [action: b, action: a]", A_B) == [3]
    assert events(tmp_path, "seq: [action: a]", A_B) == [0, 3]
    assert events(tmp_path, "seq: [action: a, action: c, action: b]", A_B) == [5]


def test_seq_advances_at_most_one_step_per_event(tmp_path):
    s = session(turn(op("a"), op("a"), op("a"), op("a"), op("a")))
    assert events(tmp_path, "seq: [action: a, action: a]", s) == [1, 3]
    both = session(turn(op("a", prompt="p"), op("b"), op("c", prompt="p")))
    assert events(tmp_path, "seq: [action: a, prompt: p]", both) == [2]


def test_seq_starts_over_in_each_session(tmp_path):
    sessions = (session(turn(op("a"))), session(turn(op("b"), op("a"), op("b"))))  # 0 | 1, 2, 3
    assert events(tmp_path, "seq: [action: a, action: b]", *sessions) == [3]


def test_seq_of_negations_and_a_negated_seq(tmp_path):
    assert events(tmp_path, "seq: [not_action: a, action: a]", A_B) == [3]
    assert events(tmp_path, "not: [seq: [action: a, action: b]]", A_B) == [0, 2, 3, 4, 6]


def test_at_least_once_is_reported_at_its_first_event_per_session(tmp_path):
    sessions = (session(turn(op("x"), op("a"), op("a"))), session(turn(op("a"))), session(turn(op("x"))))
    assert hits(tmp_path, "m:\n  at_least_once: [action: a]\n", *sessions) == [("m", 0, 1, 0), ("m", 1, 3, 0)]


def test_at_least_once_inside_an_operator_holds_from_then_on(tmp_path):
    s = session(turn(op("b"), op("a"), op("b"), op("c"), op("b")))
    assert events(tmp_path, "and: [at_least_once: [action: a], action: b]", s) == [2, 4]
    assert events(tmp_path, "not: [at_least_once: [action: a]]", s) == [0]  # every event before the first a


def test_never_is_reported_at_the_first_event_before_its_sub_marker_ever_applies(tmp_path):
    sessions = (
        session(turn(op("x"), op("a"), op("y"))),  # 0, 1, 2: holds at 0 only
        session(turn(op("a"), op("y"))),  # 3, 4: never holds
        session(turn(op("y"), op("z"))),
    )  # 5, 6: holds throughout
    assert hits(tmp_path, "m:\n  never: [action: a]\n", *sessions) == [("m", 0, 0, 0), ("m", 2, 5, 0)]
    assert events(tmp_path, "and: [never: [action: a], action: y]", *sessions) == [5]


def test_at_least_once_of_a_seq(tmp_path):
    assert events(tmp_path, "at_least_once: [seq: [action: a, action: b]]", A_B) == [1]


# --- rows --------------------------------------------------------------------


def test_event_indices_are_file_level_and_user_turns_count_within_the_session(tmp_path):
    sessions = (
        session(
            turn(op("hello", new_turn="system")),  # 0
            turn(op("record", new_turn="user"), op("help")),  # 1, 2: one user turn before 2
            turn(op("record", new_turn="user")),
            turn(op("help")),
        ),  # 3, 4: two before 4
        session(
            turn(op("help")),  # 5: a new session, no user turn yet
            turn(msg("record", new_turn="user"), op("help")),
        ),  # 6, 7
    )
    found = hits(tmp_path, "m:\n  action: help\nr:\n  action: record\n", *sessions)
    assert found == [
        ("m", 0, 2, 1),
        ("m", 0, 4, 2),
        ("r", 0, 1, 0),
        ("r", 0, 3, 1),
        ("m", 1, 5, 0),
        ("m", 1, 7, 1),
        ("r", 1, 6, 0),
    ]


def test_hits_carry_their_element_and_start_in_seconds_from_the_session_start(tmp_path):
    text = log(
        session(
            turn(
                op("a", stime=1795273200500, etime=1795273201000),
                msg("a", time=1795273202250),
                annot(task_completion="1"),
            ),
            stime=1795273200000,
        )
    )
    doc = LogDocument.load(write(tmp_path, "ms", text))
    found = apply_markers(parse_markers("m: {or: [action: a, task_completion: 1]}"), doc)
    assert [h.element.tag for h in found] == ["GC_OPERATION", "GC_MESSAGE", "GC_ANNOT"]
    assert [h.seconds for h in found] == [0.5, 2.25, None]
    assert all(h.session is doc.sessions[0] for h in found)


@pytest.mark.parametrize("times", [("1000.25", "1003.5"), (None, "3")])
def test_seconds_need_both_times(tmp_path, times):
    session_start, element_time = times
    doc = LogDocument.load(write(tmp_path, "s", log(session(turn(op("a", stime=element_time)), stime=session_start))))
    (hit,) = apply_markers(parse_markers("m: {action: a}"), doc)
    assert hit.seconds == (3.25 if session_start else None)


def test_markers_are_reported_in_definition_order_within_a_session(tmp_path):
    s = session(turn(op("b"), op("a")))
    assert hits(tmp_path, "z: {action: b}\na: {action: a}\n", s) == [("z", 0, 0, 0), ("a", 0, 1, 0)]


def test_an_empty_session_and_a_log_without_events(tmp_path):
    sessions = (session(), session(turn(op("a"))), session(turn()))
    assert hits(tmp_path, "m: {never: [action: b]}\nn: {at_least_once: [action: a]}\n", *sessions) == [
        ("m", 1, 0, 0),
        ("n", 1, 0, 0),
    ]
    assert hits(tmp_path, "m: {not_action: a}", session()) == []


# --- against a transcription of Rasa's implementation ------------------------

NEGATED_CONDITION = {
    "action": "not_action",
    "server": "not_server",
    "prompt": "not_prompt",
    "slot_was_set": "slot_was_not_set",
}
NEGATED_OPERATOR = {"and": "at_least_one_not", "at_least_once": "never"}

leaves = st.one_of(
    st.tuples(st.just("action"), st.sampled_from(["a", "b"])),
    st.tuples(st.just("server"), st.sampled_from(["s", "t"])),
    st.tuples(st.just("prompt"), st.sampled_from(["p", "q"])),
    st.tuples(st.just("slot_was_set"), st.just("k")),
).flatmap(lambda leaf: st.tuples(st.just(leaf[0]), st.booleans(), st.just(leaf[1])))


def _operators(children):
    several = st.lists(children, min_size=1, max_size=3).map(tuple)
    return st.one_of(
        st.tuples(st.sampled_from(["and", "or", "seq"]), st.booleans(), several),
        st.tuples(st.sampled_from(["not", "at_least_once"]), st.booleans(), st.tuples(children)),
    ).map(lambda node: (node[0], node[1] and node[0] in NEGATED_OPERATOR, node[2]))


trees = st.recursive(leaves, _operators, max_leaves=6)
rasa_events = st.builds(
    Event,
    st.sampled_from(["a", "b", "c"]),
    st.sampled_from(["s", "t"]),
    st.sampled_from([None, "p", "q"]),
    st.sampled_from([None, None, True, False]),
    st.booleans(),
)


def _reference(tree) -> Reference:
    tag, negated, rest = tree
    if tag in NEGATED_CONDITION:
        return Reference(tag, rest, negated=negated)
    return Reference(tag, children=tuple(map(_reference, rest)), negated=negated)


def _yaml(tree) -> dict:
    tag, negated, rest = tree
    if tag in NEGATED_CONDITION:
        return {NEGATED_CONDITION[tag] if negated else tag: rest}
    return {NEGATED_OPERATOR[tag] if negated else tag: [_yaml(child) for child in rest]}


def _element(event: Event) -> str:
    slot = {None: (), True: (data(":k", "v"),), False: (data(":k", ""),)}[event.slot]
    return op(event.name, *slot, server=event.server, prompt=event.prompt, new_turn="user" if event.user else None)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(trees, min_size=1, max_size=3), st.lists(st.lists(rasa_events, max_size=8), min_size=1, max_size=3))
@pytest.mark.slow
def test_agrees_with_rasas_event_by_event_evaluation(tmp_path, marker_trees, sessions):
    names = [f"m{i}" for i in range(len(marker_trees))]
    expected = evaluate(dict(zip(names, map(_reference, marker_trees))), sessions)
    text = yaml.safe_dump({name: _yaml(tree) for name, tree in zip(names, marker_trees)}, sort_keys=False)
    got = hits(tmp_path, text, *(session(turn(*map(_element, events))) for events in sessions))
    assert got == expected, text
