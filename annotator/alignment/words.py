"""The words of a turn's text, as the aligner sees them.

The text splits at white space, and every piece is a word (a hyphenated word stays one word) except
the marks transcribers put in brackets ([noise], <sil>, {breath}) and pieces with no letter or digit
at all (a lone dash or question mark), which say nothing that can be heard as a word. Each word keeps
its text as written; its dictionary form is lower case, without the punctuation around it.
"""

from __future__ import annotations

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
    for piece in (text or "").split():
        if _is_mark(piece) or not any(character.isalnum() for character in piece):
            continue
        spoken = piece.strip(_AROUND).lower() or piece.lower()
        words.append(TextWord(piece, spoken))
    return words


def _is_mark(piece: str) -> bool:
    return len(piece) >= 2 and any(piece[0] == left and piece[-1] == right for left, right in _MARK_BRACKETS)
