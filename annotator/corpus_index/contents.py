"""Reading and writing the index's rows: files with their state and session rows, turn texts, memos.
Functions of a connection, for IndexStore.run / IndexStore.write."""

from __future__ import annotations

import functools
import json
import os
import sqlite3
from collections.abc import Container
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.corpus_index.records import FileRecord, FileState
from annotator.file_name_text import name_text

if TYPE_CHECKING:
    from annotator.corpus.scan import SessionSummary


@dataclass(frozen=True)
class KnownFile:
    id: int
    state: FileState
    digest: str | None


def key_of(path: Path) -> str:
    """How the index names a file: its absolute path, the same from any folder. Links are not resolved
    (a resolve costs a system call per component: most of a check of an unchanged corpus); a log
    reached by two paths is kept twice, which costs room, never a wrong answer. A name that is not UTF-8
    is kept in its escaped form (annotator.file_name_text): SQLite holds UTF-8 text only."""
    return name_text(os.path.abspath(path))


def keys_of(paths: list[Path]) -> list[str]:
    """key_of(path) for each of PATHS, the current folder asked once (abspath asks it per path)."""
    here = os.getcwd()
    return [name_text(os.path.normpath(os.path.join(here, path))) for path in paths]


def known_files(connection: sqlite3.Connection) -> dict[str, KnownFile]:
    return {
        path: KnownFile(id_, FileState(size, mtime, ctime), digest)
        for id_, path, size, mtime, ctime, digest in connection.execute(
            "SELECT id, path, size, mtime_ns, ctime_ns, digest FROM files"
        )
    }


def put_records(connection: sqlite3.Connection, records: list[FileRecord]) -> None:
    """RECORDS in place of what the index held of their files."""
    for record in records:
        key = key_of(record.path)
        _drop(connection, [key])
        state = record.state or FileState(-1, -1, -1)
        cursor = connection.execute(
            "INSERT INTO files(path, size, mtime_ns, ctime_ns, digest, sessions) VALUES (?, ?, ?, ?, ?, ?)",
            (
                key,
                state.size,
                state.mtime_ns,
                state.ctime_ns,
                record.digest,
                json.dumps([summary_json(row) for row in record.sessions]),
            ),
        )
        file_id = cursor.lastrowid
        connection.executemany(
            "INSERT INTO texts(file_id, session_index, session_id, turn_index, turn_id, field, text)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(file_id, t.session_index, t.session_id, t.turn_index, t.turn_id, t.field, t.text) for t in record.texts],
        )


def touch(connection: sqlite3.Connection, key: str, state: FileState) -> None:
    """A file whose times changed and whose bytes did not: its new times, nothing read again."""
    connection.execute(
        "UPDATE files SET size = ?, mtime_ns = ?, ctime_ns = ? WHERE path = ?",
        (state.size, state.mtime_ns, state.ctime_ns, key),
    )


def drop_files(connection: sqlite3.Connection, keys: list[str]) -> None:
    _drop(connection, keys)


def _drop(connection: sqlite3.Connection, keys: list[str]) -> None:
    for key in keys:
        found = connection.execute("SELECT id FROM files WHERE path = ?", (key,)).fetchone()
        if found is not None:
            connection.execute("DELETE FROM texts WHERE file_id = ?", found)
            connection.execute("DELETE FROM files WHERE id = ?", found)
        connection.execute("DELETE FROM memos WHERE path = ?", (key,))


def session_rows(connection: sqlite3.Connection, keys: dict[str, Path]) -> dict[str, list[SessionSummary]]:
    """The browser rows of the files named by KEYS (key -> the path the caller calls it)."""
    rows: dict[str, list[SessionSummary]] = {}
    for key, sessions in connection.execute("SELECT path, sessions FROM files"):
        if key in keys:
            rows[key] = [summary_of(item, keys[key]) for item in json.loads(sessions)]
    return rows


def problems(connection: sqlite3.Connection, keys: Container[str]) -> dict[str, str]:
    """The one-line problem of each file named by KEYS that could not be read (key -> problem)."""
    found = {}
    # A readable file's rows say "problem": null; JSON escapes the quotes of a text that says otherwise.
    for key, sessions in connection.execute(
        """SELECT path, sessions FROM files WHERE sessions LIKE '%"problem": "%'"""
    ):
        if key in keys:
            rows = json.loads(sessions)
            if rows and rows[0].get("problem"):
                found[key] = rows[0]["problem"]
    return found


@functools.cache
def _summary_fields(kind: type) -> frozenset[str]:
    return frozenset(field.name for field in fields(kind))


def summary_json(row: SessionSummary) -> dict:
    data = asdict(row)
    data["file"] = None  # named by the files row: a renamed or re-rooted file keeps its rows right
    return data


def summary_of(data: dict, file: Path) -> SessionSummary:
    from annotator.corpus.scan import SessionSummary  # here: the search command needs no scanning code

    names = _summary_fields(SessionSummary)
    data = {name: value for name, value in data.items() if name in names}
    data["file"] = file
    data["marker_counts"] = tuple((name, count) for name, count in data.get("marker_counts", ()))
    data["annotators"] = tuple(data.get("annotators", ()))
    return SessionSummary(**data)
