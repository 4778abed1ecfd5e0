"""Finding text in the turns of a log: a Query (plain text or a regular expression, case-insensitive
unless asked) matched over each turn's facts, field by field, giving Hits.

The fields are what the turn table shows and the annotator types: the transcription, the
recognizer's text, the system's prompt, and the parser's and the reference concepts in their
compact form (annotator.log.concepts). Texts come from the document's facts cache, where each
turn's searched texts are kept beside its facts until a change names the turn: a search walks no
tree, its cost is linear in the log, and searching again (a key typed in the find bar) only matches.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from annotator.errors import AnnotatorError
from annotator.log.concepts import parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.turn_facts import TurnFacts

TRANSCRIPTION = "transcription"
RECOGNIZER = "recognizer"
SYSTEM = "system"
CONCEPTS = "concepts"
REFERENCE_CONCEPTS = "reference concepts"
FIELDS = (TRANSCRIPTION, RECOGNIZER, SYSTEM, CONCEPTS, REFERENCE_CONCEPTS)
CONTEXT_CHARACTERS = 40  # shown either side of a hit
SEARCHED_TEXTS = "searched texts"  # a turn's (field, text) pairs, kept in the facts cache until the turn changes


class SearchError(AnnotatorError):
    """A query that cannot be searched for (a bad regular expression or replacement)."""


@dataclass(frozen=True)
class Query:
    text: str
    regex: bool = False
    case_sensitive: bool = False

    def pattern(self) -> re.Pattern[str]:
        """The compiled pattern; SearchError (one line) for an empty query or a bad regular expression."""
        if not self.text:
            raise SearchError("nothing to search for: the search text is empty")
        flags = 0 if self.case_sensitive else re.IGNORECASE
        try:
            return re.compile(self.text if self.regex else re.escape(self.text), flags)
        except re.error as error:
            raise SearchError(f"bad regular expression {self.text!r}: {error}") from None


@dataclass(frozen=True)
class Hit:
    """One match: where (file, session, turn, field) and which characters of the field's text."""

    file: Path | None
    session_id: str
    session_index: int
    turn_id: str
    turn_index: int
    field: str
    text: str  # the field's whole text
    start: int
    end: int

    def context(self, width: int = CONTEXT_CHARACTERS) -> tuple[str, str, str]:
        """(before, the match, after), each side cut to WIDTH characters with an ellipsis."""
        before = self.text[max(0, self.start - width):self.start]
        after = self.text[self.end:self.end + width]
        if self.start > width:
            before = "…" + before
        if len(self.text) - self.end > width:
            after += "…"
        return before, self.text[self.start:self.end], after


def field_texts(facts: TurnFacts) -> Iterator[tuple[str, str]]:
    """(field, text) for each searchable field the turn has."""
    if facts.transcription:
        yield TRANSCRIPTION, facts.transcription
    if facts.asr_text:
        yield RECOGNIZER, facts.asr_text
    if facts.system_text:
        yield SYSTEM, facts.system_text
    parsed = parsed_concepts(facts) if facts.concept_data else None
    if parsed is not None:
        yield CONCEPTS, parsed.compact()
    reference = reference_concepts(facts) if facts.reference_concepts_data is not None else None
    if reference is not None:
        yield REFERENCE_CONCEPTS, reference.compact()


def _searched_texts(_turn: Turn, facts: TurnFacts) -> tuple[tuple[str, str], ...]:
    return tuple(field_texts(facts))


def matches(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each non-empty match (an empty one, as `x*` gives everywhere, is no hit)."""
    for found in pattern.finditer(text):
        if found.end() > found.start():
            yield found.start(), found.end()


def search_session(session: Session, pattern: re.Pattern[str], file: Path | None = None,
                   fields: Iterable[str] = FIELDS) -> list[Hit]:
    """The hits in SESSION's turns, in turn order, then field order, then position."""
    wanted = set(fields)
    hits: list[Hit] = []
    cache = session.document.facts_cache
    for turn in session.turns:
        for field, text in cache.derived(turn, SEARCHED_TEXTS, _searched_texts):
            if field in wanted:
                hits += [Hit(file, session.id, session.index, turn.id, turn.index, field, text, start, end)
                         for start, end in matches(pattern, text)]
    return hits


def search_document(document: LogDocument, query: Query) -> list[Hit]:
    pattern = query.pattern()
    hits: list[Hit] = []
    for session in document.sessions:
        hits += search_session(session, pattern, document.path)
    return hits


def search_files(paths: list[Path], query: Query, *, progress: Callable[[int, int], None] | None = None,
                 cancelled: Callable[[], bool] = lambda: False) -> Iterator[Hit | AnnotatorError]:
    """The hits of each log in PATHS, file by file; a log that cannot be read gives its AnnotatorError
    (one line naming it) in place of hits, and the search goes on. PROGRESS(done, total) after each."""
    pattern = query.pattern()
    for done, path in enumerate(paths, 1):
        if cancelled():
            return
        try:
            document = LogDocument.load(path)
        except AnnotatorError as error:
            yield error
        else:
            for session in document.sessions:
                yield from search_session(session, pattern, path)
        if progress is not None:
            progress(done, len(paths))
