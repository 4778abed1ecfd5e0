"""Per-file work over a corpus: one function applied to every log, results in the input order.

    file_map = file_map_for(jobs=None, scheduler=None)   # every core, or a Dask cluster, or serial
    for path, outcome in file_map(summarise_log, paths, progress):
        if isinstance(outcome, AnnotatorError): ...   # that file's one-line error
        else: ...                                     # that file's result

A FileMap runs WORK(path) for each path and yields (path, outcome) in the
order of PATHS, whatever order the work finishes in, so a corpus-wide output
is the same bytes however it was computed. An AnnotatorError raised by the
work is the file's outcome (the caller decides whether it stops the run);
any other exception propagates. WORK must be picklable (a module-level
function, or a functools.partial of one) and its results too, so that the
same call can run in other processes or on other machines.

Three maps keep that contract: serial_map (in this process), ProcessMap (N
local processes) and DaskMap (the workers of a dask.distributed scheduler, in
dask_map.py).
The two others hand the files out in chunks of consecutive small files (one
big file alone; see chunks_of), so that a corpus of thousands of small logs does
not pay a task's round trip (pickling, queues, the parent waking up) per log:
the parent's share of a run is serial, and on two cores it is what keeps the
second core from paying off. They keep at most a few chunks per worker in
flight, so a corpus of thousands of logs never piles up results in memory, and
advance PROGRESS as each chunk finishes (in whatever order), while yielding in
input order.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

from annotator.analysis.child_processes import end_with_parent, lifeline, terminate_workers
from annotator.analysis.result_files import read_back, result_folder, through_file
from annotator.corpus.chunks import IN_FLIGHT_PER_WORKER, Outcome, T, chunks_of, in_order, outcome_of, outcomes_of
from annotator.errors import AnnotatorError
from annotator.progress import Progress

CANCEL_POLL_SECONDS = 0.1  # how soon a cancelled map notices, while a worker is busy
SCHEDULER_ENVIRONMENT = "DASK_SCHEDULER_ADDRESS"
# The workers fork from a server that has imported these once (see _process_context).
_PRELOAD = ["annotator.log.document", "annotator.analysis.metrics", "annotator.corpus.parallel"]


class FileMap(Protocol):
    def __call__(
        self, work: Callable[[Path], T], paths: Sequence[Path], progress: Progress | None = None
    ) -> Iterator[Outcome]: ...


def serial_map(work: Callable[[Path], T], paths: Sequence[Path], progress: Progress | None = None) -> Iterator[Outcome]:
    """WORK over PATHS one after the other, in this process."""
    items = paths if progress is None else progress(paths, total=len(paths))
    for path in items:
        yield path, outcome_of(work, path)


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity on this system (macOS, Windows)
        return max(1, os.cpu_count() or 1)


def file_map_for(jobs: int | None = None, scheduler: str | None = None) -> FileMap:
    """The map a corpus command uses: SCHEDULER (a dask.distributed address) when given, else JOBS local
    processes (None: every core this process may use; 1: serial, in this process)."""
    if scheduler:
        from annotator.corpus.dask_map import DaskMap  # imports no dask: that waits for the first file

        return DaskMap(scheduler)
    jobs = available_cores() if jobs is None else jobs
    if jobs < 1:
        raise AnnotatorError(f"--jobs {jobs}: expected a number of processes from 1")
    return serial_map if jobs == 1 else ProcessMap(jobs)


def scheduler_from_environment() -> str | None:
    return os.environ.get(SCHEDULER_ENVIRONMENT, "").strip() or None


class ProcessMap:
    """WORK in JOBS processes of this machine.

    The processes start from a fork server (multiprocessing's "forkserver"), not by forking this
    process: a fork copies whatever threads the parent runs (tqdm's monitor, a Dask client, a GUI)
    in whatever state their locks are, while the fork server is a fresh single-threaded process
    that has imported the log-reading modules once, so each worker starts in milliseconds. Where
    there is no fork server (Windows), "spawn". concurrent.futures rather than multiprocessing.Pool:
    a worker that dies (killed, out of memory) breaks the run with an error instead of leaving its
    file waiting forever. The workers ignore SIGINT: Ctrl+C reaches the parent, which terminates
    them, so none is left behind; and they end with the parent however it ends, SIGKILL included
    (analysis.child_processes' lifeline).

    FIRST_HERE: the first file is worked on in this process before the workers start, so that its
    result comes as soon as a serial run's (the session browser's first rows), not after the fork
    server's start. CANCELLED, polled
    while the map waits for a worker, stops the map when it says so: the files not yet started are
    dropped and the workers terminated, as when the caller stops reading. NICENESS, above 0, lowers
    the workers' priority by as much (where the system has os.nice): a window reading a corpus in
    the background gets the cores whenever it needs them, and the workers the rest."""

    def __init__(
        self, jobs: int, *, first_here: bool = False, cancelled: Callable[[], bool] | None = None, niceness: int = 0
    ):
        self.jobs = jobs
        self.first_here = first_here
        self.cancelled = cancelled
        self.niceness = niceness

    def __call__(
        self, work: Callable[[Path], T], paths: Sequence[Path], progress: Progress | None = None
    ) -> Iterator[Outcome]:
        if len(paths) < 2:  # a pool would only add its start
            yield from serial_map(work, paths, progress)
            return
        chunks = chunks_of(paths, self.jobs)
        if self.first_here:
            chunks = [range(0, 1)] + [range(c.start + 1, c.stop + 1) for c in chunks_of(paths[1:], self.jobs)]
        context = _process_context()
        with lifeline(context) as reader, result_folder() as folder:
            pool = ProcessPoolExecutor(
                min(self.jobs, len(chunks) - self.first_here),
                mp_context=context,
                initializer=_start_worker,
                initargs=(reader, self.niceness),
            )
            finished: queue.SimpleQueue = queue.SimpleQueue()
            completed = False
            try:

                def submit(index: int) -> Any:
                    chunk = [paths[i] for i in chunks[index]]
                    try:
                        future = pool.submit(through_file, folder, outcomes_of, work, chunk)
                    except BrokenProcessPool:  # a worker died since the last chunk was handed out
                        raise _worker_died(chunk[0]) from None
                    future.add_done_callback(lambda _: finished.put(index))
                    return chunk[0], future

                yield from in_order(
                    paths,
                    chunks,
                    submit,
                    self._waiter(finished),
                    _process_result,
                    self.jobs * IN_FLIGHT_PER_WORKER,
                    progress,
                    here=work if self.first_here else None,
                )
                completed = self.cancelled is None or not self.cancelled()  # cancelled: the chunks running go too
            finally:
                if not completed:  # interrupted, an error, cancelled, or the caller stopped reading: stop now
                    terminate_workers(pool)
                pool.shutdown(wait=True, cancel_futures=True)

    def _waiter(self, finished: queue.SimpleQueue) -> Callable[[], int | None]:
        """The index of the next chunk to finish; None once CANCELLED says to stop."""
        cancelled = self.cancelled
        if cancelled is None:
            return finished.get

        def next_finished() -> int | None:
            while not cancelled():
                try:
                    return finished.get(timeout=CANCEL_POLL_SECONDS)
                except queue.Empty:
                    continue
            return None

        return next_finished


def _process_result(handle: tuple[Path, Future]) -> Any:
    path, future = handle
    try:
        return read_back(future.result())
    except BrokenProcessPool:
        raise _worker_died(path) from None


def _worker_died(path: Path) -> AnnotatorError:
    return AnnotatorError(
        f"{path}: a worker process ended abruptly (killed, or out of memory?) before this file "
        "was done; the run stopped"
    )


def _process_context():
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(_PRELOAD)
        return context
    return multiprocessing.get_context("spawn")


def _start_worker(reader: Connection, niceness: int) -> None:
    """A worker's initializer: Ctrl+C and a terminal's hangup are the parent's to handle (it terminates
    the workers); end when the parent does; NICENESS."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    end_with_parent(reader)
    if niceness > 0 and hasattr(os, "nice"):
        os.nice(niceness)


def first_results(outcomes: Iterable[Outcome], failed: list[AnnotatorError]) -> Iterator[tuple[Path, Any]]:
    """The (path, result) of OUTCOMES in order; each file's AnnotatorError goes to FAILED instead."""
    for path, outcome in outcomes:
        if isinstance(outcome, AnnotatorError):
            failed.append(outcome)
        else:
            yield path, outcome


class UnreadableFiles(AnnotatorError):
    """Some files of a corpus could not be read (the others were): one line for each, and a last
    line naming them all when there are several. CONSEQUENCE says what the command did about it."""

    def __init__(self, errors: Sequence[AnnotatorError], consequence: str = ""):
        self.errors = list(errors)
        self.consequence = consequence
        super().__init__(self.lines()[-1])

    def lines(self) -> list[str]:
        summary = summary_line(self.errors, self.consequence)
        return [str(error) for error in self.errors] + ([summary] if summary else [])

    def __reduce__(self):
        return type(self), (self.errors, self.consequence)


def summary_line(errors: Sequence[AnnotatorError], consequence: str = "") -> str | None:
    """The line that names every file of ERRORS, when there are several (one error names its file itself)."""
    if len(errors) < 2:
        return None
    names = ", ".join(str(getattr(error, "path", "") or error) for error in errors)
    return f"{len(errors)} files could not be read: {names}" + (f"; {consequence}" if consequence else "")


def raise_if_failed(failed: Sequence[AnnotatorError], consequence: str = "nothing written") -> None:
    if failed:
        raise UnreadableFiles(failed, consequence)
