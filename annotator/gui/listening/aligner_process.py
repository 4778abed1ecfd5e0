"""The window's aligner: one child process (analysis.child_processes.process_pool) that places a turn's words,
made on the first turn to align and kept for the window's life.

Not a thread of the window's own process: pocketsphinx holds the GIL while it searches a second of audio, and the
GUI thread then waited for it 60-200 ms at a time on a busy two-core machine, a key typed meanwhile with it. In a
child, the window's process only waits for the answer, which lets the GIL go. Kept rather than started for each
turn: starting it (Python, numpy, the acoustic model) takes most of a second, aligning a five-second turn a fifth
of one. The child ends with the window's process however that ends, and stop_children (the window closing, the
program quitting) stops it at once; a turn asked of it then is not aligned, and the next turn starts another.
"""

from __future__ import annotations

import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from pathlib import Path

from annotator.alignment.cache import Outcome
from annotator.analysis.child_processes import process_pool, terminate_workers
from annotator.errors import AnnotatorError


class AlignerStopped(AnnotatorError):
    """The child process ended before it answered: the turn is not known to be unalignable (nothing to keep)."""


class AlignerProcess:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stack: ExitStack | None = None
        self._pool: ProcessPoolExecutor | None = None

    def align(self, audio: Path, text: str) -> Outcome:
        """TEXT placed on the audio file AUDIO by the child process (started if need be), waited for: call it off
        the GUI thread."""
        from annotator.alignment.engine import align_outcome  # the engine (its decoder's code) only once needed

        pool = self._running_pool()
        try:
            return pool.submit(align_outcome, audio, text).result()
        except (BrokenProcessPool, RuntimeError) as error:  # stopped (the window closing), or it died
            self._forget(pool)
            raise AlignerStopped("the aligner's process ended before it answered") from error

    def close(self) -> None:
        """Stop the child process at once (a turn it was aligning is not aligned) and let go of it."""
        with self._lock:
            stack, pool, self._stack, self._pool = self._stack, self._pool, None, None
        if pool is not None:
            terminate_workers(pool)
            pool.shutdown(wait=False, cancel_futures=True)
        if stack is not None:
            stack.close()

    def _running_pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._stack = ExitStack()
                self._pool = self._stack.enter_context(process_pool())
            return self._pool

    def _forget(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if pool is not self._pool:
                return
            stack, self._stack, self._pool = self._stack, None, None
        if stack is not None:
            stack.close()
