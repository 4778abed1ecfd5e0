"""Bringing an index up to date with the files: which logs are new or changed (their size and times,
and, when asked, their bytes' hash: some file systems' times lie), reading only those on the FileMap
given (every core, a Dask cluster), dropping the logs gone from the folders looked at."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from annotator.corpus.parallel import FileMap, Progress, serial_map
from annotator.corpus_index import contents
from annotator.corpus_index.records import FileRecord, FileState, content_hash, read_log_record
from annotator.corpus_index.store import IndexStore

WRITE_EVERY_FILES = 64  # records kept before they are written in one transaction...
WRITE_EVERY_SECONDS = 1.0  # ...or after this long, so that another process sees them soon


@dataclass
class Plan:
    """What PATHS need: STALE are read again; TOUCHED (key, state) have new times, same bytes; GONE keys dropped."""

    keys: dict[str, Path]  # key -> the path as the caller names it, for every path asked about
    known: dict[str, contents.KnownFile] = field(default_factory=dict)  # what the index held when planned
    stale: list[Path] = field(default_factory=list)
    touched: list[tuple[str, FileState]] = field(default_factory=list)
    gone: list[str] = field(default_factory=list)


def plan(
    store: IndexStore,
    paths: Iterable[Path],
    *,
    folders: Iterable[Path] = (),
    verify_content: bool = True,
    known: dict[str, contents.KnownFile] | None = None,
) -> Plan:
    """What must be done for PATHS to be answered from the index. FOLDERS are the folders PATHS were
    listed from: a log known under one of them and missing from PATHS is gone. VERIFY_CONTENT: a file
    whose size and times are unchanged is hashed all the same (the command line's answers are always
    right; the window checks times at once and hashes in the background). KNOWN: what the index holds
    (contents.known_files), when the caller read it already."""
    known = store.run(contents.known_files) if known is None else known
    paths = list(paths)
    result = Plan(dict(zip(contents.keys_of(paths), paths)), known)
    for key, path in result.keys.items():
        state, entry = FileState.of(path), known.get(key)
        if entry is None or state is None or entry.digest is None:
            result.stale.append(path)
        elif entry.state == state and not verify_content:
            continue
        elif entry.state.size != state.size or content_hash(path) != entry.digest:
            result.stale.append(path)
        elif entry.state != state:
            result.touched.append((key, state))
    prefixes = tuple(contents.key_of(folder) + os.sep for folder in folders)
    if prefixes:
        result.gone = [key for key in known if key.startswith(prefixes) and key not in result.keys]
    return result


def apply(
    store: IndexStore, todo: Plan, *, file_map: FileMap = serial_map, progress: Progress | None = None
) -> Iterator[FileRecord]:
    """Carry out TODO: the times of the touched files and the drops at once, then each stale log read
    on FILE_MAP and yielded as it comes (in the order of TODO.stale), written in batches. Stopping
    the iteration early keeps what was read."""
    if todo.touched or todo.gone:

        def small_changes(connection) -> None:
            for key, state in todo.touched:
                contents.touch(connection, key, state)
            contents.drop_files(connection, todo.gone)

        store.write(small_changes)
    if not todo.stale:
        return
    batch: list[FileRecord] = []
    written_at = time.monotonic()
    try:
        for path, outcome in file_map(read_log_record, todo.stale, progress):
            record = outcome if isinstance(outcome, FileRecord) else _unreadable(path, outcome)
            batch.append(record)
            yield record
            if len(batch) >= WRITE_EVERY_FILES or time.monotonic() - written_at > WRITE_EVERY_SECONDS:
                _write(store, batch)
                written_at = time.monotonic()
    finally:
        _write(store, batch)


def update(
    store: IndexStore,
    paths: list[Path],
    *,
    folders: Iterable[Path] = (),
    file_map: FileMap = serial_map,
    progress: Progress | None = None,
    verify_content: bool = True,
) -> Plan:
    """PLAN and APPLY to the end: the index answers for PATHS as the files are now."""
    todo = plan(store, paths, folders=folders, verify_content=verify_content)
    for _record in apply(store, todo, file_map=file_map, progress=progress):
        pass
    return todo


def _write(store: IndexStore, batch: list[FileRecord]) -> None:
    if batch:
        records = list(batch)
        store.write(lambda connection: contents.put_records(connection, records))
        batch.clear()


def _unreadable(path: Path, error: Exception) -> FileRecord:
    """An outcome that is an error (a worker's AnnotatorError): one problem row, hashed as it is now, so
    that the file is read again once it changes."""
    from annotator.corpus.scan import unreadable_summary

    return FileRecord(path, FileState.of(path), content_hash(path), (unreadable_summary(path, str(error)),), ())
