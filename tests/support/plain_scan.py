"""What a search must answer, found without the index: every log read, every turn's texts matched
word by word in Python. The tests compare the index's answers with these."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from annotator.analysis.search import field_texts
from annotator.corpus.paths import expand_log_paths
from annotator.corpus_index.search import FIELD_CHOICES
from annotator.log.document import LogDocument


def tokens(text: str) -> list[str]:
    folded = "".join(ch for ch in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(ch))
    return re.findall(r"[^\W_]+", folded)


def _holds(words: list[str], term: tuple[list[str], bool]) -> bool:
    wanted, prefix = term
    for start in range(len(words) - len(wanted) + 1):
        window = words[start : start + len(wanted)]
        if window[:-1] == wanted[:-1] and (window[-1].startswith(wanted[-1]) if prefix else window[-1] == wanted[-1]):
            return True
    return False


def terms_of(query: str) -> list[tuple[list[str], bool]]:
    terms = []
    for phrase, after, word in re.findall(r'"([^"]*)("?\*?)|(\S+)', query):
        text = word or phrase
        words = tokens(text)
        if words:  # a star ending a word or a phrase, or right after a phrase: the last word's start
            terms.append((words, text.rstrip().endswith("*") or after.endswith("*")))
    return terms


def scan(paths: list[Path], query: str, field: str = "any") -> list[tuple[str, str, str, str, str]]:
    """(file, session id, turn id, field, text) of every text holding every term, in file order."""
    terms = terms_of(query)
    wanted = FIELD_CHOICES[field]
    hits = []
    for path in expand_log_paths(paths):
        document = LogDocument.load(path)
        for session in document.sessions:
            for turn, facts in zip(session.turns, session.turn_facts()):
                for name, text in field_texts(facts):
                    if name in wanted and all(_holds(tokens(text), term) for term in terms):
                        hits.append((str(path), session.id, turn.id, name, text))
    return hits


def hits_of(output: str) -> list[tuple[str, ...]]:
    return [tuple(line.split("\t")) for line in output.splitlines()]
