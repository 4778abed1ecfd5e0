"""The one way to run work off the GUI thread: BackgroundTask.

The work function runs on a QThreadPool thread and gets a TaskContext to
report progress, hand over partial results and ask whether it was cancelled.
Everything it reports arrives as signals of the BackgroundTask emitted on the
GUI thread (the thread the task was created on), so slots may touch widgets:

    task = BackgroundTask(lambda context: slow(context.cancelled), parent=self)
    task.succeeded.connect(self.show_result)
    task.start()

Exactly one of succeeded / failed / cancelled follows the work, then finished.
The work function must not touch Qt objects; it talks only through its context.
"""

from __future__ import annotations

import enum
import logging
import sys
import threading
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, Qt, QThreadPool, Signal, Slot

from annotator.errors import AnnotatorError

log = logging.getLogger(__name__)

# Progress and partial results are passed on at most this often, so a fast loop on the
# worker cannot flood the GUI thread's event queue.
REPORT_INTERVAL_S = 0.05

# While background work runs, the GUI thread competes with it for the GIL, and every Python
# call the GUI makes (each model data() while painting) may wait one switch interval (5 ms by
# default) for it. A 1 ms interval keeps the window fluid: on the corpus scan, the longest gap
# between 20 ms timer ticks fell from 35-124 ms to 31-58 ms on a busy two-core machine.
SWITCH_INTERVAL_WHILE_BUSY_S = 0.001
# How long the GUI thread waits, at most, for a runner that said "ended" to drop its last references (it takes
# microseconds; the bound keeps a stuck pool thread from freezing the window).
LET_GO_WAIT_S = 1.0


class TaskState(enum.Enum):
    READY = "ready"
    RUNNING = "running"
    CANCELLING = "cancelling"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"


class TaskContext:
    """What the work function may do from the worker thread: report, publish, ask about cancelling."""

    def __init__(self, relay: _Relay, cancel_flag: threading.Event):
        self._relay: _Relay | None = relay
        self._cancel_flag = cancel_flag
        self._last_report = 0.0
        self._pending_progress: tuple[int, int, str] | None = None
        self._pending_items: list[object] = []

    def cancelled(self) -> bool:
        return self._cancel_flag.is_set()

    def progress(self, done: int, total: int, label: str = "") -> None:
        self._pending_progress = (done, total, label)
        self._report_if_due()

    def publish(self, item: object) -> None:
        """Hand over one partial result; they arrive in batches as BackgroundTask.published(list)."""
        self._pending_items.append(item)
        self._report_if_due()

    def detach(self) -> None:
        """The work is over: nothing more is reported, and the relay is let go of."""
        self._relay = None

    def _report_if_due(self) -> None:
        if time.monotonic() - self._last_report >= REPORT_INTERVAL_S:
            self.flush()

    def flush(self) -> None:
        self._last_report = time.monotonic()
        if self._relay is None:
            return
        if self._pending_items:
            items, self._pending_items = self._pending_items, []
            self._relay.published.emit(items)
        if self._pending_progress is not None:
            self._relay.progressed.emit(*self._pending_progress)
            self._pending_progress = None


Work = Callable[[TaskContext], object]


class _Relay(QObject):
    """Emitted on the worker thread; queued connections carry each emission to the GUI thread.

    It is a Qt object made on the GUI thread, and its Python wrapper must go there too: shiboken freeing a
    wrapper on another thread races with the GUI thread's own lookups of wrappers and leaves its map of them
    pointing at freed memory (docs/adr/0015-the-two-segfaults.md). _InFlight holds each relay whose work runs
    until its runner has let go of it, so the last reference always goes on the GUI thread.
    """

    progressed = Signal(int, int, str)
    published = Signal(object)  # a list, passed as it is (Signal(list) would convert it to a QVariantList)
    returned = Signal(object)
    raised = Signal(str)
    ended = Signal()


class _InFlight(QObject):
    """The relays of the tasks whose work runs, held on the GUI thread until each runner has let go of its
    relay (see _Relay): one per application, made with the first task."""

    def __init__(self, app: QCoreApplication):
        super().__init__(app)
        self._held: dict[int, tuple[_Relay, threading.Event]] = {}

    @classmethod
    def of_application(cls) -> _InFlight:
        app = QCoreApplication.instance()
        if app is None:
            raise RuntimeError("a BackgroundTask needs the application's event loop")
        return app.findChild(cls) or cls(app)

    def hold(self, relay: _Relay, let_go: threading.Event) -> None:
        self._held[id(relay)] = (relay, let_go)
        relay.ended.connect(self._release, Qt.ConnectionType.QueuedConnection)

    @Slot()
    def _release(self) -> None:
        held = self._held.pop(id(self.sender()), None)
        if held is not None:
            held[1].wait(LET_GO_WAIT_S)  # the runner drops its references right after it says "ended"

    @property
    def count(self) -> int:
        return len(self._held)


class _Runner(QRunnable):
    def __init__(
        self, work: Work, relay: _Relay, cancel_flag: threading.Event, done: threading.Event, let_go: threading.Event
    ):
        super().__init__()
        self.setAutoDelete(True)
        self._work: Work | None = work
        self._relay: _Relay | None = relay
        self._cancel_flag = cancel_flag
        self._done, self._let_go = done, let_go

    def run(self) -> None:
        relay, self._relay = self._relay, None
        assert relay is not None, "a runner runs once"
        context = TaskContext(relay, self._cancel_flag)
        try:
            self._run_work(context, relay)  # whatever the work held, and its result, go when this returns
        finally:
            _busy_switching.leave()  # here, not on the GUI thread: a deleted task never hears "ended"
            context.detach()
            self._done.set()
            _emit(relay.ended)
            del relay  # this thread lets go of the relay, a Qt object: _InFlight frees it on the GUI thread
            self._let_go.set()

    def _run_work(self, context: TaskContext, relay: _Relay) -> None:
        work, self._work = self._work, None
        assert work is not None, "a runner runs once"
        try:
            result = work(context)
        except Exception as error:  # delivered to the GUI as failed(); a crash of a pool thread helps no one
            context.flush()
            _emit(relay.raised, _one_line(error))
        else:
            context.flush()
            _emit(relay.returned, result)


def _emit(signal, *args) -> None:
    """Emit unless the task was deleted while its work ran (then no one waits for the result)."""
    try:
        signal.emit(*args)
    except RuntimeError:
        pass


def _one_line(error: Exception) -> str:
    if isinstance(error, AnnotatorError):
        return str(error)
    if not isinstance(error, OSError):
        log.error("background task failed", exc_info=error)  # a bug, not the user's doing: keep the trace
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class BackgroundTask(QObject):
    """WORK(context) run once on a thread pool, reporting back on the GUI thread."""

    progressed = Signal(int, int, str)  # done, total, label
    published = Signal(object)  # a list: a batch of partial results handed over by context.publish()
    succeeded = Signal(object)  # what WORK returned
    failed = Signal(str)  # one-line message of what WORK raised
    cancelled = Signal()  # cancel() was asked and WORK has stopped (its result, if any, is dropped)
    finished = Signal()  # always last, after succeeded, failed or cancelled

    def __init__(self, work: Work, parent: QObject | None = None):
        super().__init__(parent)
        self._work: Work | None = work
        self._state = TaskState.READY
        self._cancel_flag = threading.Event()
        self._done = threading.Event()
        self._relay = _Relay()
        queued = Qt.ConnectionType.QueuedConnection
        self._relay.progressed.connect(self._on_progressed, queued)
        self._relay.published.connect(self._on_published, queued)
        self._relay.returned.connect(self._on_returned, queued)
        self._relay.raised.connect(self._on_raised, queued)
        self._relay.ended.connect(self._on_ended, queued)
        # Let a running task stop when its owner goes away or the application quits.
        self.destroyed.connect(self._cancel_flag.set)
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.cancel)

    @property
    def state(self) -> TaskState:
        return self._state

    @property
    def is_running(self) -> bool:
        return self._state in (TaskState.RUNNING, TaskState.CANCELLING)

    def start(self, pool: QThreadPool | None = None) -> None:
        if self._state is not TaskState.READY or self._work is None:
            raise RuntimeError("a BackgroundTask runs once; make a new one")
        let_go = threading.Event()
        _InFlight.of_application().hold(self._relay, let_go)
        runner = _Runner(self._work, self._relay, self._cancel_flag, self._done, let_go)
        self._work = None
        self._set_state(TaskState.RUNNING)
        _busy_switching.enter()
        (pool or QThreadPool.globalInstance()).start(runner)

    def cancel(self) -> None:
        """Ask the work to stop (it polls context.cancelled()); cancelled() follows once it has."""
        self._cancel_flag.set()
        if self._state is TaskState.RUNNING:
            self._set_state(TaskState.CANCELLING)

    def wait(self, timeout_s: float | None = None) -> bool:
        """Block until the work function has returned (its signals may still be queued). For shutdown and tests."""
        return self._done.wait(timeout_s)

    def _set_state(self, state: TaskState) -> None:
        self._state = state

    @Slot(int, int, str)
    def _on_progressed(self, done: int, total: int, label: str) -> None:
        if not self._cancel_flag.is_set():
            self.progressed.emit(done, total, label)

    @Slot(object)
    def _on_published(self, items: list) -> None:
        self.published.emit(items)  # even after cancel(): what was done before it is still worth having

    @Slot(object)
    def _on_returned(self, result: object) -> None:
        if self._cancel_flag.is_set():
            self._set_state(TaskState.CANCELLED)
            self.cancelled.emit()
        else:
            self._set_state(TaskState.SUCCEEDED)
            self.succeeded.emit(result)

    @Slot(str)
    def _on_raised(self, message: str) -> None:
        if self._cancel_flag.is_set():
            self._set_state(TaskState.CANCELLED)
            self.cancelled.emit()
        else:
            self._set_state(TaskState.FAILED)
            self.failed.emit(message)

    @Slot()
    def _on_ended(self) -> None:
        self.finished.emit()


class _BusySwitching:
    """Lowers the GIL switch interval while any task runs and restores it after the last one."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running = 0
        self._saved: float | None = None

    def enter(self) -> None:
        with self._lock:
            if self._running == 0:
                self._saved = sys.getswitchinterval()
                sys.setswitchinterval(min(self._saved, SWITCH_INTERVAL_WHILE_BUSY_S))
            self._running += 1

    def leave(self) -> None:
        with self._lock:
            self._running = max(0, self._running - 1)
            if self._running == 0 and self._saved is not None:
                sys.setswitchinterval(self._saved)
                self._saved = None


_busy_switching = _BusySwitching()
