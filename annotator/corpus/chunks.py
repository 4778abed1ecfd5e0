"""Files handed out in chunks and their outcomes taken back in input order: what the process pool and the
Dask cluster share (annotator.corpus.parallel, annotator.corpus.dask_map).

A chunk is a run of consecutive small files (one big file alone; see chunks_of), so that a corpus of
thousands of small logs does not pay a task's round trip per log; in_order keeps a few chunks in flight
per worker and yields every file's outcome in the order of the paths, whatever order the chunks finish in.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from annotator.errors import AnnotatorError
from annotator.progress import Progress

T = TypeVar("T")
Outcome = tuple[Path, T | AnnotatorError]

IN_FLIGHT_PER_WORKER = 2  # one running, one queued: a worker never waits for the parent to hand it a file
# A chunk gathers consecutive files up to this many bytes: tens of milliseconds of work, against a
# task's round trip of about a millisecond, and a tail short enough that the cores finish together.
CHUNK_BYTES = 1_000_000
CHUNKS_PER_WORKER = 8  # at least this many chunks per worker, so that uneven chunks even out


def outcome_of(work: Callable[[Path], T], path: Path) -> T | AnnotatorError:
    """WORK(PATH), or the AnnotatorError it raised: what travels back from a worker."""
    try:
        return work(path)
    except AnnotatorError as error:
        return error


def outcomes_of(work: Callable[[Path], T], paths: Sequence[Path]) -> list[T | AnnotatorError]:
    """outcome_of each of PATHS, in order: one chunk's task in a worker."""
    return [outcome_of(work, path) for path in paths]


def chunks_of(paths: Sequence[Path], workers: int) -> list[range]:
    """PATHS cut into runs of consecutive files (ranges of their indexes), each up to CHUNK_BYTES
    (a bigger file is a chunk of its own) and at most 1/(CHUNKS_PER_WORKER * WORKERS) of them.
    A file whose size cannot be read is a chunk of its own: its work reports why."""
    most = max(1, len(paths) // (CHUNKS_PER_WORKER * max(1, workers)))
    chunks: list[range] = []
    start = size = 0
    for index, path in enumerate(paths):
        try:
            bytes_ = os.stat(path).st_size
        except OSError:
            bytes_ = CHUNK_BYTES
        if index > start and (size + bytes_ > CHUNK_BYTES or index - start >= most):
            chunks.append(range(start, index))
            start, size = index, 0
        size += bytes_
    if start < len(paths):
        chunks.append(range(start, len(paths)))
    return chunks


def in_order(
    paths: Sequence[Path],
    chunks: Sequence[range],
    submit: Callable[[int], Any],
    next_finished: Callable[[], int | None],
    result: Callable[[Any], list],
    in_flight: int,
    progress: Progress | None,
    here: Callable[[Path], Any] | None = None,
) -> Iterator[Outcome]:
    """Keep IN_FLIGHT chunks submitted; tick PROGRESS for each file of a chunk as it finishes; yield the
    outcomes file by file in input order.

    SUBMIT(k) starts the work on CHUNKS[k] and returns its handle; NEXT_FINISHED() blocks until some
    submitted chunk finishes and returns its index (None: stop here); RESULT(handle) is the chunk's
    outcomes (or raises its error). HERE, when given, is the work run in this process on CHUNKS[0],
    whose outcomes are yielded before the others are submitted."""
    ticks = iter(progress(range(len(paths)), total=len(paths))) if progress is not None else None
    if ticks is not None:
        next(ticks, None)  # a wrapper counts an item done when the next is asked for: this shows 0 of N

    def tick(chunk: range) -> None:
        if ticks is not None:
            for _ in chunk:
                next(ticks, None)

    handles: dict[int, Any] = {}
    done: set[int] = set()
    next_to_submit = next_to_yield = 0
    if here is not None:
        # Before the first submit: starting the workers waits for the fork server, which at its first start
        # imports the log-reading modules (half a second), and the first outcomes need not wait for that.
        yield from zip([paths[i] for i in chunks[0]], outcomes_of(here, [paths[i] for i in chunks[0]]))
        tick(chunks[0])
        next_to_submit = next_to_yield = 1
    while next_to_yield < len(chunks):
        while next_to_submit < len(chunks) and next_to_submit - next_to_yield < in_flight:
            handles[next_to_submit] = submit(next_to_submit)
            next_to_submit += 1
        if next_to_yield in done:
            done.discard(next_to_yield)
            outcomes = result(handles.pop(next_to_yield))
        else:
            finished = next_finished()
            if finished is None:
                return
            done.add(finished)
            tick(chunks[finished])
            continue
        yield from zip([paths[i] for i in chunks[next_to_yield]], outcomes)
        next_to_yield += 1
    if ticks is not None:
        deque(ticks, maxlen=0)  # lets the progress wrapper finish (tqdm closes its bar)
