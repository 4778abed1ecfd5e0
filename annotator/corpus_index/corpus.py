"""The index of the corpus a command or the window works on: opened for the paths given, brought up to
date, asked."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from annotator.corpus.parallel import FileMap, Progress, serial_map
from annotator.corpus.paths import expand_log_paths
from annotator.corpus_index import refresh
from annotator.corpus_index.location import corpus_root, index_file
from annotator.corpus_index.store import IndexStore
from annotator.errors import AnnotatorError

T = TypeVar("T")
ATTEMPTS = 3


def open_index(given: list[Path], notice: Callable[[str], None] = lambda _line: None) -> IndexStore:
    """The index that serves GIVEN (logs and folders): the one of the folder they have in common."""
    return IndexStore(index_file(corpus_root(given)), notice)


def up_to_date(
    store: IndexStore, given: list[Path], *, file_map: FileMap = serial_map, progress: Progress | None = None
) -> dict[str, Path]:
    """The logs of GIVEN, the index brought up to date for them (every changed file read again, hashes
    compared): key -> path, in the order the files are listed."""
    paths = expand_log_paths(given)
    todo = refresh.update(
        store, paths, folders=[path for path in given if Path(path).is_dir()], file_map=file_map, progress=progress
    )
    return todo.keys


def answered(
    store: IndexStore,
    given: list[Path],
    ask: Callable[[dict[str, Path]], T],
    *,
    file_map: FileMap = serial_map,
    progress: Progress | None = None,
) -> T:
    """ASK(keys) of the index brought up to date for GIVEN (see up_to_date). Should the index be found
    damaged on the way (and made again, empty), the update and the question are made again: an answer
    is never read from an index that lost files after they were brought up to date."""
    for _ in range(ATTEMPTS):
        generation = store.generation
        keys = up_to_date(store, given, file_map=file_map, progress=progress)
        answer = ask(keys)
        if store.generation == generation:
            return answer
    raise AnnotatorError(
        f"{store.file}: the index was found damaged {ATTEMPTS} times over; remove it "
        "(annotator index --clear) and check the disk"
    )
