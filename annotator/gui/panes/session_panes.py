"""The Metrics and the Timeline of the shown session, filled from what the opening worker
prepared, on the spot, or in the background.

An open shows the turn table as soon as the log is parsed and, for a short session, its turn facts are
made. A short session's metrics and timeline come with it (LogOpener.take_prepared). A long one's
(PREPARE_AFTER_PAINT_TURNS turns or more: seconds at 70,000 turns) are made on a worker of their own after the turns
are shown (the rows painted make their own facts meanwhile), with every turn's facts, the index of turns
to transcribe and the turn table's doubt strip, while both panes say they are computing and the strip
stays blank; each is made once. The facts come first (facts_made: the session bar's progress and
Ctrl+Enter wait for it, gui/annotating/navigation.py), then the metrics and the timeline. What the annotator changes
meanwhile is not lost: the changes announced while the worker ran are handed to the panes after
they take its result (each pane follows a change by reading the changed turns again, so a turn the
worker read before or after the change comes out right either way). The result is dropped when the
session is no longer the one shown. Any long session shown later (another session of the log, or the
same one again) is computed in the background the same way; a short one on the spot.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt, QThreadPool, Signal
from PySide6.QtWidgets import QLabel, QWidget

from annotator.analysis.doubt import DOUBTS, session_doubts
from annotator.analysis.metrics_live import LiveMetrics
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.opening.opener import is_long
from annotator.gui.panes.metrics_panel import MetricsPanel
from annotator.gui.runtime.after_paint import PaintGate
from annotator.gui.runtime.worker import BackgroundTask, TaskContext
from annotator.gui.timeline.view import TimelineView
from annotator.log.document import AnnotationChange
from annotator.log.elements import Session
from annotator.log.gc_pause import kept_out_of_collection
from annotator.timeline.data import TimelineData, build_timeline

COMPUTING_METRICS = "Computing the session's metrics…"
COMPUTING_TIMELINE = "Computing the session's timeline…"
FACTS_MADE = "facts made"  # what the worker publishes once the session's facts and doubts are in the cache


class PendingNote(QLabel):
    """A line of text laid over WIDGET, covering it, while what WIDGET shows is being computed."""

    def __init__(self, widget: QWidget, text: str):
        super().__init__(text, widget)
        self.setObjectName("pending_note")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setAutoFillBackground(True)  # the pane's empty frame does not show through
        self.setWordWrap(True)
        self.hide()
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and isinstance(watched, QWidget):  # the widget it covers
            self.setGeometry(watched.rect())
        return False

    def set_shown(self, shown: bool) -> None:
        if shown:
            widget = self.parentWidget()
            assert widget is not None, "a note is made over its widget"
            self.setGeometry(widget.rect())
            self.raise_()
        self.setVisible(shown)


def _make_panes(session: Session, context: TaskContext) -> tuple[LiveMetrics, TimelineData] | None:
    try:
        # Every turn's facts, the metrics, the timeline's rows: left young, a stall of 200-400 ms at 70,000 turns
        # in the GUI thread's next collection.
        with kept_out_of_collection():
            cache = session.document.facts_cache
            facts = cache.make_session_facts(session)  # kept safely while the annotator edits: 1.8 s at 70k turns
            cache.offer_session_value(session, DOUBTS, session_doubts(facts))  # the doubt strip, most doubtful first
            context.publish(FACTS_MADE)  # the progress and Ctrl+Enter need no more (SessionPanes.facts_made)
            context.flush()
            cache.index_turn_keys(session)  # the first edit needs it: 0.16 s at 70,000 turns
            live = None if context.cancelled() else LiveMetrics(session)
            # LiveMetrics were made unless cancelled, which stays so once it is.
            panes = None if context.cancelled() or live is None else (live, build_timeline(session))
        return panes
    except Exception:
        if context.cancelled():
            return None  # the log was closed or replaced meanwhile (and released): nobody waits for this
        raise


class SessionPanes(QObject):
    """Fills METRICS and TIMELINE for the session the window shows (see the module's docstring)."""

    filled = Signal(object)  # the Session whose panes were filled from the background
    pending_changed = Signal(bool)  # whether the panes (and the turn table's doubt strip) wait for the worker
    # A long Session's turn facts, index of turns to transcribe and doubts are in the facts cache (made on the
    # worker, or the worker failed and whoever waits makes them): the progress and Ctrl+Enter can be answered.
    facts_made = Signal(object)

    def __init__(
        self,
        controller: DocumentController,
        metrics: MetricsPanel,
        timeline: TimelineView,
        current_turn_index: Callable[[], int | None],
    ):
        super().__init__(controller)
        self.controller, self.metrics, self.timeline = controller, metrics, timeline
        self.current_turn_index = current_turn_index
        self.notes = (PendingNote(metrics, COMPUTING_METRICS), PendingNote(timeline, COMPUTING_TIMELINE))
        self.session: Session | None = None  # the session shown
        self._task: BackgroundTask | None = None
        self._changes: list[AnnotationChange] = []  # announced while the task ran
        self._pending = False
        self._pool = QThreadPool(self)  # not the opener's: the next open does not wait behind this
        self._pool.setMaxThreadCount(1)
        controller.annotation_changed.connect(self._note_change)

    @property
    def computing(self) -> bool:
        return self._task is not None

    def show(self, session: Session | None) -> None:
        """Fill the panes for SESSION (None: empty them)."""
        self._forget_task()
        self.session = session
        opener = self.controller.opener
        prepared = opener.take_prepared(session) if session is not None else None
        if session is not None and prepared is None and is_long(session):
            self._compute_in_background(session)
            return
        self.metrics.set_session(session, prepared.metrics if prepared is not None else None)
        self.timeline.set_session(
            session, self.current_turn_index(), prepared.timeline if prepared is not None else None
        )

    def _compute_in_background(self, session: Session) -> None:
        self.metrics.set_session(None)
        self.timeline.set_session(None)
        self._set_pending(True)
        # The worker waits for the window's paint, with the timeline's note just shown in it: its Python
        # work held the GIL against the turns' first paint.
        gate = PaintGate(self.notes[-1])

        def work(context: TaskContext) -> tuple[LiveMetrics, TimelineData] | None:
            gate.wait()
            return _make_panes(session, context)

        def published(_items: list[object]) -> None:
            if task is self._task:
                self.facts_made.emit(session)

        def succeeded(result: tuple[LiveMetrics, TimelineData] | None) -> None:
            if result is not None:
                self._take(task, session, *result)

        task = BackgroundTask(work, self)
        task.published.connect(published)
        task.succeeded.connect(succeeded)
        task.failed.connect(lambda text: self._fail(task, session, text))
        self._task = task
        task.start(self._pool)

    def _take(self, task: BackgroundTask, session: Session, live: LiveMetrics, timeline: TimelineData) -> None:
        if task is not self._task or session is not self.session:
            return  # another session, or another log, is shown now
        changes, self._changes = self._changes, []
        self._task = None
        self._set_pending(False)
        self.metrics.set_session(session, live)
        self.timeline.set_session(session, self.current_turn_index(), timeline)
        for change in changes:
            self.metrics.on_annotation_changed(change)
            self.timeline.on_annotation_changed(change)
        self.filled.emit(session)

    def _fail(self, task: BackgroundTask, session: Session, text: str) -> None:
        if task is not self._task:
            return
        self._forget_task()
        self.controller.status_reported.emit(f"The session's metrics and timeline could not be made: {text}")
        self.facts_made.emit(session)  # what waited for the facts makes them now

    def _note_change(self, change: AnnotationChange) -> None:
        if self._task is not None:
            self._changes.append(change)

    def _forget_task(self) -> None:
        if self._task is not None:
            self._task.cancel()  # its result is dropped when it comes (_take checks the task)
        self._task, self._changes = None, []
        self._set_pending(False)

    def _set_pending(self, pending: bool) -> None:
        for note in self.notes:
            note.set_shown(pending)
        if pending != self._pending:
            self._pending = pending
            self.pending_changed.emit(pending)
