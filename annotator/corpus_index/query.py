"""The query language of `annotator search`, turned into a safe FTS5 query.

    QUERY   := TERM (whitespace TERM)*        every term must appear in the same text
    TERM    := word | word* | "a phrase"      a word, a word's start, words one after the other
             | "a phrase*"                    the words one after the other, the last one's start

Case and accents are ignored, and punctuation separates words (FTS5's unicode61 tokenizer). Nothing the
user types is FTS5 syntax: every term is quoted, so AND, OR, NOT, NEAR, -, ^, : and column names are
words like any other, and a quote left open runs to the end."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from annotator.errors import AnnotatorError

# A phrase (its closing quote optional, a star after it allowed), or a run of non-space characters.
_TERM = re.compile(r'"([^"]*)("?\*?)|(\S+)')


class BadQuery(AnnotatorError):
    """A query with nothing to search for."""


@dataclass(frozen=True)
class Term:
    words: tuple[str, ...]  # one word, or a phrase's words in order
    prefix: bool = False  # the last word need only start so


def words_of(text: str) -> list[str]:
    """TEXT's words as the index sees them: runs of letters and digits, lower case, accents gone."""
    folded = unicodedata.normalize("NFKD", text.casefold())
    folded = "".join(ch for ch in folded if not unicodedata.combining(ch))
    return re.findall(r"[^\W_]+", folded)


def parse(query: str) -> list[Term]:
    terms = []
    for phrase, after, word in _TERM.findall(query):
        # A star at the end of a word, of a phrase ("fly to bo*") or right after it ("fly to bo"*): the
        # last word need only start so.
        text = word or phrase
        prefix = text.rstrip().endswith("*") or after.endswith("*")
        found = words_of(text)
        if found:
            terms.append(Term(tuple(found), prefix))
    if not terms:
        raise BadQuery(f"nothing to search for in {query!r}: a query needs a word")
    return terms


def fts_query(terms: list[Term]) -> str:
    """TERMS as an FTS5 MATCH expression: each a quoted phrase ('"a b"', '"pre" *'), all of them required."""
    return " AND ".join('"' + " ".join(term.words) + '"' + (" *" if term.prefix else "") for term in terms)
