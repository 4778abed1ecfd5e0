"""What the index keeps of one log, read in one pass (picklable per-file work for a FileMap, so that
a corpus is read on every core or on a Dask cluster and the parent alone writes the index)."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.input_files import open_input_file

if TYPE_CHECKING:
    from annotator.corpus.scan import SessionSummary

HASH_CHUNK = 1 << 20
READ_ATTEMPTS = 3  # a log replaced while it is read is read again, so its hash and its rows agree


@dataclass(frozen=True)
class FileState:
    """A log's size and times, as stat gives them: unchanged state, unchanged file (unless times lie)."""

    size: int
    mtime_ns: int
    ctime_ns: int

    @classmethod
    def of(cls, path: Path) -> FileState | None:
        try:
            found = os.stat(path)
        except (OSError, ValueError):
            return None
        return cls(found.st_size, found.st_mtime_ns, found.st_ctime_ns)


@dataclass(frozen=True)
class TurnText:
    session_index: int
    session_id: str
    turn_index: int
    turn_id: str
    field: str
    text: str


@dataclass(frozen=True)
class FileRecord:
    """One log as the index keeps it: its state and hash when read, its session rows and its turn texts."""

    path: Path
    state: FileState | None
    digest: str | None  # None: the file could not be read at all
    sessions: tuple[SessionSummary, ...]
    texts: tuple[TurnText, ...]


def content_hash(path: Path) -> str | None:
    """The SHA-256 digest of the file's bytes (None when it cannot be read): of the hashes of the standard
    library the fastest where processors compute it (three times BLAKE2b's speed on this one)."""
    digest = hashlib.sha256()
    try:
        with open_input_file(path) as stream:  # a FIFO named like a log would block a plain open
            for chunk in iter(lambda: stream.read(HASH_CHUNK), b""):
                digest.update(chunk)
    except (OSError, ValueError):
        return None
    return digest.hexdigest()


def read_log_record(path: Path) -> FileRecord:
    """PATH read once: its browser rows (validation included) and the texts of its turns. A log that
    cannot be read is one problem row and no texts, as in the session browser."""
    record = None
    for _ in range(READ_ATTEMPTS):
        state, digest = FileState.of(path), content_hash(path)
        record = _read(path, state, digest)
        if FileState.of(path) == state and content_hash(path) == digest:
            return record
    assert record is not None  # READ_ATTEMPTS reads at least once
    return record


def _read(path: Path, state: FileState | None, digest: str | None) -> FileRecord:
    # Imported here: a check of an unchanged corpus reads no log and need not import what reads one.
    from annotator.analysis.search import field_texts
    from annotator.corpus.scan import summarise_log, summarize_document
    from annotator.log.document import LogDocument

    try:
        document = LogDocument.load(path)
        sessions = tuple(summarize_document(document))
    except Exception:  # one odd file never ends an index of thousands: summarise_log's row says why
        return FileRecord(path, state, digest, tuple(summarise_log(path)), ())
    texts = []
    for session in document.sessions:
        for turn, facts in zip(session.turns, session.turn_facts()):
            texts += [
                TurnText(session.index, session.id, turn.index, turn.id, field, text)
                for field, text in field_texts(facts)
            ]
    return FileRecord(path, state, digest, sessions, tuple(texts))
