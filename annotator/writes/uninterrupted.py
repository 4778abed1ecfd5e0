"""Steps of a write that a stopping signal must not cut in half.

A command stopped by SIGTERM or SIGHUP unwinds like Ctrl+C (annotator.cli.termination): an exception
raised wherever the main thread is, and every `finally` cleaning up. Raised between making a staging
folder and noting its name, it left the folder behind with nobody to remove it. Such a step runs inside
`uninterrupted()`; a stop arriving meanwhile is raised as soon as the step is over, where the cleanup
knows everything it has to undo.

    with uninterrupted():
        folder = make_it()
        self.folder = folder
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

# What stops a command or the window as Ctrl+C would (`timeout`, systemd, `kill`, a closed terminal, a logout).
STOPPING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

_depth = 0  # the steps running (the main thread's: signal handlers run there)
_pending: list[BaseException] = []


@contextmanager
def uninterrupted() -> Iterator[None]:
    """Run the block whole; a stop raised meanwhile by interrupt_now_or_later comes at its end."""
    global _depth
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0 and _pending:
            stop = _pending.pop()
            _pending.clear()
            raise stop


def interrupt_now_or_later(stop: BaseException) -> None:
    """Raise STOP here, or at the end of the uninterrupted step running (what a signal handler calls)."""
    if _depth:
        _pending.append(stop)
        return
    raise stop
