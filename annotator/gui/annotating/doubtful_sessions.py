"""Every session's doubts made on a worker, so that "most doubtful first" Ctrl+Enter at a session's end
does not stall the window (annotator.analysis.next_session.prepare_doubts).

Finding the session that holds the log's most doubtful turn still to transcribe needs the facts and
doubts of every session: seconds on a 100 MB log, the first time. They are made on a worker of their own
as soon as a log is open while the doubt order is chosen, or when it is chosen. A press that comes before
they are ready, on a log of more than SPOT_TURNS turns, says so in the status bar, and the window goes
on once they are (when_ready); a smaller log is done on the spot, as before. A result for a log no longer
shown is dropped; a wait is forgotten when another log opens.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QThreadPool

from annotator.analysis.next_session import prepare_doubts
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.runtime.worker import BackgroundTask, TaskContext
from annotator.gui.settings import DOUBT_ORDER, AppSettings
from annotator.log.document import LogDocument
from annotator.log.gc_pause import kept_out_of_collection

# Up to this many turns in the log, the doubts are made on the spot (about 0.17 ms a turn: 35 ms).
SPOT_TURNS = 200
FINDING = "Finding the most doubtful session…"


def _prepare(document: LogDocument, context: TaskContext) -> bool:
    try:
        # Every session's facts and doubts: left young, 230 ms in the GUI thread's next collection at 100 MB.
        with kept_out_of_collection():
            return prepare_doubts(document, context.cancelled)
    except Exception:
        if context.cancelled():
            return False  # the log was closed or replaced meanwhile (and released): nobody waits for this
        raise


class DoubtfulSessions(QObject):
    """Whether every session's doubts of the open log are ready, and their making on a worker."""

    def __init__(self, controller: DocumentController, settings: AppSettings):
        super().__init__(controller)
        self.controller, self.settings = controller, settings
        self._task: BackgroundTask | None = None
        self._ready_for: LogDocument | None = None
        self._waiting: Callable[[], None] | None = None
        self._pool = QThreadPool(self)  # not the opener's nor the panes': neither waits behind this
        self._pool.setMaxThreadCount(1)
        controller.document_opened.connect(self._on_opened)
        controller.document_closed.connect(self._forget)

    def is_ready(self, document: LogDocument) -> bool:
        """Whether a press may find the most doubtful session now without stalling the window."""
        return document is self._ready_for or sum(len(s.turns) for s in document.sessions) <= SPOT_TURNS

    def prepare(self) -> None:
        """Start making the open log's doubts, unless they are made or being made."""
        document = self.controller.document
        if document is None or document is self._ready_for or self._task is not None:
            return
        task = BackgroundTask(lambda context: _prepare(document, context), self)
        task.succeeded.connect(lambda done: self._take(task, document, done))
        task.failed.connect(lambda text: self._fail(task, text))
        self._task = task
        task.start(self._pool)

    def when_ready(self, then: Callable[[], None]) -> None:
        """Call THEN once the open log's doubts are ready (the last such wish only), saying so meanwhile."""
        self._waiting = then
        self.controller.status_reported.emit(FINDING)
        self.prepare()

    def _on_opened(self, _document: LogDocument) -> None:
        self._forget()
        if self.settings.next_turn_order == DOUBT_ORDER:
            self.prepare()

    def _take(self, task: BackgroundTask, document: LogDocument, done: bool) -> None:
        if task is not self._task or document is not self.controller.document:
            return
        self._task = None
        if not done:
            return
        self._ready_for = document
        waiting, self._waiting = self._waiting, None
        if waiting is not None:
            waiting()

    def _fail(self, task: BackgroundTask, text: str) -> None:
        if task is not self._task:
            return
        self._forget()
        self.controller.status_reported.emit(f"The sessions' doubts could not be made: {text}")

    def _forget(self) -> None:
        if self._task is not None:
            self._task.cancel()  # its result is dropped when it comes (_take checks the task)
        self._task, self._ready_for, self._waiting = None, None, None
