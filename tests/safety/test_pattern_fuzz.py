"""Generated users' patterns, backtracking ones first among them, over generated texts: each search,
replacement and marker condition ends within its time limit with a result or a one-line PatternError,
never a hang nor another exception."""

from __future__ import annotations

import time

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from annotator.analysis.replace import replaced
from annotator.analysis.search import matches
from annotator.errors import AnnotatorError
from annotator.user_patterns import LIMIT_S, PatternError, PatternTooSlow, UserPattern
from tests.support.fuzzing import fuzz_settings

ATOMS = ["a", "b", ".", r"\w", r"\s", "[ab]", "(a|a)", "(a|aa)", "(a+)", "(a*)", r"(\w+\s?)", "(?=a)", r"\1", "(", "["]
QUANTIFIERS = ["", "+", "*", "?", "{2,}", "+?", "{1000}"]
# Each run of the limit may overshoot it on a busy machine; a pattern runs at most twice per text here.
BOUND_S = 10 * LIMIT_S


@st.composite
def patterns(draw) -> str:
    """Up to three atoms, each quantified, the whole group quantified again: nested repetition is what explodes."""
    body = "".join(
        draw(st.sampled_from(ATOMS)) + draw(st.sampled_from(QUANTIFIERS)) for _ in range(draw(st.integers(1, 3)))
    )
    return f"({body}){draw(st.sampled_from(QUANTIFIERS))}{draw(st.sampled_from(['', '$', '!']))}"


texts = st.builds(lambda run, tail: "a" * run + tail, st.integers(0, 40), st.sampled_from(["", "!", " b", "ab" * 5]))


@fuzz_settings(40)
@given(patterns(), texts, st.booleans())
@pytest.mark.slow
def test_a_generated_pattern_ends_in_time_with_a_result_or_one_line(source: str, text: str, ignore_case: bool):
    started = time.monotonic()
    try:
        pattern = UserPattern(source, ignore_case=ignore_case)
        list(matches(pattern, text))
        replaced(pattern, True, "x", text)
        pattern.search(text)
        event("ran")
    except PatternTooSlow as error:
        event("too slow")
        assert "\n" not in str(error)
    except PatternError as error:
        event("refused")
        assert "\n" not in str(error)
    except AnnotatorError as error:  # a replacement naming a group the pattern lacks
        event("bad replacement")
        assert "\n" not in str(error)
    assert time.monotonic() - started < BOUND_S
