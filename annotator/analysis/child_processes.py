"""Worker processes that end with the process that started them, however it ends (SIGKILL included).

    with process_pool() as pool:                 # a ProcessPoolExecutor of one spawned worker
        result = pool.submit(work, argument).result()

concurrent.futures' worker cannot tell that its parent is gone: it holds both
ends of the pool's own pipes, so it waits on them forever (a window killed
during an open used to leave its validation worker behind, 30-90 MB each).
Here the worker is also handed the reading end of a pipe whose only writing end
the parent holds; a thread in the worker waits on it and ends the worker when it
reads end-of-file, which the system delivers as soon as the parent has died.
This is portable, unlike Linux's PR_SET_PDEATHSIG, which fires when the creating
*thread* ends (the pool is created on a worker thread).

A program that quits calls stop_children(): every pool's worker is terminated at once, not waited for
(a 100 MB log's validation kept a closed window's process alive 12-80 s), and whoever waits on its
result gets BrokenProcessPool; work on a log run through in_child_process gets a LogReadError instead.
A pool still being made when the program quits (its resource tracker already started, its worker not
yet) is stopped as it is registered, so no worker starts after the quit (one did, and kept a quitting
window's process alive for its whole validation, 20-28 s under load).
Its answer comes back through a file (analysis.result_files): a worker terminated in the middle of
sending a big answer down the pool's pipe would leave the pool waiting for the rest for ever.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

from annotator.analysis.result_files import read_back, result_folder, through_file
from annotator.errors import LogReadError

Result = TypeVar("Result")

_running: set[ProcessPoolExecutor] = set()  # the pools of process_pool in use, for stop_children
_running_lock = threading.Lock()
_stops = 0  # how many times stop_children was called: a pool made across a call is stopped when registered


@contextmanager
def process_pool(max_workers: int = 1) -> Iterator[ProcessPoolExecutor]:
    context = multiprocessing.get_context("spawn")
    stops_before = _stops
    with (
        lifeline(context) as reader,
        ProcessPoolExecutor(max_workers, mp_context=context, initializer=end_with_parent, initargs=(reader,)) as pool,
    ):
        with _running_lock:
            if _stops != stops_before:  # the program quit while the pool was being made: submit() now raises
                pool.shutdown(wait=False, cancel_futures=True)
            _running.add(pool)
        try:
            yield pool
        finally:
            with _running_lock:
                _running.discard(pool)


def in_child_process(path: str | Path, done: str, work: Callable[..., Result], *arguments: Any) -> Result:
    """WORK(*ARGUMENTS) on the log at PATH in a child process (process_pool). A child that cannot start (the
    program is quitting) or is stopped before it answers (stop_children, or killed) is a LogReadError saying
    the log was not DONE ("read", "validated"), one line, as any unreadable log is."""
    from concurrent.futures.process import BrokenProcessPool

    with result_folder() as folder, process_pool() as pool:
        try:
            future = pool.submit(through_file, folder, work, *arguments)
        except RuntimeError as error:  # the program is exiting (a log opened just before quitting): no child now
            raise LogReadError(path, f"not {done}: the program is quitting") from error
        try:
            return read_back(future.result())
        except BrokenProcessPool as error:
            raise LogReadError(path, f"not {done}: its process ended first") from error


def stop_children() -> None:
    """Terminate the workers of every process_pool in use or being made, without waiting for them."""
    global _stops
    with _running_lock:
        _stops += 1
        pools = list(_running)
    for pool in pools:
        terminate_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)


def terminate_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate POOL's processes (Python 3.14 has pool.terminate_workers(); before, only its _processes)."""
    terminate = getattr(pool, "terminate_workers", None)
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


@contextmanager
def lifeline(context) -> Iterator[Connection]:
    """The reading end of a pipe for workers of CONTEXT to watch (end_with_parent); only this process
    holds the writing end, so they read end-of-file when it dies. Both ends are closed on leaving."""
    reader, held = context.Pipe(duplex=False)
    try:
        yield reader
    finally:
        held.close()
        reader.close()


def end_with_parent(lifeline: Connection) -> None:
    """A worker's initializer (or part of it): watch the lifeline on a thread of its own."""
    threading.Thread(target=_wait_for_the_end, args=(lifeline,), name="end-with-parent", daemon=True).start()


def _wait_for_the_end(lifeline: Connection) -> None:
    try:
        lifeline.recv_bytes()
    except (EOFError, OSError):
        pass
    os._exit(1)  # the parent is gone: nobody wants the result
