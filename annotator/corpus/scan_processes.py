"""The session browser's scan in child processes: a FileMap (see annotator.corpus.parallel) whose
work runs in processes that end with this one, while the first file is summarised here.

Scanning validates every log, and lxml holds the GIL while it validates against the DTD: in a
thread of the window's process that stalls the window for as long as each validation lasts
(seconds for a big log). In child processes it does not, and every core helps. The children take
a moment to start (they import the annotator), so the first log is summarised in this process
meanwhile and the first rows come as soon as before. Closing the map early (the scan stopped)
drops the files not yet started.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from annotator.analysis.child_processes import process_pool
from annotator.corpus.parallel import Outcome, serial_map
from annotator.errors import AnnotatorError
from annotator.progress import Progress

T = TypeVar("T")


def in_child_processes(work: Callable[[Path], T], paths: Sequence[Path],
                       progress: Progress | None = None) -> Iterator[Outcome]:
    """WORK over PATHS, PATHS[0] here and the others in one child process per core, in the order of PATHS."""
    if len(paths) < 2:
        yield from serial_map(work, paths, progress)
        return
    with process_pool(max(1, os.cpu_count() or 1)) as pool:
        try:
            pending = [(path, pool.submit(work, path)) for path in paths[1:]]
            yield from serial_map(work, paths[:1])
            for path, future in pending:
                try:
                    outcome = future.result()
                except AnnotatorError as error:
                    outcome = error
                yield path, outcome
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
