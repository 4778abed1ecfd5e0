"""The words of a turn's text, as the aligner sees them.

The text splits at white space, and every piece is a word (a hyphenated word stays one word) except
the marks transcribers put in brackets ([noise], <sil>, {breath}) and pieces with no letter or digit
at all (a lone dash or question mark), which say nothing that can be heard as a word. Each word keeps
its text as written; its dictionary form is lower case, without the punctuation around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_MARK_BRACKETS = (("[", "]"), ("<", ">"), ("{", "}"))
_AROUND = "\"'`.,;:!?()[]{}<>«»“”‘’"


@dataclass(frozen=True)
class TextWord:
    text: str  # as written in the turn's text
    spoken: str  # its dictionary form: lower case, the punctuation around it removed


def text_words(text: str | None) -> list[TextWord]:
    """The words of TEXT to align, in order."""
    words = []
    for found in _word_pieces(text):
        piece = found.group()
        spoken = piece.strip(_AROUND).lower() or piece.lower()
        words.append(TextWord(piece, spoken))
    return words


def word_places(text: str | None) -> list[tuple[int, int]]:
    """Where each of TEXT's words (text_words) is in it: its first character's offset and the one after its last."""
    return [found.span() for found in _word_pieces(text)]


def _word_pieces(text: str | None) -> list[re.Match[str]]:
    return [
        found
        for found in re.finditer(r"\S+", text or "")
        if not _is_mark(found.group()) and any(character.isalnum() for character in found.group())
    ]


def _is_mark(piece: str) -> bool:
    return len(piece) >= 2 and any(piece[0] == left and piece[-1] == right for left, right in _MARK_BRACKETS)
