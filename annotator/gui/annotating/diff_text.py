"""The editor's live diff as rich text: agreed words plain, the recognizer's errors red and struck, the words
said instead green; long words cut so that no label widens the window; and the WER line."""

from __future__ import annotations

import html

from annotator.analysis.word_alignment import EQUAL, INSERTED, MISSED, SUBSTITUTED, WordDiff
from annotator.gui.theme import theme_colour

DIFF_WORD_CHARS = 40  # a longer word is cut in the diff: a label is as wide as its longest word


def render_diff(diff: WordDiff) -> str:
    """Rich text: agreed words plain, recognizer errors red and struck, the words said instead green."""
    parts = []
    heard_colour, said_colour = theme_colour("heard_text").name(), theme_colour("said_text").name()
    for word in diff.words:
        said, heard = _cut(word.said), _cut(word.heard)
        if word.kind == EQUAL:
            parts.append(said)
        elif word.kind == SUBSTITUTED:
            parts.append(
                f'<s style="color:{heard_colour}">{heard}</s>'
                f'<span style="color:{said_colour}"><b>&#8239;{said}</b></span>'
            )
        elif word.kind == MISSED:
            parts.append(f'<u style="color:{said_colour}"><b>{said}</b></u>')
        elif word.kind == INSERTED:
            parts.append(f'<s style="color:{heard_colour}">{heard}</s>')
    return "Recognizer vs. transcription: " + " ".join(parts)


def _cut(word: str | None) -> str:
    """WORD escaped for rich text, cut to DIFF_WORD_CHARS."""
    word = word or ""
    return html.escape(word if len(word) <= DIFF_WORD_CHARS else word[:DIFF_WORD_CHARS] + "…")


def score_text(diff: WordDiff) -> str:
    counts = diff.counts
    shown = "—" if counts.rate is None else f"{counts.rate * 100:.1f} %"
    return (
        f"<b>WER {shown}</b> · {counts.substitutions} sub · {counts.deletions} del · "
        f"{counts.insertions} ins · {counts.reference_words} words"
    )
