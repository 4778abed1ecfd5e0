"""A worker process's answer handed back through a file, so that what crosses the pool's pipe is a few bytes.

    with result_folder() as folder:
        future = pool.submit(through_file, folder, work, argument)
        value = read_back(future.result())      # WORK's result, or its exception raised here

concurrent.futures reads every worker's answer from one pipe that all the
workers write to. A worker terminated while it writes an answer bigger than
the pipe's buffer (64 KiB on Linux) leaves half a message there; the pool's
manager thread then waits for the rest for ever (the other workers, and the
pool itself, hold the pipe's writing end, so no end-of-file comes), and so
does whoever shuts the pool down or waits for the interpreter's exit. The
workers here are terminated on purpose (a cancelled scan, a closed window), so
this happened: a window's task never ended. A write of at most PIPE_BUF bytes
(4 KiB on Linux, 512 at least by POSIX) reaches a pipe whole or not at all, so
the worker pickles its result (or its exception, whose traceback can be long)
into a file of the run's folder and answers with the file's name alone. A file
half-written by a terminated worker is never named to anyone and goes with the
folder.
"""

from __future__ import annotations

import os
import pickle
import shutil
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

FOLDER_PREFIX = "annotator-results-"


class WorkerTraceback(Exception):
    """Where a worker's exception was raised: its formatted traceback, attached as the cause."""


@contextmanager
def result_folder() -> Iterator[str]:
    """A new folder for one run's result files, removed on leaving with whatever is left in it."""
    folder = tempfile.mkdtemp(prefix=FOLDER_PREFIX)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def through_file(folder: str, work: Callable[..., Any], *arguments: Any) -> str:
    """In a worker: WORK(*ARGUMENTS) pickled into a new file of FOLDER, whose name is returned."""
    try:
        answer: tuple[bool, Any, str] = (True, work(*arguments), "")
    except Exception as error:  # noqa: BLE001 - the parent raises it, as the pool would have
        answer = (False, error, traceback.format_exc())
    descriptor, name = tempfile.mkstemp(dir=folder, suffix=".pickle")
    with os.fdopen(descriptor, "wb") as file:
        try:
            data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # noqa: BLE001 - an unpicklable result or exception: say so instead
            data = pickle.dumps((False, RuntimeError(f"the worker's answer could not be pickled: {error}"), ""))
        file.write(data)
    return name


def read_back(name: str) -> Any:
    """The result in the file NAME (through_file), which is removed; a worker's exception is raised here."""
    path = Path(name)
    try:
        succeeded, value, where = pickle.loads(path.read_bytes())
    finally:
        path.unlink(missing_ok=True)
    if succeeded:
        return value
    if where:
        raise value from WorkerTraceback(where)
    raise value
