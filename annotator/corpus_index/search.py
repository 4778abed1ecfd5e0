"""Answering a query from the index: the texts of the turns that hold every term, in the order of the
files asked about, then session, turn and field (the order a scan of the files gives)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from annotator.analysis.search import CONCEPTS, FIELDS, RECOGNIZER, REFERENCE_CONCEPTS, SYSTEM, TRANSCRIPTION
from annotator.corpus_index.query import fts_query, parse
from annotator.corpus_index.store import IndexStore

FIELD_CHOICES = {
    "any": FIELDS,
    TRANSCRIPTION: (TRANSCRIPTION,),
    RECOGNIZER: (RECOGNIZER,),
    SYSTEM: (SYSTEM,),
    CONCEPTS: (CONCEPTS, REFERENCE_CONCEPTS),  # the parser's and the reference's
}


@dataclass(frozen=True)
class IndexHit:
    file: Path
    session_id: str
    session_index: int
    turn_id: str
    turn_index: int
    field: str
    text: str


def search_index(
    store: IndexStore, keys: dict[str, Path], query: str, fields: tuple[str, ...] = FIELDS, limit: int | None = None
) -> list[IndexHit]:
    """The texts in FIELDS of the files named by KEYS (key -> the caller's path, in the caller's order)
    that hold every term of QUERY; BadQuery when it has none. At most LIMIT."""
    expression = fts_query(parse(query))
    order = {key: position for position, key in enumerate(keys)}
    rank = {field: position for position, field in enumerate(FIELDS)}
    wanted = set(fields)

    def found(connection) -> list[tuple]:
        return connection.execute(
            "SELECT f.path, t.session_index, t.session_id, t.turn_index, t.turn_id, t.field, t.text"
            " FROM texts_fts JOIN texts t ON t.id = texts_fts.rowid JOIN files f ON f.id = t.file_id"
            " WHERE texts_fts MATCH ?",
            (expression,),
        ).fetchall()

    rows = [row for row in store.run(found) if row[0] in order and row[5] in wanted]
    rows.sort(key=lambda row: (order[row[0]], row[1], row[3], rank.get(row[5], len(rank))))
    hits = [
        IndexHit(keys[key], session_id, session_index, turn_id, turn_index, field, text)
        for key, session_index, session_id, turn_index, turn_id, field, text in rows
    ]
    return hits if limit is None else hits[:limit]


def texts_of(store: IndexStore, keys: dict[str, Path]) -> list[IndexHit]:
    """Every indexed text of the files named by KEYS, in scan order: what a search by pattern
    (the window's plain text or regular expression) runs over instead of reading the logs."""
    order = {key: position for position, key in enumerate(keys)}
    rank = {field: position for position, field in enumerate(FIELDS)}

    def every(connection) -> list[tuple]:
        return connection.execute(
            "SELECT f.path, t.session_index, t.session_id, t.turn_index, t.turn_id, t.field, t.text"
            " FROM texts t JOIN files f ON f.id = t.file_id"
        ).fetchall()

    rows = [row for row in store.run(every) if row[0] in order]
    rows.sort(key=lambda row: (order[row[0]], row[1], row[3], rank.get(row[5], len(rank))))
    return [
        IndexHit(keys[key], session_id, session_index, turn_id, turn_index, field, text)
        for key, session_index, session_id, turn_index, turn_id, field, text in rows
    ]
