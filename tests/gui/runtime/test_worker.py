"""BackgroundTask: work runs off the GUI thread, and everything it reports arrives on it."""

from __future__ import annotations

import threading
import time
import weakref

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QThread

from annotator.errors import LogReadError
from annotator.gui.runtime.worker import BackgroundTask, TaskContext, TaskState


def on_gui_thread() -> bool:
    return QThread.currentThread() is QCoreApplication.instance().thread()


def test_the_result_arrives_on_the_gui_thread(qtbot):
    task = BackgroundTask(lambda context: threading.get_ident())
    seen: dict[str, object] = {}

    def received(worker_thread: int) -> None:
        seen["worker"] = worker_thread
        seen["on_gui_thread"] = on_gui_thread()

    task.succeeded.connect(received)
    task.failed.connect(lambda message: seen.setdefault("failed", message))
    with qtbot.waitSignal(task.finished, timeout=5000):
        task.start()
    assert seen["on_gui_thread"] is True
    assert seen["worker"] != threading.get_ident()  # the work itself ran elsewhere
    assert "failed" not in seen
    assert task.state is TaskState.SUCCEEDED


@pytest.mark.logs_a_bug  # the raised ValueError stands for a bug, which the worker logs
def test_an_exception_arrives_as_a_one_line_failure(qtbot, caplog):
    def work(context: TaskContext):
        raise ValueError("bad value\n   on two lines")

    task = BackgroundTask(work)
    messages: list[tuple[str, bool]] = []
    task.failed.connect(lambda message: messages.append((message, on_gui_thread())))
    task.succeeded.connect(lambda result: messages.append(("succeeded", on_gui_thread())))
    with qtbot.waitSignal(task.finished, timeout=5000):
        task.start()
    assert messages == [("ValueError: bad value on two lines", True)]
    assert task.state is TaskState.FAILED
    assert "background task failed" in caplog.text  # a bug keeps its traceback in the log


def test_an_annotator_error_keeps_its_own_message(qtbot):
    def work(context: TaskContext):
        raise LogReadError("corpus/a.xml", "mismatched tag", 12, 3)

    task = BackgroundTask(work)
    with qtbot.waitSignal(task.failed, timeout=5000) as blocker:
        task.start()
    assert blocker.args == ["corpus/a.xml:12:3: mismatched tag"]


def test_cancel_stops_the_work_and_drops_its_result(qtbot):
    steps: list[int] = []

    def work(context: TaskContext) -> str:
        for step in range(1000):
            if context.cancelled():
                break
            steps.append(step)
            context.progress(step + 1, 1000, f"step {step}")
            time.sleep(0.005)
        return "complete"

    task = BackgroundTask(work)
    outcomes: list[str] = []
    task.succeeded.connect(outcomes.append)
    task.cancelled.connect(lambda: outcomes.append("cancelled"))
    task.finished.connect(lambda: outcomes.append("finished"))
    with qtbot.waitSignal(task.progressed, timeout=5000):
        task.start()
    assert task.is_running
    task.cancel()
    assert task.state is TaskState.CANCELLING
    qtbot.waitUntil(lambda: "finished" in outcomes, timeout=5000)
    assert outcomes == ["cancelled", "finished"]
    assert task.state is TaskState.CANCELLED
    assert len(steps) < 1000


def test_progress_and_partial_results_arrive_in_order_on_the_gui_thread(qtbot):
    def work(context: TaskContext) -> int:
        for n in range(200):
            context.publish(n)
            context.progress(n + 1, 200, "")
        return 200

    task = BackgroundTask(work)
    batches: list[list] = []
    progress: list[tuple[int, bool]] = []
    task.published.connect(lambda items: batches.append(list(items)))
    task.progressed.connect(lambda done, total, label: progress.append((done, on_gui_thread())))
    with qtbot.waitSignal(task.finished, timeout=5000):
        task.start()
    assert [n for batch in batches for n in batch] == list(range(200))
    assert progress and all(gui for _, gui in progress)
    assert progress[-1][0] == 200  # the last report is never swallowed by the rate limit
    assert len(progress) < 200  # ... but the others are thinned out


def test_a_task_runs_once(qtbot):
    task = BackgroundTask(lambda context: None)
    with qtbot.waitSignal(task.finished, timeout=5000):
        task.start()
    with pytest.raises(RuntimeError):
        task.start()


def test_signals_do_not_steal_references_to_true(qtbot):
    """PySide6 6.12.0 on Python < 3.12 leaks a reference of True per emit()/disconnect() and the
    process aborts after a few thousand signals; pyproject.toml keeps it out (docs/adr/0002)."""
    import sys

    from PySide6.QtCore import QThreadPool

    # Another test's background work still running frees its own references to True meanwhile (22 were seen):
    # let it end first. The leak this guards against loses one reference per emit, 5000 in all.
    assert QThreadPool.globalInstance().waitForDone(30_000)
    task = BackgroundTask(lambda context: None)
    slot = lambda *args: None  # noqa: E731
    before = sys.getrefcount(True)
    for n in range(5000):
        task.progressed.emit(n, 5000, "")
    for _ in range(100):
        task.finished.connect(slot)
        task.finished.disconnect(slot)
    assert sys.getrefcount(True) >= before - 500


def test_the_gil_is_shared_more_finely_only_while_work_runs(qtbot):
    import sys

    from PySide6.QtCore import QThreadPool

    # An earlier test's window may still be validating in the background: its task keeps the finer
    # interval until it ends, so "before" is read once no task runs.
    assert QThreadPool.globalInstance().waitForDone(30_000)
    before = sys.getswitchinterval()
    seen: list[float] = []
    task = BackgroundTask(lambda context: seen.append(sys.getswitchinterval()))
    with qtbot.waitSignal(task.finished, timeout=5000):
        task.start()
    assert seen[0] <= 0.001 < before
    assert sys.getswitchinterval() == before


def test_deleting_a_running_task_stops_its_work(qtbot):
    started, stopped = threading.Event(), threading.Event()

    def work(context: TaskContext) -> None:
        started.set()
        while not context.cancelled():
            time.sleep(0.002)
        stopped.set()

    task = BackgroundTask(work)
    task.start()
    assert started.wait(5)
    task.deleteLater()
    qtbot.waitUntil(stopped.is_set, timeout=5000)


@pytest.mark.parametrize("ending", ["returns", "raises"])
def test_a_task_deleted_while_its_work_runs_frees_its_qt_objects_on_the_gui_thread(qtbot, ending: str):
    """The relay that carries a task's signals is a Qt object; its wrapper freed on the pool's thread (the
    runner held the last reference once the task was gone) left shiboken's map of wrappers pointing at freed
    memory, which PySide read at exit: docs/adr/0015-the-two-segfaults.md."""
    release, done = threading.Event(), threading.Event()
    freed_on: list[int] = []

    def work(_context: TaskContext) -> None:
        release.wait(5)
        done.set()
        if ending == "raises":
            raise OSError("the log went away")

    task = BackgroundTask(work)
    relay = weakref.ref(task._relay, lambda _gone: freed_on.append(threading.get_ident()))
    task.start()
    task.deleteLater()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    del task
    release.set()
    assert done.wait(5)
    qtbot.waitUntil(lambda: relay() is None, timeout=5000)
    assert freed_on == [threading.get_ident()]
