"""Per-file outputs of a command (`info`'s summary, `validate`'s findings) kept in the index while
their log is unchanged, so that a second run over an unchanged corpus reads no log.

A kept output is used only when the log's size, times and content hash are those it was computed
from, and so are the times of its folder and the folders below it: what a log's audio references
find there (a file added, removed or renamed) is part of both outputs. A file's error is never kept:
it is met again, and said again, on the next run."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotator.corpus.parallel import FileMap, Outcome, serial_map
from annotator.corpus_index.contents import key_of
from annotator.corpus_index.records import FileState, content_hash
from annotator.corpus_index.store import IndexStore
from annotator.errors import AnnotatorError
from annotator.progress import Progress

WRITE_EVERY_FILES = 64


@dataclass(frozen=True)
class Memo:
    """What KIND of output with OPTIONS is kept; ENCODE/DECODE turn a result into JSON and back."""

    kind: str
    options: str
    encode: Callable[[Any], Any] = lambda value: value
    decode: Callable[[Any], Any] = lambda value: value


def memoised_map(
    store: IndexStore,
    memo: Memo,
    work: Callable[[Path], Any],
    paths: list[Path],
    *,
    file_map: FileMap = serial_map,
    progress: Progress | None = None,
) -> Iterator[Outcome]:
    """(path, outcome) for every path in order, as FILE_MAP(WORK, PATHS) gives them: kept outputs of
    unchanged logs as they were kept, the others computed on FILE_MAP (and kept)."""
    kept = store.run(lambda connection: _kept(connection, memo))
    folders = FolderTimes()
    answers: dict[int, Any] = {}
    todo: list[tuple[int, str, FileState | None, str | None, str]] = []
    for position, path in enumerate(paths):
        key, state = key_of(path), FileState.of(path)
        # The outputs name the log as it was given: the same file named otherwise is computed again.
        digest, context = content_hash(path), f"{path}\0{folders.of(os.path.dirname(key))}"
        found = kept.get(key)
        if found is not None and state is not None and found[:3] == (state, digest, context):
            answers[position] = memo.decode(found[3])
        else:
            todo.append((position, key, state, digest, context))
    computed = file_map(work, [paths[position] for position, *_ in todo], progress)
    computing = iter(todo)
    pending: list[tuple] = []
    try:
        for position, path in enumerate(paths):
            if position in answers:
                yield path, answers.pop(position)
                continue
            _, outcome = next(computed)
            _, key, state, digest, context = next(computing)
            if not isinstance(outcome, AnnotatorError) and state is not None and digest is not None:
                pending.append((key, state, digest, json.dumps({"context": context, "value": memo.encode(outcome)})))
                if len(pending) >= WRITE_EVERY_FILES:
                    _keep(store, memo, pending)
            yield path, outcome
    finally:
        _keep(store, memo, pending)


def _kept(connection, memo: Memo) -> dict[str, tuple]:
    kept = {}
    for key, size, mtime, ctime, digest, value in connection.execute(
        "SELECT path, size, mtime_ns, ctime_ns, digest, value FROM memos WHERE kind = ? AND key = ?",
        (memo.kind, memo.options),
    ):
        data = json.loads(value)
        kept[key] = (FileState(size, mtime, ctime), digest, data["context"], data["value"])
    return kept


def _keep(store: IndexStore, memo: Memo, pending: list[tuple]) -> None:
    if not pending:
        return
    rows = [
        (key, memo.kind, memo.options, state.size, state.mtime_ns, state.ctime_ns, digest, value)
        for key, state, digest, value in pending
    ]
    store.write(
        lambda connection: connection.executemany("INSERT OR REPLACE INTO memos VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    )
    pending.clear()


class FolderTimes:
    """The modification times of a folder and of every folder below it, as one text; each folder
    walked once however many logs it holds."""

    def __init__(self) -> None:
        self._known: dict[str, str] = {}

    def of(self, folder: str) -> str:
        found = self._known.get(folder)
        if found is None:
            times = []
            for root, dirs, _files in os.walk(folder):
                dirs.sort()
                try:
                    times.append(f"{os.path.relpath(root, folder)}:{os.stat(root).st_mtime_ns}")
                except OSError:
                    continue
            found = self._known[folder] = hashlib.blake2b(
                "|".join(times).encode("utf-8", "surrogateescape"), digest_size=16
            ).hexdigest()
        return found
