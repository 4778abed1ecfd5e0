"""A user's pattern run over texts on a worker, never on the GUI thread.

Find takes the shown session's texts on the GUI thread (annotator.analysis.search.session_texts: its
facts are made already, and no pattern runs there); the Replace preview reads the open log's
transcriptions on the worker (annotator.analysis.replace.transcriptions, walked). The pattern runs on
a BackgroundTask with the time limit of annotator.user_patterns, and the GUI thread waits GLANCE_S at
most for it: a search done by then (nearly every one) is shown at once, with no "searching" flicker
between two keys; a longer one goes on in the background, where Cancel (or a new search) drops it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Literal, TypeVar

from PySide6.QtCore import QCoreApplication, QObject, QThreadPool

from annotator.errors import AnnotatorError
from annotator.gui.runtime.worker import BackgroundTask, TaskContext

GLANCE_S = 0.05  # how long the GUI thread waits for a search before leaving it to the background
# Searches have threads of their own: behind a corpus scan in the shared pool, the glance would always miss.
# A cancelled search ends at its next text (LIMIT_S at most), so a few threads are never all held.
SEARCH_THREADS = 3
_pool: QThreadPool | None = None
Result = TypeVar("Result")


def _search_pool() -> QThreadPool:
    global _pool
    if _pool is None:
        _pool = QThreadPool(QCoreApplication.instance())
        _pool.setMaxThreadCount(SEARCH_THREADS)
    return _pool


class PatternTask(QObject, Generic[Result]):
    """WORK(context) on a worker; DONE(result) or REFUSED(one line) on the GUI thread, at once when WORK
    ends within GLANCE_S, else when it ends. cancel() drops the result."""

    def __init__(
        self,
        work: Callable[[TaskContext], Result],
        done: Callable[[Result], None],
        refused: Callable[[str], None],
        parent: QObject,
    ):
        super().__init__(parent)
        # (True, what WORK returned) or (False, the line saying why it was refused)
        self._outcome: list[tuple[Literal[True], Result] | tuple[Literal[False], str]] = []
        self._done, self._refused = done, refused
        self._delivered = False

        def guarded(context: TaskContext) -> None:
            try:
                self._outcome.append((True, work(context)))
            except AnnotatorError as error:  # a bad or too slow pattern: the user's to change, one line
                self._outcome.append((False, str(error)))

        self.task = BackgroundTask(guarded, self)
        self.task.finished.connect(self._deliver)
        self.task.failed.connect(self._failed)
        self.task.start(_search_pool())
        if self.task.wait(GLANCE_S):
            self._deliver()

    @property
    def running(self) -> bool:
        return not self._delivered

    def cancel(self) -> None:
        """Drop the result; the worker stops at its next text (one text takes LIMIT_S at most)."""
        self._delivered = True
        self.task.cancel()
        self.deleteLater()

    def _deliver(self) -> None:
        if self._delivered or not self._outcome:
            return
        self._delivered = True
        self.deleteLater()  # once the events of now are handled: what the worker still sends goes nowhere
        outcome = self._outcome[0]
        if outcome[0]:
            self._done(outcome[1])
        else:
            self._refused(outcome[1])

    def _failed(self, message: str) -> None:
        """A bug in the work: its one line rather than a search that never ends."""
        if not self._delivered:
            self._delivered = True
            self.deleteLater()
            self._refused(message)
