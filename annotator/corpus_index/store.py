"""The index's SQLite file: opened in WAL mode with a busy timeout (two windows and a command line may
use it at once), made when missing, and made again, with a one-line notice, when it is corrupt,
truncated or of another schema. A cache that cannot be written (a read-only folder or file, a full
disk, a file size limit), at the start or in the middle of a run, is replaced by one in memory, with
one line naming the file: the answers are the same, only not kept.

Every use goes through IndexStore.run(work), which retries WORK while another process holds the
write lock (beyond SQLite's own wait), goes on in memory when the file cannot be written, and
rebuilds the file once if SQLite finds it damaged."""

from __future__ import annotations

import secrets
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from annotator.file_name_text import name_text

T = TypeVar("T")
SCHEMA_VERSION = "2"  # 2: texts_trigram and odd_case_texts, for the window's searches by pattern
BUSY_TIMEOUT_MS = 15_000  # SQLite's own wait for a lock, per statement
BUSY_RETRIES = 8  # then ours, with a growing pause, should a statement still find the file busy
# The characters beyond ASCII that Python's case-insensitive match takes for an ASCII letter (İ, ı, ſ and the
# Kelvin sign; tests/corpus_index/test_pattern_search.py checks every code point): SQLite's folding may not.
ASCII_LOOKALIKES = "\u0130\u0131\u017f\u212a"
# What the triggers below do as a text comes and goes: its full-text and trigram entries, its odd-case mark.
_TEXT_ADDED = (
    "INSERT INTO texts_fts(rowid, text) VALUES (new.id, new.text);"
    " INSERT INTO texts_trigram(rowid, text) VALUES (new.id, new.text);"
    " INSERT INTO odd_case_texts(id) SELECT new.id WHERE "
    + " OR ".join(f"instr(new.text, '{character}')" for character in ASCII_LOOKALIKES)
    + ";"
)
_TEXT_REMOVED = (
    "INSERT INTO texts_fts(texts_fts, rowid, text) VALUES ('delete', old.id, old.text);"
    " INSERT INTO texts_trigram(texts_trigram, rowid, text) VALUES ('delete', old.id, old.text);"
    " DELETE FROM odd_case_texts WHERE id = old.id;"
)
SCHEMA = (
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime_ns INTEGER,"
    " ctime_ns INTEGER, digest TEXT, sessions TEXT NOT NULL)",
    "CREATE TABLE texts(id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, session_index INTEGER NOT NULL,"
    " session_id TEXT NOT NULL, turn_index INTEGER NOT NULL, turn_id TEXT NOT NULL, field TEXT NOT NULL,"
    " text TEXT NOT NULL)",
    "CREATE INDEX texts_of_file ON texts(file_id)",
    "CREATE VIRTUAL TABLE texts_fts USING fts5(text, content='texts', content_rowid='id',"
    " tokenize='unicode61 remove_diacritics 2')",
    # Every three characters of each text, folded to lower case: a plain-text search by the window narrows the
    # texts to those holding its text (annotator.corpus_index.pattern_search) without reading them all.
    "CREATE VIRTUAL TABLE texts_trigram USING fts5(text, content='texts', content_rowid='id',"
    " tokenize='trigram case_sensitive 0')",
    # The texts holding a character beyond ASCII that Python's case-insensitive match takes for an ASCII letter
    # and SQLite's folding may not (ASCII_LOOKALIKES).
    "CREATE TABLE odd_case_texts(id INTEGER PRIMARY KEY)",
    f"CREATE TRIGGER text_added AFTER INSERT ON texts BEGIN {_TEXT_ADDED} END",
    f"CREATE TRIGGER text_removed AFTER DELETE ON texts BEGIN {_TEXT_REMOVED} END",
    f"CREATE TRIGGER text_changed AFTER UPDATE OF text ON texts BEGIN {_TEXT_REMOVED} {_TEXT_ADDED} END",
    "CREATE TABLE memos(path TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, size INTEGER, mtime_ns INTEGER,"
    " ctime_ns INTEGER, digest TEXT, value TEXT NOT NULL, PRIMARY KEY (path, kind, key))",
)
IN_MEMORY = ":memory:"


@dataclass(frozen=True)
class Schema:
    """What a cache file of the annotator holds: its tables (STATEMENTS), their VERSION (a file of another
    version is made again), and what the user is told it is (WHAT, in notices)."""

    statements: tuple[str, ...]
    version: str
    what: str


INDEX_SCHEMA = Schema(SCHEMA, SCHEMA_VERSION, "index")
# SQLite's codes for a file that cannot be written, as opposed to one that is damaged: a folder or file
# that is read-only, a disk that is full, a write, sync or resize the system refused (EFBIG past a file
# size limit is a failed write).
_UNWRITABLE_CODES = frozenset(
    {sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN}
)
_UNWRITABLE_EXTENDED_CODES = frozenset(
    {
        sqlite3.SQLITE_IOERR_WRITE,
        sqlite3.SQLITE_IOERR_FSYNC,
        sqlite3.SQLITE_IOERR_DIR_FSYNC,
        sqlite3.SQLITE_IOERR_TRUNCATE,
        sqlite3.SQLITE_IOERR_SHMOPEN,
        sqlite3.SQLITE_IOERR_SHMSIZE,
        sqlite3.SQLITE_IOERR_SHMMAP,
        sqlite3.SQLITE_IOERR_DELETE,
    }
)


class OutdatedIndex(sqlite3.DatabaseError):
    """An index written by another version of the annotator (its schema differs)."""


def _busy(error: sqlite3.Error) -> bool:
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _unwritable(error: BaseException) -> bool:
    """ERROR says the file cannot be written (not that it is damaged)."""
    if isinstance(error, OSError):
        return True
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return False
    return code & 0xFF in _UNWRITABLE_CODES or code in _UNWRITABLE_EXTENDED_CODES


class IndexStore:
    """The index at FILE (None: in memory only). NOTICE(line) hears what the user should know. Another cache
    kept the same way (the words' alignments) passes its own SCHEMA."""

    def __init__(
        self, file: Path | None, notice: Callable[[str], None] = lambda _line: None, schema: Schema = INDEX_SCHEMA
    ):
        self.file = file
        self.notice = notice
        self.schema = schema
        # How often what the index held was lost (the file found damaged and made again, or left for an empty
        # index in memory): answers made across one are redone.
        self.generation = 0
        self._connection: sqlite3.Connection | None = None
        self._instance: str | None = None  # the token of the file opened (_check), to know it again

    @property
    def connection(self) -> sqlite3.Connection:
        if self._connection is None:
            self._connection = self._open()
        return self._connection

    @property
    def kept(self) -> bool:
        """Whether what was written is in self.file: not in memory, and the file not removed or replaced
        (`annotator index --clear`, another program) since it was opened."""
        if self.file is None or self._instance is None:
            return False
        try:
            found = sqlite3.connect(f"{self.file.absolute().as_uri()}?mode=ro", uri=True)
        except (sqlite3.Error, ValueError):
            return False
        try:
            return _instance(found) == self._instance
        except sqlite3.Error:
            return False
        finally:
            found.close()

    def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """WORK(connection), retried while the file is busy; on a file that cannot be written, in memory;
        on a damaged file, rebuilt once and retried (then in memory, should the new file fail too)."""
        rebuilt = False
        for attempt in range(BUSY_RETRIES + 2):
            try:
                return work(self.connection)
            except sqlite3.DatabaseError as error:
                if self.file is None:  # in memory already: nothing else to fall back on
                    raise
                if _busy(error) and attempt < BUSY_RETRIES:
                    time.sleep(0.05 * 2 ** min(attempt, 5))
                    continue
                if _busy(error):
                    raise
                if _unwritable(error) or rebuilt:
                    self._go_in_memory(error)
                else:
                    self._rebuild(error)
                    rebuilt = True
        raise AssertionError("unreachable")

    def write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """WORK in one write transaction (all of it or none), through run."""

        def transaction(connection: sqlite3.Connection) -> T:
            connection.execute("BEGIN IMMEDIATE")
            try:
                result = work(connection)
                connection.execute("COMMIT")
            except BaseException:
                _roll_back(connection)
                raise
            return result

        return self.run(transaction)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def _open(self) -> sqlite3.Connection:
        if self.file is None:
            return _in_memory(self.schema)
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            connection = _connect(str(self.file))
        except (OSError, sqlite3.Error) as error:
            return self._in_memory(error)
        try:
            _check(connection, self.schema)
            self._instance = _instance(connection)
        except (OSError, sqlite3.Error) as error:
            connection.close()
            if isinstance(error, sqlite3.Error) and _busy(error):
                raise
            if _unwritable(error):
                return self._in_memory(error)
            try:
                self._remove_files()
            except OSError as cannot:
                return self._in_memory(cannot)
            self.generation += 1
            self.notice(
                f"the {self.schema.what} {_named(self.file)} could not be used ({_reason(error)}); it is made again"
            )
            try:
                connection = _connect(str(self.file))
                _check(connection, self.schema)
                self._instance = _instance(connection)
            except (OSError, sqlite3.Error) as error:
                return self._in_memory(error)
        return connection

    def _in_memory(self, error: Exception) -> sqlite3.Connection:
        self._give_up_the_file(error)
        return _in_memory(self.schema)

    def _give_up_the_file(self, error: Exception) -> None:
        self.notice(
            f"cannot keep the {self.schema.what} in {_named(self.file)} ({_reason(error)}); "
            "it is kept in memory for this run"
        )
        self.file = None

    def _go_in_memory(self, error: sqlite3.Error) -> None:
        """The file failed in use (full, read-only, damaged again): the run goes on in memory, from a copy of
        what the file holds when it can still be read (else from nothing, and the answers are redone)."""
        self._give_up_the_file(error)
        memory = _in_memory(self.schema)
        old, self._connection = self._connection, memory
        try:
            if old is None:
                raise sqlite3.OperationalError("closed")
            _roll_back(old)
            old.backup(memory)
        except sqlite3.Error:
            memory.close()
            self._connection = _in_memory(self.schema)
            self.generation += 1
        finally:
            if old is not None:
                old.close()

    def _rebuild(self, error: sqlite3.Error) -> None:
        """The file found damaged in use: removed, then made again empty on the next use."""
        self.close()
        if self.file is None:
            raise error
        self.generation += 1
        try:
            self._remove_files()
        except OSError as cannot:  # the next use is in memory
            self._give_up_the_file(cannot)
            return
        self.notice(
            f"the {self.schema.what} {_named(self.file)} could not be used ({_reason(error)}); it is made again"
        )

    def _remove_files(self) -> None:
        assert self.file is not None
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(str(self.file) + suffix).unlink(missing_ok=True)


def _roll_back(connection: sqlite3.Connection) -> None:
    """End the open transaction, if any; a rollback that fails too (the disk gone) leaves the error that
    caused it to be the one reported."""
    if connection.in_transaction:
        try:
            connection.execute("ROLLBACK")
        except sqlite3.Error:
            pass


def _instance(connection: sqlite3.Connection) -> str | None:
    found = connection.execute("SELECT value FROM meta WHERE key = 'instance'").fetchone()
    return None if found is None else found[0]


def _named(file: Path | None) -> str:
    return name_text(str(file))


def _connect(target: str) -> sqlite3.Connection:
    connection = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
    connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return connection


def _in_memory(schema: Schema) -> sqlite3.Connection:
    connection = _connect(IN_MEMORY)
    _check(connection, schema)
    return connection


def _check(connection: sqlite3.Connection, schema: Schema) -> None:
    """Make the schema in an empty file; raise when the file holds something else (or is damaged)."""
    if _is_file(connection):
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("BEGIN IMMEDIATE")
    try:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            for statement in schema.statements:
                connection.execute(statement)
            connection.execute("INSERT INTO meta VALUES ('schema', ?)", (schema.version,))
        elif "meta" not in tables:
            raise OutdatedIndex(f"not an {schema.what} of this annotator")
        else:
            found = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if found is None or found[0] != schema.version:
                raise OutdatedIndex(f"written by another version (schema {found[0] if found else 'unknown'})")
        # A token telling this file from any other at its path (IndexStore.kept): a file put there while this
        # process writes into the one it opened may even have its inode number, its path's stat taken too late.
        connection.execute("INSERT OR IGNORE INTO meta VALUES ('instance', ?)", (secrets.token_hex(16),))
        connection.execute("COMMIT")
    except BaseException:
        _roll_back(connection)
        raise


def _is_file(connection: sqlite3.Connection) -> bool:
    # Asked in SQL: the file's name, given back as text, need not be UTF-8 (a cache folder named in Latin-1).
    found = connection.execute("SELECT file != '' FROM pragma_database_list WHERE name = 'main'").fetchone()
    return bool(found and found[0])


def _reason(error: Exception) -> str:
    return " ".join(str(error).split()) or type(error).__name__
