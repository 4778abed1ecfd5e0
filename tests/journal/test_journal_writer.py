"""The journal's background writer: it writes off the calling thread, a failed write is reported and
tried again until one succeeds, flush() writes at once, and nothing is written after stop().
(The 2 s bound itself is checked against the wall clock on the real window: tests/gui/recovery/test_journal_latency.py.)"""

from __future__ import annotations

import threading

import pytest

from annotator.errors import WriteError
from annotator.journal.writer import BackgroundWriter

PATIENCE = 30  # seconds: a hang guard, not a speed requirement


class Target:
    """Takes a counter as the state and writes it into a list; fails the first FAILURES writes."""

    def __init__(self, failures: int = 0):
        self.state = 0
        self.written: list[tuple[int, str]] = []
        self.reports: list[str | None] = []
        self.failures = failures
        self.reported = threading.Event()

    def take(self) -> int:
        return self.state

    def write(self, state: int) -> None:
        if self.failures:
            self.failures -= 1
            raise WriteError("journals: No space left on device")
        self.written.append((state, threading.current_thread().name))

    def report(self, error: Exception | None) -> None:
        self.reports.append(None if error is None else str(error))
        self.reported.set()

    def wait_for_report(self) -> None:
        assert self.reported.wait(PATIENCE)
        self.reported.clear()


def test_changes_are_written_on_a_thread_of_the_writer():
    target = Target()
    writer = BackgroundWriter(target.take, target.write, target.report, delay=0.01)
    target.state = 1
    writer.changed()
    target.wait_for_report()
    assert target.written == [(1, "recovery-journal-writer")] and target.reports == [None]


def test_a_failed_write_is_reported_and_tried_again_until_it_succeeds():
    target = Target(failures=2)
    writer = BackgroundWriter(target.take, target.write, target.report, delay=0.01)
    target.state = 7
    writer.changed()
    for _ in range(3):
        target.wait_for_report()
    assert target.reports == ["journals: No space left on device"] * 2 + [None]
    assert target.written == [(7, "recovery-journal-writer")]


def test_flush_writes_now_on_the_caller_s_thread_and_raises_what_the_write_raised():
    target = Target(failures=1)
    writer = BackgroundWriter(target.take, target.write, target.report, delay=3600)
    target.state = 3
    with pytest.raises(WriteError):
        writer.flush()
    writer.flush()
    assert target.written == [(3, threading.current_thread().name)]
    writer.stop()


def test_nothing_is_written_after_stop():
    target = Target()
    writer = BackgroundWriter(target.take, target.write, target.report, delay=0.01)
    writer.changed()
    writer.stop()
    writer.changed()
    target.state = 9
    assert not target.reported.wait(0.2)
    assert (9, "recovery-journal-writer") not in target.written


def test_a_write_in_flight_ends_before_paused_returns():
    started, release = threading.Event(), threading.Event()
    target = Target()

    def slow_write(state: int) -> None:
        started.set()
        assert release.wait(PATIENCE)
        target.written.append((state, "slow"))

    writer = BackgroundWriter(target.take, slow_write, target.report, delay=0.0)
    writer.changed()
    assert started.wait(PATIENCE)
    threading.Timer(0.05, release.set).start()
    with writer.paused():
        assert target.written == [(0, "slow")]
    writer.stop()
