"""Loading and validating marker files: what is accepted, and one-line errors naming file, line and marker."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from annotator.errors import AnnotatorError
from annotator.markers import MarkerConfigError, load_markers, parse_markers, shipped_kpis_path
from annotator.markers.language import TAGS

SEED_CONFIG = """\
marker_name_provided:
  slot_was_set: name

marker_mood_expressed:
  or:
    - intent: mood_unhappy
    - intent: mood_great

marker_cheer_up_failed:
  seq:
    - intent: mood_unhappy
    - action: utter_cheer_up
    - action: utter_did_that_help
    - intent: deny

marker_bot_not_challenged:
  never:
    - intent: bot_challenge

marker_cheer_up_attempted:
  at_least_once:
    - action: utter_cheer_up

marker_mood_expressed_and_name_not_provided:
  and:
    - or:
      - intent: mood_unhappy
      - intent: mood_great
    - not:
      - slot_was_set: name
"""


def test_the_seeds_configuration_loads_with_its_structure(tmp_path):
    path = tmp_path / "markers.yml"
    path.write_text(SEED_CONFIG)
    markers = load_markers(path)
    assert markers.names == [
        "marker_name_provided",
        "marker_mood_expressed",
        "marker_cheer_up_failed",
        "marker_bot_not_challenged",
        "marker_cheer_up_attempted",
        "marker_mood_expressed_and_name_not_provided",
    ]
    assert [str(m) for m in markers][2:] == [
        "marker_cheer_up_failed: seq((intent: mood_unhappy) -> (action: utter_cheer_up) -> "
        "(action: utter_did_that_help) -> (intent: deny))",
        "marker_bot_not_challenged: never((intent: bot_challenge))",
        "marker_cheer_up_attempted: at_least_once((action: utter_cheer_up))",
        "marker_mood_expressed_and_name_not_provided: and(or((intent: mood_unhappy), (intent: mood_great)), "
        "not((slot_was_set: name)))",
    ]
    assert markers["marker_cheer_up_failed"].line == 9 and markers["marker_cheer_up_failed"].path == path


def test_negated_tags_stay_negated():
    """Rasa 3.6's loader turns not_intent into intent; ours keeps every negation."""
    text = "".join(
        f"m{i}: {{{tag}: x}}\n"
        for i, tag in enumerate(
            [
                "not_action",
                "not_intent",
                "slot_was_not_set",
                "not_server",
                "not_event",
                "not_data_type",
                "not_prompt",
                "not_task_completion",
                "not_text_matches",
            ]
        )
    )
    text += "e: {not_error_message: true}\nh: {not_help_message: true}\n"
    text += "o: {at_least_one_not: [action: a]}\nn: {never: [action: a]}\n"
    markers = parse_markers(text)
    assert all(marker.root.negated for marker in markers)
    assert str(markers["o"]) == "o: at_least_one_not((action: a))"


def test_descriptions_at_any_level_and_the_flow_style():
    markers = parse_markers(
        textwrap.dedent("""\
        helped:
          description: the caller needed help
          or:
            - {description: asked, intent: help}
            - help_message: true
        """)
    )
    assert markers.description("helped") == "the caller needed help"
    assert str(markers["helped"]) == "helped: or((intent: help), (help_message: true))"


def test_a_folder_of_files_in_sorted_order_skipping_hidden_ones(tmp_path):
    (tmp_path / "b.yaml").write_text("b_marker: {action: b}\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yml").write_text("a_marker: {action: a}\n")
    (tmp_path / "a.yml").write_text("first: {action: x}\nsecond: {action: y}\n")
    (tmp_path / ".hidden").mkdir()
    (tmp_path / ".hidden" / "c.yml").write_text("not: valid: [")
    (tmp_path / "notes.txt").write_text("ignored")
    assert load_markers(tmp_path).names == ["first", "second", "b_marker", "a_marker"]


def test_the_shipped_kpis_load():
    markers = load_markers(shipped_kpis_path())
    assert {
        "marker_help_requested",
        "marker_error_then_reprompt",
        "marker_task_completed",
        "marker_task_failed",
        "marker_misrecognition",
    } <= set(markers.names)
    assert all(markers.description(name) for name in markers.names)


def error(text: str, name: str = "m.yml") -> str:
    with pytest.raises(MarkerConfigError) as caught:
        parse_markers(textwrap.dedent(text), name)
    message = str(caught.value)
    assert "\n" not in message and isinstance(caught.value, AnnotatorError)
    return message


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "m:\n  not:\n    - action: a\n    - action: b\n",
            "m.yml:3: marker m: not takes exactly 1 sub-marker(s), found 2",
        ),
        ("m:\n  at_least_once: [action: a, action: b]\n", "m.yml:2: marker m: at_least_once takes exactly 1"),
        ("m:\n  never: []\n", "m.yml:2: marker m: never takes exactly 1 sub-marker(s), found 0"),
        ("m:\n  or: []\n", "m.yml:2: marker m: or needs at least one sub-marker"),
        ("m:\n  seq:\n    action: a\n", "m.yml:3: marker m: seq takes a list of sub-markers"),
        (
            "m:\n  intent: [a, b]\n",
            "m.yml:2: marker m: intent takes one value (e.g. `intent: flight_query`), found a list",
        ),
        (
            "m:\n  intent: greet\n  action: hello\n",
            "m.yml:2: marker m: expected exactly one condition or operator, found intent, action",
        ),
        ("m:\n  description: only words\n", "found nothing"),
        ("m:\n  intnet: greet\n", "m.yml:2: marker m: unknown condition or operator 'intnet' (did you mean 'intent'?)"),
        (
            "m:\n  intent: no\n",
            "m.yml:2: marker m: intent: expected a name, found the YAML boolean 'no'; put it in quotes",
        ),
        ("m:\n  intent:\n", "m.yml:2: marker m: intent: needs a value"),
        (
            "m:\n  error_message: false\n",
            "error_message: only takes `true` (found 'false'); write `not_error_message: true` for the opposite",
        ),
        (
            "m:\n  text_matches: '(unclosed'\n",
            "m.yml:2: marker m: text_matches: invalid regular expression '(unclosed'",
        ),
        (
            "m:\n  and:\n    - action: a\n    - oops\n",
            "m.yml:4: marker m: expected one condition or operator such as `intent: greet`, found 'oops'",
        ),
        ("m:\n  action: a\n  description: [x]\n", "m.yml:3: marker m: the description must be text, found a list"),
        ("m: {action: a}\nm: {action: b}\n", "m.yml:2: marker 'm' is defined twice (first at line 1)"),
        ("and:\n  - action: a\n", "m.yml:1: 'and' is a condition or operator, it cannot name a marker"),
        ("intent: greet\n", "m.yml:1: 'intent' is a condition or operator, it cannot name a marker"),
        ("yes: {action: a}\n", "m.yml:1: marker names must be text, found 'yes'; put it in quotes"),
        ("12: {action: a}\n", "m.yml:1: marker names must be text, found '12'"),
        ("a: {action: a}\nb: {a: x}\n", "m.yml:2: marker b: 'a' is a marker; markers cannot refer to other markers"),
        ("", "m.yml: no markers defined (the file is empty)"),
        ("- action: a\n", "m.yml:1: expected marker names, each mapped to a condition or operator"),
        ("m: [\n", "m.yml:2: not valid YAML"),
        (
            "m: &loop\n  not:\n    - *loop\n",
            "m.yml:1: an alias refers to a node that contains it (a recursive structure)",
        ),
    ],
)
def test_errors_name_file_line_marker_and_the_problem(text, expected):
    assert expected in error(text)


def test_names_are_unique_across_files(tmp_path):
    (tmp_path / "a.yml").write_text("one: {action: a}\n")
    (tmp_path / "b.yml").write_text("two: {action: b}\none: {action: c}\n")
    with pytest.raises(
        MarkerConfigError, match=r"b\.yml:2: marker 'one' is defined twice \(first at .*a\.yml:line 1\)"
    ):
        load_markers(tmp_path)


def test_no_marker_files(tmp_path: Path):
    with pytest.raises(MarkerConfigError, match="no marker files"):
        load_markers(tmp_path)
    with pytest.raises(MarkerConfigError, match="no such file or folder"):
        load_markers(tmp_path / "missing.yml")
    (tmp_path / "latin1.yml").write_bytes("m: {intent: z\xfcrich}\n".encode("latin-1"))
    with pytest.raises(MarkerConfigError, match="latin1.yml: not UTF-8"):
        load_markers(tmp_path / "latin1.yml")


def test_every_tag_is_documented():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "markers.md").read_text(encoding="utf-8")
    assert all(f"`{tag}" in docs for tag in TAGS)


def test_yaml_merge_keys_and_anchors():
    markers = parse_markers("base: &b {action: a}\ncopy: *b\nmerged:\n  <<: *b\n  description: same\n")
    assert [str(m.root) for m in markers] == ["(action: a)"] * 3
