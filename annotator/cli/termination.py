"""SIGTERM and SIGHUP stop a command the way Ctrl+C does.

`timeout`, systemd, `kill` and a closed terminal send these; by default they end Python at once, so a
command writing a many-file output left its hidden staging folder behind with megabytes of partial
files. While a command runs, each is raised in the main thread as Terminated, a KeyboardInterrupt:
every `with` block and `finally` that cleans up after Ctrl+C (the staging folder removed, the worker
processes terminated, the Dask client closed) runs, and the command ends with one line and the status
a shell gives a process killed by that signal (143, 129). A second signal during that cleanup is
ignored, so that the cleanup is not cut short, and a step that must not be cut in half (making a
staging folder and noting its name: annotator.writes.uninterrupted) finishes before the stop is raised.
SIGKILL still ends everything, and the next run into the same place removes what it left
(annotator.outputs.stale_staging).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

from annotator.writes.uninterrupted import STOPPING_SIGNALS, interrupt_now_or_later


class Terminated(KeyboardInterrupt):
    """The command received signal NUMBER (SIGTERM, SIGHUP)."""

    def __init__(self, number: int):
        self.number = number
        super().__init__(signal.Signals(number).name)

    @property
    def exit_status(self) -> int:
        return 128 + self.number

    @property
    def message(self) -> str:
        return f"stopped by {signal.Signals(self.number).name}"


def _raise_terminated(number: int, _frame) -> None:
    for each in STOPPING_SIGNALS:
        signal.signal(each, signal.SIG_IGN)
    interrupt_now_or_later(Terminated(number))  # a write step under way finishes first


@contextmanager
def stopped_like_ctrl_c() -> Iterator[None]:
    """Within the block, STOPPING_SIGNALS raise Terminated; the handlers before are restored after it
    (a command run from Python, or from a thread, changes nothing of its caller's)."""
    try:
        previous = {number: signal.signal(number, _raise_terminated) for number in STOPPING_SIGNALS}
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
