"""The word diff Compare draws, on hand-made cases: which words of each annotator are highlighted."""

from __future__ import annotations

from annotator.gui.compare.word_diff import differing_words, words_html


def _marked(words) -> list[str]:
    return [word for word, differs in words if differs]


def test_a_substituted_word_is_marked_in_both_texts():
    alice, bob = differing_words(["i want to fly to boston", "i want to fly to austin"])
    assert _marked(alice) == ["boston"] and _marked(bob) == ["austin"]


def test_case_punctuation_and_noise_marks_do_not_count():
    alice, bob = differing_words(["[noise] No, Boston Massachusetts.", "no boston massachusetts"])
    assert _marked(alice) == [] and _marked(bob) == []


def test_a_missing_word_is_marked_where_it_is_written():
    alice, bob = differing_words(["next tuesday morning", "next tuesday"])
    assert _marked(alice) == ["morning"] and _marked(bob) == []


def test_three_annotators_each_word_differing_from_any_other():
    alice, bob, nobody, carol = differing_words(["to boston", "to austin", None, "to boston"])
    assert _marked(alice) == ["boston"] and _marked(bob) == ["austin"] and nobody is None
    assert _marked(carol) == ["boston"], "bob wrote austin there"


def test_the_html_escapes_words_and_highlights_the_marked_ones():
    html = words_html([("a<b", False), ("x&y", True)], "#ffcf8a", "#000000")
    assert html == 'a&lt;b <span style="background-color:#ffcf8a; color:#000000">x&amp;y</span>'
