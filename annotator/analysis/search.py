"""Finding text in the turns of a log: a Query (plain text or a regular expression, case-insensitive
unless asked) matched over each turn's facts, field by field, giving Hits.

The fields are what the turn table shows and the annotator types: the transcription, the
recognizer's text, the system's prompt, and the parser's and the reference concepts in their
compact form (annotator.log.concepts). Texts come from the document's facts cache, where each
turn's searched texts are kept beside its facts until a change names the turn: a search walks no
tree, its cost is linear in the log, and searching again (a key typed in the find bar) only matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from annotator.errors import AnnotatorError
from annotator.log.concepts import parsed_concepts, reference_concepts
from annotator.log.document import LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.turn_facts import TurnFacts
from annotator.user_patterns import PatternError, UserPattern

TRANSCRIPTION = "transcription"
RECOGNIZER = "recognizer"
SYSTEM = "system"
CONCEPTS = "concepts"
REFERENCE_CONCEPTS = "reference concepts"
FIELDS = (TRANSCRIPTION, RECOGNIZER, SYSTEM, CONCEPTS, REFERENCE_CONCEPTS)
CONTEXT_CHARACTERS = 40  # shown either side of a hit
SEARCHED_TEXTS = "searched texts"  # a turn's (field, text) pairs, kept in the facts cache until the turn changes


class SearchError(PatternError):
    """A query that cannot be searched for (empty, or a bad replacement). Catch PatternError to have these,
    a bad regular expression and a pattern too slow on some text (annotator.user_patterns)."""


@dataclass(frozen=True)
class Query:
    text: str
    regex: bool = False
    case_sensitive: bool = False

    def pattern(self) -> UserPattern:
        """The compiled pattern, run with a time limit; SearchError for an empty query, PatternError
        (one line) for a bad regular expression."""
        if not self.text:
            raise SearchError("nothing to search for: the search text is empty")
        return UserPattern(self.text, literal=not self.regex, ignore_case=not self.case_sensitive)


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
        before = self.text[max(0, self.start - width) : self.start]
        after = self.text[self.end : self.end + width]
        if self.start > width:
            before = "…" + before
        if len(self.text) - self.end > width:
            after += "…"
        return before, self.text[self.start : self.end], after


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


def matches(pattern: UserPattern, text: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each non-empty match (an empty one, as `x*` gives everywhere, is no hit)."""
    for found in pattern.finditer(text):
        if found.end() > found.start():
            yield found.start(), found.end()


@dataclass(frozen=True)
class TurnTexts:
    """One turn's searched texts, taken from the document so they can be matched on another thread."""

    file: Path | None
    session_id: str
    session_index: int
    turn_id: str
    turn_index: int
    texts: tuple[tuple[str, str], ...]  # (field, text)


def session_texts(session: Session, file: Path | None = None) -> list[TurnTexts]:
    """The searched texts of SESSION's turns, from the facts cache (no pattern runs here: this is the
    part of a search that must read the document, on the thread that owns it)."""
    cache = session.document.facts_cache
    return [
        TurnTexts(
            file, session.id, session.index, turn.id, turn.index, cache.derived(turn, SEARCHED_TEXTS, _searched_texts)
        )
        for turn in session.turns
    ]


def walked_session_texts(session: Session, file: Path | None = None) -> list[TurnTexts]:
    """session_texts for a walk off the GUI thread while that thread may edit: the facts made (or kept) by
    FactsCache.make_session_facts, the texts made from them without filling the cache."""
    facts = session.document.facts_cache.make_session_facts(session)
    return [
        TurnTexts(file, session.id, session.index, turn.id, turn.index, tuple(field_texts(made)))
        for turn, made in zip(session.turns, facts, strict=True)
    ]


def document_texts(document: LogDocument) -> list[TurnTexts]:
    return [texts for session in document.sessions for texts in session_texts(session, document.path)]


def match_texts(
    turns: Iterable[TurnTexts],
    pattern: UserPattern,
    fields: Iterable[str] = FIELDS,
    cancelled: Callable[[], bool] = lambda: False,
) -> list[Hit]:
    """The hits in TURNS, in turn order, then field order, then position; the hits so far once CANCELLED."""
    wanted = set(fields)
    hits: list[Hit] = []
    for turn in turns:
        if cancelled():
            break
        for field, text in turn.texts:
            if field in wanted:
                hits += [
                    Hit(
                        turn.file,
                        turn.session_id,
                        turn.session_index,
                        turn.turn_id,
                        turn.turn_index,
                        field,
                        text,
                        start,
                        end,
                    )
                    for start, end in matches(pattern, text)
                ]
    return hits


def search_session(
    session: Session, pattern: UserPattern, file: Path | None = None, fields: Iterable[str] = FIELDS
) -> list[Hit]:
    return match_texts(session_texts(session, file), pattern, fields)


def search_document(document: LogDocument, query: Query) -> list[Hit]:
    return match_texts(document_texts(document), query.pattern())


def search_files(
    paths: list[Path],
    query: Query,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[Hit | AnnotatorError]:
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
