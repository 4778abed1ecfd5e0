"""The window's searches (a plain text or a regular expression, annotator.analysis.search.Query) over
a corpus, answered from its index: the texts kept for each log unchanged since it was indexed (size
and times) are matched where they are, and only the other logs are read (search_files). The same hits,
in the same order, as searching every file; search_logs stands in for search_files.

A plain text narrows the texts in SQLite before Python matches them, so a search costs the texts that may
match, not the corpus: through the index of every three characters of the texts (texts_trigram, folded to
lower case) for a text of three characters or more, case-sensitive or ASCII, with the texts holding one of the
few characters beyond ASCII that Python's case-insensitive match takes for ASCII letters (odd_case_texts);
else by instr over every text of the fields, exact, or on ASCII lower case for an ASCII text."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from annotator.analysis.search import FIELDS, Hit, Query, matches, search_files
from annotator.corpus_index import contents, refresh
from annotator.corpus_index.corpus import open_index
from annotator.corpus_index.store import ASCII_LOOKALIKES
from annotator.errors import AnnotatorError

# SQLite's lower() folds ASCII alone, and its trigram index may not fold these (store.ASCII_LOOKALIKES), so a
# text holding one of them is always handed to Python.
TRIGRAM = 3  # the trigram index finds texts holding a text at least this long; a shorter one reads them all
# The first logs are asked of the index on their own, so that their hits (what the dock shows first) need
# not wait for every candidate of the corpus to be fetched; the rest are asked together after.
FIRST_LOGS = 8
# A question about at most this many logs names their files in SQL; one about more fetches the candidates
# of every file and keeps theirs (a long list of ids costs SQLite more than the rows it leaves out).
NAMED_FILES_AT_MOST = 500
_LOOKALIKE_IN_TEXT = " OR ".join("instr(text, ?) > 0" for _ in ASCII_LOOKALIKES)


def search_logs(
    paths: list[Path],
    query: Query,
    corpus: Path,
    *,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[Hit | AnnotatorError]:
    """As analysis.search.search_files: the hits of each log of PATHS in turn, an unreadable log's error.
    CORPUS is the folder (or the list's log) whose index holds them, as the session browser was given it."""
    pattern = query.pattern()
    done = 0
    parts = [paths[:FIRST_LOGS], paths[FIRST_LOGS:]]
    for part, (kept, problems) in zip(parts, _kept_texts(paths, parts, corpus, query, FIELDS)):
        for path in part:
            if cancelled():
                return
            if path in problems:
                yield AnnotatorError(problems[path])
            elif path in kept:
                yield from _hits(path, kept[path], pattern)  # matched log by log: the first hits come at once
            else:
                yield from search_files([path], query)
            done += 1
            if progress is not None:
                progress(done, len(paths))


def logs_that_may_match(paths: list[Path], corpus: Path, query: Query, fields: tuple[str, ...]) -> list[Path]:
    """The logs of PATHS worth reading for QUERY in FIELDS: those whose kept texts match, and those the
    index does not hold as they are now (new or changed since)."""
    pattern = query.pattern()
    kept, _problems = next(_kept_texts(paths, [paths], corpus, query, fields))
    return [path for path in paths if path not in kept or next(_hits(path, kept[path], pattern), None) is not None]


# A kept text as the index gives it: [session index, session id, turn index, turn id, field, text].
KeptRow = list[Any]


def _hits(path: Path, rows: list[KeptRow], pattern) -> Iterator[Hit]:
    for session_index, session_id, turn_index, turn_id, field, text in rows:
        for start, end in matches(pattern, text):
            yield Hit(path, session_id, session_index, turn_id, turn_index, field, text, start, end)


def _kept_texts(
    paths: list[Path], parts: list[list[Path]], corpus: Path, query: Query, fields: tuple[str, ...]
) -> Iterator[tuple[dict[Path, list[KeptRow]], dict[Path, str]]]:
    """For each of PARTS (lists of PATHS, asked one after the other): (the kept texts that may match QUERY of
    each of its logs unchanged since indexed, as (session index, session id, turn index, turn id, field, text)
    in document order; the one-line problem of each such log that could not be read). A log changed since,
    or never indexed, is in neither. A part's logs have their size and times checked as it is asked."""
    if not paths:
        yield from (({}, {}) for _ in parts)
        return
    store = open_index([corpus])
    try:
        known = store.run(contents.known_files)
        problems = store.run(lambda connection: contents.problems(connection, known))
        for part in parts:
            todo = refresh.plan(store, part, verify_content=False, known=known)
            stale = set(todo.stale)
            fresh = {key: path for key, path in todo.keys.items() if path not in stale}
            file_of = {known[key].id: path for key, path in fresh.items() if key in known}
            named = sorted(file_of) if len(file_of) <= NAMED_FILES_AT_MOST else None

            def candidates(connection: sqlite3.Connection, named: list[int] | None = named) -> list[tuple[Any, ...]]:
                return _candidates(connection, query, fields, named)

            rows = store.run(candidates) if file_of else []
            kept: dict[Path, list[KeptRow]] = {path: [] for path in file_of.values()}
            for file_id, *row in rows:
                path = file_of.get(file_id)
                if path is not None:
                    kept[path].append(row)
            yield kept, {path: problems[key] for key, path in fresh.items() if key in problems}
    finally:
        store.close()


def _candidates(connection, query: Query, fields: tuple[str, ...], file_ids: list[int] | None) -> list[tuple]:
    """The kept texts in FIELDS that may match QUERY, of the files FILE_IDS (None: of every file), in the
    order a scan meets them (they were written so)."""
    where = [f"field IN ({', '.join('?' * len(fields))})"]
    parameters: list[str | int] = list(fields)
    if file_ids is not None:
        where.append(f"file_id IN ({', '.join('?' * len(file_ids))})")
        parameters += file_ids
    if not query.regex and len(query.text) >= TRIGRAM and (query.case_sensitive or query.text.isascii()):
        # The trigram index folds case as Python does for ASCII, and the odd-case texts are the rest.
        near = "id IN (SELECT rowid FROM texts_trigram WHERE texts_trigram MATCH ?)"
        parameters.append('"' + query.text.replace('"', '""') + '"')
        where.append(near if query.case_sensitive else f"({near} OR id IN (SELECT id FROM odd_case_texts))")
    elif not query.regex and query.case_sensitive:
        where.append("instr(text, ?) > 0")
        parameters.append(query.text)
    elif not query.regex and query.text.isascii():
        where.append(f"(instr(lower(text), ?) > 0 OR {_LOOKALIKE_IN_TEXT})")
        parameters += [query.text.lower(), *ASCII_LOOKALIKES]
    return connection.execute(
        "SELECT file_id, session_index, session_id, turn_index, turn_id, field, text FROM texts"
        f" WHERE {' AND '.join(where)} ORDER BY id",
        parameters,
    ).fetchall()
