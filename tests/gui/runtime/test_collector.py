"""The cycle collector runs on the GUI thread only (gui/runtime/collector.py): never on a worker, never in a bulk pass,
and full collections no more often than their share allows. The GUI tests' fixture installs it as the app does."""

from __future__ import annotations

import gc
import threading

import pytest
from PySide6.QtCore import QCoreApplication

from annotator.gui.runtime.collector import FULL_COLLECTION_SHARE, GuiThreadCollector
from annotator.gui.runtime.worker import BackgroundTask
from annotator.log.gc_pause import gc_paused


@pytest.fixture
def collections() -> list[tuple[int, int]]:
    """(thread ident, generation) of every collection that starts while the test runs."""
    seen: list[tuple[int, int]] = []

    def note(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append((threading.get_ident(), info["generation"]))

    gc.callbacks.append(note)
    yield seen
    gc.callbacks.remove(note)


def make_cycles(count: int) -> int:
    for _ in range(count):
        cycle: list = []
        cycle.append(cycle)
    return threading.get_ident()


def test_a_worker_making_cycles_never_collects_and_the_gui_thread_does(qtbot, collections):
    assert not gc.isenabled()  # the application's collector (here the fixture's) has taken over
    task = BackgroundTask(lambda context: make_cycles(200_000))
    with qtbot.waitSignal(task.succeeded, timeout=20_000) as done:
        task.start()
    worker = done.args[0]
    assert worker != threading.get_ident()
    assert [thread for thread, _ in collections if thread == worker] == []
    qtbot.waitUntil(lambda: any(thread == threading.get_ident() for thread, _ in collections), timeout=5000)


def test_nothing_is_collected_while_a_bulk_pass_runs_on_another_thread(collections):
    collector = QCoreApplication.instance().findChild(GuiThreadCollector)
    inside, leave = threading.Event(), threading.Event()

    def bulk_pass() -> None:
        with gc_paused():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=bulk_pass)
    thread.start()
    try:
        assert inside.wait(10)
        make_cycles(5 * gc.get_threshold()[0])
        assert collector.tick() is None
        assert collections == []
    finally:
        leave.set()
        thread.join()
    assert not gc.isenabled()  # the pass ended: the GUI's collector still decides
    assert collector.tick() is not None
    assert collections


def test_a_full_collection_waits_for_its_share_of_time(qapp):
    """Each full collection "takes" 2 s on a clock the test moves: the next one waits 2 / share seconds."""
    now = [100.0]

    def full_collection_takes_two_seconds(phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            now[0] += 2.0

    saved = gc.get_threshold()
    collector = GuiThreadCollector(qapp, clock=lambda: now[0])
    gc.callbacks.append(full_collection_takes_two_seconds)
    try:
        gc.set_threshold(1, 1, 1)

        def tick_with_every_generation_due() -> int | None:
            for _ in range(3):
                make_cycles(10)
                gc.collect(0)  # each younger collection counts one up in the next generation
                gc.collect(1)
            make_cycles(10)
            return collector.tick()

        assert tick_with_every_generation_due() == 2
        now[0] += 2.0 / FULL_COLLECTION_SHARE - 1
        assert tick_with_every_generation_due() == 1
        now[0] += 2
        assert tick_with_every_generation_due() == 2
    finally:
        gc.callbacks.remove(full_collection_takes_two_seconds)
        gc.set_threshold(*saved)
        collector.uninstall()
