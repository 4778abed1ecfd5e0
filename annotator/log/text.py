"""How text is normalised for display, word counts and word error rate.

- display text: whitespace (including the line breaks logs put inside
  GC_DATA) collapsed to single spaces and stripped;
- words for counts and WER: the display text lower-cased, with punctuation
  other than apostrophes and hyphens inside words removed, and bracketed
  non-speech tokens such as [noise] or <breath> dropped, as the Communicator
  evaluation did, then split on spaces.
"""

from __future__ import annotations

import re

_SPACES = re.compile(r"\s+")
_NONSPEECH = re.compile(r"\[[^\]]*\]|<[^>]*>")
_PUNCTUATION = re.compile(r"[^\w\s'-]|(?<!\w)['-]|['-](?!\w)")


def clean_text(text: str | None) -> str:
    return _SPACES.sub(" ", text or "").strip()


def normalize_words(text: str | None) -> list[str]:
    lowered = _NONSPEECH.sub(" ", clean_text(text).lower())
    return _PUNCTUATION.sub(" ", lowered).split()


def word_count(text: str | None) -> int:
    return len(normalize_words(text))
