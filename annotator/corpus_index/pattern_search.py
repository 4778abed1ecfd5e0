"""The window's searches (a plain text or a regular expression, annotator.analysis.search.Query) over
a corpus, answered from its index: the texts kept for each log unchanged since it was indexed (size
and times) are matched where they are, and only the other logs are read (search_files). The same hits,
in the same order, as searching every file; search_logs stands in for search_files."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

from annotator.analysis.search import FIELDS, Hit, Query, matches, search_files
from annotator.corpus_index import contents, refresh
from annotator.corpus_index.corpus import open_index
from annotator.corpus_index.search import IndexHit, texts_of
from annotator.errors import AnnotatorError


def search_logs(paths: list[Path], query: Query, corpus: Path, *, progress: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] = lambda: False) -> Iterator[Hit | AnnotatorError]:
    """As analysis.search.search_files: the hits of each log of PATHS in turn, an unreadable log's error.
    CORPUS is the folder (or the list's log) whose index holds them, as the session browser was given it."""
    pattern = query.pattern()
    indexed, problems = _indexed_texts(paths, corpus)
    for done, path in enumerate(paths, 1):
        if cancelled():
            return
        texts = indexed.get(path)
        if path in problems:
            yield AnnotatorError(problems[path])
        elif texts is None:
            yield from search_files([path], query)
        else:
            yield from _hits(texts, pattern, FIELDS)
        if progress is not None:
            progress(done, len(paths))


def logs_that_may_match(paths: list[Path], corpus: Path, pattern: re.Pattern[str],
                        fields: tuple[str, ...]) -> list[Path]:
    """The logs of PATHS worth reading for PATTERN in FIELDS: those whose kept texts match, and those the
    index does not hold as they are now (new or changed since)."""
    indexed, _problems = _indexed_texts(paths, corpus)
    return [path for path in paths if path not in indexed or any(_hits(indexed[path], pattern, fields))]


def _indexed_texts(paths: list[Path], corpus: Path) -> tuple[dict[Path, list[IndexHit]], dict[Path, str]]:
    """(the kept texts of each log of PATHS unchanged since indexed, the one-line problem of each such log
    that could not be read); a log changed since, or never indexed, is in neither."""
    if not paths:
        return {}, {}
    store = open_index([corpus])
    try:
        todo = refresh.plan(store, paths, verify_content=False)
        stale = set(todo.stale)
        fresh = {key: path for key, path in todo.keys.items() if path not in stale}
        texts: dict[Path, list[IndexHit]] = {path: [] for path in fresh.values()}
        for hit in texts_of(store, fresh):
            texts[hit.file].append(hit)
        problems = {fresh[key]: problem for key, problem
                    in store.run(lambda connection: contents.problems(connection, fresh)).items()}
    finally:
        store.close()
    return texts, problems


def _hits(texts: list[IndexHit], pattern: re.Pattern[str], fields: tuple[str, ...]) -> Iterator[Hit]:
    for text in texts:
        if text.field in fields:
            for start, end in matches(pattern, text.text):
                yield Hit(text.file, text.session_id, text.session_index, text.turn_id, text.turn_index,
                          text.field, text.text, start, end)
