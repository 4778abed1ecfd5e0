"""The session browser's rows from the index: a corpus seen before is listed at once from the rows
kept for its unchanged logs (size and times unchanged), then the new and changed logs are read on
every core, then the listed logs are hashed in the background and any whose bytes changed behind
unchanged times is read again (Refreshed). With markers the rows, counts included, are kept per
marker set (by a hash of its files) and used while the log and its folder are unchanged."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Protocol

from annotator import __version__
from annotator.corpus.parallel import FileMap, ProcessMap, available_cores
from annotator.corpus.paths import expand_log_paths
from annotator.corpus.scan import (
    BACKGROUND_NICENESS,
    SessionSummary,
    iter_corpus_in_children,
    summarise_log,
    summarise_log_in_subprocess,
    unreadable_summary,
    with_team_facts,
)
from annotator.corpus_index import contents, refresh
from annotator.corpus_index.corpus import open_index
from annotator.corpus_index.memos import Memo, memoised_map
from annotator.corpus_index.records import FileRecord, content_hash, read_log_record
from annotator.markers import MarkerSet
from annotator.team.files import HumanFileIndex, human_files_beside

Cancelled = Callable[[], bool]


@dataclass(frozen=True)
class KeptRowsGiven:
    """Every row kept in the index has been given: what waits to be shown should be shown now, since
    reading the new and changed logs, or hashing the others, may take a while."""


@dataclass(frozen=True)
class Refreshed:
    """A listed log read again: its rows replace those listed."""

    path: Path
    rows: list[SessionSummary]


def iter_indexed_corpus(
    given: list[Path],
    *,
    cancelled: Cancelled,
    notice: Callable[[str], None] = lambda _line: None,
) -> Iterator[tuple[int, int, Path, list[SessionSummary]] | KeptRowsGiven | Refreshed]:
    """As corpus.scan.iter_corpus_in_children (files done, files in all, file, its rows), the rows of
    unchanged logs first, from the index, then KeptRowsGiven; then those of the new and changed logs as
    they are read; then Refreshed items for logs whose bytes changed unseen."""
    paths = expand_log_paths(given)
    store = open_index(given, notice)
    try:
        todo = refresh.plan(store, paths, folders=[path for path in given if path.is_dir()], verify_content=False)
        stale = set(todo.stale)
        fresh = {key: path for key, path in todo.keys.items() if path not in stale}
        kept = store.run(lambda connection: contents.session_rows(connection, fresh))
        human_files = HumanFileIndex()
        done = 0
        for key, path in fresh.items():
            done += 1
            yield done, len(paths), path, with_team_facts(kept.get(key, []), human_files.files_of(path))
        yield KeptRowsGiven()
        todo.stale = [path for path in paths if path in stale]
        in_children = ProcessMap(available_cores(), first_here=True, cancelled=cancelled, niceness=BACKGROUND_NICENESS)
        for record in refresh.apply(store, todo, file_map=in_children):
            done += 1
            yield done, len(paths), record.path, _rows(record, human_files.files_of(record.path))
            if cancelled():
                return
        known_now = store.run(contents.known_files)
        for key, path in fresh.items():
            if cancelled():
                return
            known = known_now.get(key)
            if known is not None and content_hash(path) != known.digest:
                record = read_log_record(path)

                def put(connection: sqlite3.Connection, record: FileRecord = record) -> None:
                    contents.put_records(connection, [record])

                store.write(put)
                yield Refreshed(path, _rows(record, human_files.files_of(path)))
    finally:
        store.close()


def iter_marked_corpus(
    given: list[Path],
    markers: MarkerSet,
    *,
    cancelled: Cancelled,
    notice: Callable[[str], None] = lambda _line: None,
    file_map: FileMap | None = None,
) -> Iterator[tuple[int, int, Path, list[SessionSummary]]]:
    """As corpus.scan.iter_corpus_in_children with MARKERS (whose fingerprint is known): the rows, marker counts
    included, of each log unchanged since they were kept for the same markers come from the index; the other
    logs are read on FILE_MAP (every core, in child processes, by default) and their rows kept."""
    assert markers.fingerprint is not None
    paths = expand_log_paths(given)
    store = open_index(given, notice)
    memo = Memo(
        "browser-rows",
        f"{__version__}:{markers.fingerprint}",
        lambda rows: [contents.summary_json(row) for row in rows],
        lambda kept: [contents.summary_of(row, Path()) for row in kept],
    )
    file_map = file_map or ProcessMap(
        available_cores(), first_here=True, cancelled=cancelled, niceness=BACKGROUND_NICENESS
    )
    human_files = HumanFileIndex()
    try:
        outcomes = memoised_map(store, memo, partial(summarise_log, markers=markers), paths, file_map=file_map)
        for done, (path, outcome) in enumerate(outcomes, start=1):
            rows = (
                [replace(row, file=path) for row in outcome]
                if isinstance(outcome, list)
                else [unreadable_summary(path, str(outcome))]
            )
            yield done, len(paths), path, with_team_facts(rows, human_files.files_of(path))
            if cancelled():
                return
    finally:
        store.close()


def browser_rows(
    given: list[Path], markers: MarkerSet | None, *, cancelled: Cancelled, notice: Callable[[str], None]
) -> Iterator[tuple[int, int, Path, list[SessionSummary]] | KeptRowsGiven | Refreshed]:
    """The session browser's rows of GIVEN: from the index (iter_indexed_corpus), with MARKERS from the counts
    kept for them (iter_marked_corpus), or, for markers of unknown origin, every log read
    (corpus.scan.iter_corpus_in_children)."""
    if markers is None:
        return iter_indexed_corpus(given, cancelled=cancelled, notice=notice)
    if markers.fingerprint is not None:
        return iter_marked_corpus(given, markers, cancelled=cancelled, notice=notice)
    return iter_corpus_in_children(given, cancelled=cancelled, markers=markers)


class Publisher(Protocol):
    """Where a worker hands its results (gui.worker.TaskContext)."""

    def publish(self, item: object) -> None: ...
    def progress(self, done: int, total: int, label: str = "") -> None: ...
    def flush(self) -> None: ...
    def cancelled(self) -> bool: ...


def publish_browser_rows(given: list[Path], markers: MarkerSet | None, context: Publisher) -> int:
    """The session browser's worker: each log's rows published as soon as they are known (browser_rows),
    a line about the index and the Refreshed logs too; the number of logs."""
    files = 0
    for item in browser_rows(given, markers, cancelled=context.cancelled, notice=context.publish):
        if isinstance(item, KeptRowsGiven):
            context.flush()  # the rows kept in the index shown at once, not after the logs to read
        elif isinstance(item, Refreshed):
            context.publish(item)
        else:
            done, files, path, rows = item
            context.publish(rows)
            context.progress(done, files, path.name)
    return files


def rows_after_save(path: Path, given: list[Path], markers: MarkerSet | None) -> list[SessionSummary]:
    """The rows of the log just saved at PATH, one of the corpus GIVEN (see browser_rows)."""
    if markers is None and given:
        return refresh_saved_log(path, given)
    return summarise_log_in_subprocess(path, markers)


def refresh_saved_log(path: Path, given: list[Path]) -> list[SessionSummary]:
    """The rows of the log just saved at PATH, read in a child process (see summarise_log_in_subprocess),
    and the index of the corpus GIVEN updated with them at once."""
    from annotator.analysis.child_processes import in_child_process

    record = in_child_process(path, "read", read_log_record, Path(path))
    store = open_index(given)
    try:
        store.write(lambda connection: contents.put_records(connection, [record]))
    finally:
        store.close()
    return _rows(record, human_files_beside(path))


def _rows(record: FileRecord, human_files: dict[str, Path]) -> list[SessionSummary]:
    rows = [replace(row, file=record.path) for row in record.sessions]
    return with_team_facts(rows, human_files)
