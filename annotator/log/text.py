"""How text is normalised for display, word counts and word error rate.

- display text: whitespace (including the line breaks logs put inside
  GC_DATA) collapsed to single spaces and stripped;
- shown text: any string from a log is shown by its start and its size past
  SHOWN_CHARS characters (a 100 MB attribute must not be laid out by a view);
- words for counts and WER: the display text lower-cased, with punctuation
  other than apostrophes and hyphens inside words removed, and bracketed
  non-speech tokens such as [noise] or <breath> dropped, as the Communicator
  evaluation did, then split on spaces.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator

# What XML 1.0 cannot hold: C0 controls other than tab, newline and carriage return, lone
# surrogates, and the two non-characters U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_NONSPEECH = re.compile(r"\[[^\]]*\]|<[^>]*>")
_WHITESPACE = {code: " " for code in range(0x3001) if chr(code).isspace()}  # all str.isspace() calls one
_WORD = re.compile(r"\S+")  # what str.split() keeps: both split on what str.isspace() calls whitespace
_LONG_TEXT = 100_000  # characters from which a text is never split into an object per word
_PIECE = 1 << 16  # characters of a huge text a pattern replaces in at once
_matched = operator.methodcaller("group")
_PUNCTUATION = re.compile(r"[^\w\s'-]|(?<!\w)['-]|['-](?!\w)")


def clean_text(text: str | None) -> str:
    """TEXT with each run of whitespace (what str.isspace() calls one, as the pattern \\s+ does) made one space,
    none at either end: split and join are three times faster than a pattern on a megabyte of words, but hold a
    string object per word (50 bytes for "the", 15 times a huge text's size), so a huge text takes the pattern."""
    if not text:
        return ""
    if len(text) < _LONG_TEXT:
        return " ".join(text.split())
    # A huge text: a few copies of it, never an object per word (a pattern's sub holds one per match too).
    spaced = text.translate(_WHITESPACE)
    while "  " in spaced:
        spaced = spaced.replace("  ", " ")
    return spaced.strip(" ")


def first_not_xml(text: str) -> str | None:
    """The first character of TEXT that no XML file can hold, or None."""
    found = _NOT_XML.search(text)
    return None if found is None else found.group()


def without_non_xml(text: str) -> tuple[str, int]:
    """TEXT with every character XML cannot hold replaced by a space (so words stay apart), and how many."""
    return _NOT_XML.subn(" ", text)


SHOWN_CHARS = 2000
SHOWN_ID_CHARS = 80  # ids are short names in every log we know; a longer one must not widen a header


def shorten(text: str, limit: int = SHOWN_CHARS) -> str:
    """TEXT itself when it is at most LIMIT characters, else its start and its size."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters in all)"


def normalize_words(text: str | None) -> list[str]:
    lowered = _NONSPEECH.sub(" ", clean_text(text).lower())
    if len(lowered) < _LONG_TEXT:
        return _PUNCTUATION.sub(" ", lowered).split()
    # A pattern's sub holds a string per match until it joins them: a word per comma. In pieces cut after
    # a space it holds a piece's worth, and finds the same (what it looks at either side is no word).
    cleaned = "".join(_PUNCTUATION.sub(" ", piece) for piece in _pieces(lowered))
    # A huge transcription: each word made once (its repeats are the same object), and never all at
    # once, where split() held a string object per word (50 bytes for "the"), twice the text's size.
    seen: dict[str, str] = {}
    return [seen.setdefault(word, word) for word in map(_matched, _WORD.finditer(cleaned))]


def _pieces(text: str) -> Iterator[str]:
    """TEXT in consecutive pieces of about _PIECE characters, each but the last ending with a space."""
    start = 0
    while start < len(text):
        cut = text.find(" ", start + _PIECE)
        stop = len(text) if cut < 0 else cut + 1
        yield text[start:stop]
        start = stop


def word_count(text: str | None) -> int:
    return len(normalize_words(text))
