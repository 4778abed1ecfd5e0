"""normalize_words reads a huge transcription one word at a time, each distinct word made once; the words
are exactly those the short-text route gives (str.split after the same cleaning), whatever the spaces."""

from __future__ import annotations

import random
import re

from hypothesis import given
from hypothesis import strategies as st

from annotator.log import text
from annotator.log.text import normalize_words

PIECES = [
    "Fly",
    "to",
    "BOSTON,",
    "[noise]",
    "<laugh>",
    "x\u2028y",
    "a\x1cb",
    "c\u3000d",
    "don't",
    "-x",
    "é",
    "\t",
    "\n",
    "  ",
    "uh-huh",
    "'quoted'",
    "naïve",
    "Straße",
]


def _short_route(value: str) -> list[str]:
    lowered = text._NONSPEECH.sub(" ", text.clean_text(value).lower())
    return text._PUNCTUATION.sub(" ", lowered).split()


def test_a_long_text_gives_the_words_of_a_short_one():
    chooser = random.Random(27)
    long_text = " ".join(chooser.choice(PIECES) for _ in range(60_000))
    assert len(long_text) > text._LONG_TEXT
    words = normalize_words(long_text)
    assert words == _short_route(long_text) and len(words) > 40_000
    boston = [word for word in words if word == "boston"]
    assert all(word is boston[0] for word in boston), "one object per distinct word"


@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=60).map("".join))
def test_clean_text_collapses_exactly_the_whitespace_the_pattern_collapses(value: str):
    assert text.clean_text(value) == re.sub(r"\s+", " ", value).strip()
    assert text.clean_text(None) == ""
