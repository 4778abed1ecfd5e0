"""The alignments made, kept in the user's cache (corpus_index.location.alignment_cache_file), never in a
log: derived data, found again by the content of the turn's audio and of its text, so a turn whose audio
or words change is aligned anew and a log moved or copied keeps its alignments. The file is an SQLite file
kept as the corpus index is (corpus_index.store: WAL, busy waits, made again when damaged, in memory when
it cannot be written). A turn that could not be aligned is kept too, with its reason, so that a second run
does not try it again; `--force` does.

The workers of a run only read the file (read_kept); the run's own process writes what they made.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path

from annotator.alignment.outcome import ENGINE_VERSION, AlignedWord, NotAligned
from annotator.corpus_index.location import alignment_cache_file
from annotator.corpus_index.store import IndexStore, Schema

Outcome = list[AlignedWord] | NotAligned
SCHEMA = Schema(
    (
        "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "CREATE TABLE alignments(key TEXT PRIMARY KEY, outcome TEXT NOT NULL)",
    ),
    "1",
    "alignment cache",
)
_BLOCK = 1 << 20
_QUERY_KEYS = 500  # keys per SELECT: under SQLite's limit of bound parameters


def file_digest(path: Path) -> str:
    """The SHA-256 of the file's bytes (the audio's content)."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while block := file.read(_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def alignment_key(audio_digest: str, text: str) -> str:
    """The key of TEXT aligned to the audio whose content is AUDIO_DIGEST, by this version of the aligner.
    White space is not part of the text's content: the words split at it."""
    content = f"{ENGINE_VERSION}\0{audio_digest}\0{' '.join(text.split())}"
    return hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()


class AlignmentCache:
    """The alignments kept in FILE (default: the user's cache)."""

    def __init__(self, file: Path | None = None, notice: Callable[[str], None] = lambda _line: None):
        self.store = IndexStore(alignment_cache_file() if file is None else file, notice, SCHEMA)

    def kept(self, keys: Iterable[str]) -> dict[str, Outcome]:
        return self.store.run(lambda connection: _kept(connection, list(keys)))

    def keep(self, outcomes: dict[str, Outcome]) -> None:
        if not outcomes:
            return
        rows = [(key, outcome_text(outcome)) for key, outcome in outcomes.items()]
        self.store.write(
            lambda connection: connection.executemany("INSERT OR REPLACE INTO alignments VALUES (?, ?)", rows)
        )

    def close(self) -> None:
        self.store.close()


def read_kept(file: Path | None, keys: list[str]) -> dict[str, Outcome]:
    """What FILE keeps of KEYS, read without writing anything (a worker's view): nothing when the file is
    missing, busy for long, damaged or of another version; the run then aligns those turns again."""
    if file is None or not keys:
        return {}
    try:
        connection = sqlite3.connect(f"{file.absolute().as_uri()}?mode=ro", uri=True, timeout=5)
    except (sqlite3.Error, ValueError):
        return {}
    try:
        version = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if version is None or version[0] != SCHEMA.version:
            return {}
        return _kept(connection, keys)
    except (sqlite3.Error, ValueError, KeyError, TypeError):
        return {}
    finally:
        connection.close()


def _kept(connection: sqlite3.Connection, keys: list[str]) -> dict[str, Outcome]:
    found: dict[str, Outcome] = {}
    for start in range(0, len(keys), _QUERY_KEYS):
        part = keys[start : start + _QUERY_KEYS]
        marks = ",".join("?" * len(part))
        for key, text in connection.execute(f"SELECT key, outcome FROM alignments WHERE key IN ({marks})", part):
            outcome = outcome_of_text(text)
            if outcome is not None:
                found[key] = outcome
    return found


def outcome_text(outcome: Outcome) -> str:
    if isinstance(outcome, NotAligned):
        return json.dumps({"skipped": outcome.reason, "why": str(outcome)})
    return json.dumps({"words": [[w.text, w.start, w.end, w.score, w.unsure] for w in outcome]}, ensure_ascii=False)


def outcome_of_text(text: str) -> Outcome | None:
    """The outcome TEXT holds; None when it is not one (a damaged row is aligned again)."""
    try:
        value = json.loads(text)
        if "skipped" in value:
            return NotAligned(str(value["skipped"]), str(value["why"]))
        return [
            AlignedWord(str(word), float(start), float(end), float(score), bool(unsure))
            for word, start, end, score, unsure in value["words"]
        ]
    except (ValueError, KeyError, TypeError):
        return None
