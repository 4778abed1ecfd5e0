"""Writing snapshots on a thread of its own, at most a fixed delay after the first change not yet written.

    writer = BackgroundWriter(take, write, report, delay=1.0)
    writer.changed()          # after each change (cheap, any thread): a write is due within DELAY
    writer.flush()            # write now, on the calling thread (raises what WRITE raises)
    with writer.paused(): ... # no write runs meanwhile (one in flight is waited for)
    writer.stop()             # no write after this returns

The delay is a deadline, not a debounce: later changes never push it back, so
however fast changes come, each is written within DELAY plus the time of the
write in flight and its own. TAKE runs under the writer's lock and must be quick
(it copies the small state to write); WRITE (encoding, writing, fsync) runs
outside it, so changes can be noted while a write is in progress. Every write
is reported, REPORT(None) or REPORT(error); a write that fails is tried again
after DELAY until one succeeds, so the caller can warn until the trouble is fixed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from annotator.errors import AnnotatorError

log = logging.getLogger(__name__)
Snapshot = TypeVar("Snapshot")


class BackgroundWriter(Generic[Snapshot]):
    def __init__(
        self,
        take: Callable[[], Snapshot],
        write: Callable[[Snapshot], None],
        report: Callable[[Exception | None], None],
        delay: float,
    ):
        self._take = take
        self._write = write
        self._report = report
        self._delay = delay
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._writing = threading.Lock()  # held for a whole write, by the thread or by flush()
        self._due: float | None = None  # when the oldest change not yet written must be written
        self._thread: threading.Thread | None = None
        self._stopped = False

    def changed(self) -> None:
        with self._lock:
            self._schedule()

    def _schedule(self) -> None:
        """A write within DELAY, by the thread (started if need be). Called holding the lock."""
        if self._stopped:
            return
        if self._due is None:
            self._due = time.monotonic() + self._delay
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="recovery-journal-writer", daemon=True)
            self._thread.start()

    def flush(self) -> None:
        """Write the current state now, on this thread; raises what WRITE raises."""
        with self._writing:
            with self._lock:
                self._due = None
                snapshot = self._take()
            self._attempt(snapshot, raising=True)

    @contextmanager
    def paused(self) -> Iterator[None]:
        with self._writing:
            yield

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self._due = None
            self._wake.notify_all()
        with self._writing:  # a write in flight ends before stop() returns
            pass

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._stopped and self._due is not None and self._due > time.monotonic():
                    self._wake.wait(self._due - time.monotonic())
                if self._stopped or self._due is None:
                    self._thread = None
                    return
            with self._writing:
                with self._lock:
                    if self._stopped:
                        self._thread = None
                        return
                    self._due = None
                    snapshot = self._take()
                self._attempt(snapshot, raising=False)

    def _attempt(self, snapshot: Snapshot, raising: bool) -> None:
        try:
            self._write(snapshot)
        except Exception as error:
            if not isinstance(error, (AnnotatorError, OSError)):
                log.error("the recovery journal could not be written", exc_info=error)  # a bug: keep the trace
            with self._lock:
                self._schedule()  # try again
            self._report(error)
            if raising:
                raise
            return
        self._report(None)
