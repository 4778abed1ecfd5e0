"""The word diff Compare draws: in each annotator's transcription, the words that another annotator did
not write at that place are highlighted.

Words are compared as the adjudication rule compares transcriptions, after the WER normalisation (case,
punctuation and non-speech marks such as `[noise]` do not count: annotator.log.text.normalize_words), so
a highlighted word is one that makes the annotators disagree. The alignment is difflib's longest matching
blocks, per pair of annotators: cost is the product of the two texts' lengths, per turn.
"""

from __future__ import annotations

import html
from difflib import SequenceMatcher

from annotator.log.text import normalize_words

Word = tuple[str, bool]  # the word as written, and whether it differs from another annotator's text


def _keys(words: list[str]) -> list[tuple[str, ...]]:
    return [tuple(normalize_words(word)) for word in words]


def _matched(mine: list[tuple[str, ...]], theirs: list[tuple[str, ...]]) -> set[int]:
    """Positions of MINE's counted words that the alignment pairs with an equal word of THEIRS."""
    counted = [index for index, key in enumerate(mine) if key]
    their_keys = [key for key in theirs if key]
    matcher = SequenceMatcher(a=[mine[index] for index in counted], b=their_keys, autojunk=False)
    return {counted[block.a + offset] for block in matcher.get_matching_blocks() for offset in range(block.size)}


def differing_words(texts: list[str | None]) -> list[list[Word] | None]:
    """For each text (None: that annotator gave none), its words, each marked when some other annotator's
    text does not hold it at that place. A word that counts for nothing (`[noise]`, a lone `-`) never differs."""
    words = [None if text is None else text.split() for text in texts]
    keys = [None if split is None else _keys(split) for split in words]
    marked: list[list[Word] | None] = []
    for index, split in enumerate(words):
        own_keys = keys[index]  # None exactly where split is
        if split is None or own_keys is None:
            marked.append(None)
            continue
        differs = set()
        for other, their_keys in enumerate(keys):
            if other != index and their_keys is not None:
                matched = _matched(own_keys, their_keys)
                differs |= {at for at, key in enumerate(own_keys) if key and at not in matched}
        marked.append([(word, at in differs) for at, word in enumerate(split)])
    return marked


def marked(text_html: str, colour: str, ink: str) -> str:
    """TEXT_HTML on a COLOUR background in INK (#rrggbb names): its own ink, so that the mark reads in a selected
    row too, whose text is the selection's (white on blue) and would be white on the mark."""
    return f'<span style="background-color:{colour}; color:{ink}">{text_html}</span>'


def words_html(words: list[Word], colour: str, ink: str) -> str:
    """WORDS as rich text, each differing word marked (a COLOUR background, INK text)."""
    return " ".join(marked(html.escape(word), colour, ink) if differs else html.escape(word) for word, differs in words)
