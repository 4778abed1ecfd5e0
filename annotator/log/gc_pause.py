"""Pausing Python's cycle collector around bulk passes over a large log, and keeping a loaded log out of its walks."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from annotator.log.document import LogDocument

_lock = threading.Lock()
_passes = 0  # bulk passes under way, on any thread
_enabled_before = False  # whether the collector ran on its own when the first of them began


@contextmanager
def gc_paused() -> Iterator[None]:
    """A pass over a 100 MB log makes millions of short-lived objects and no cycles; letting
    the collector walk the loaded log's survivors again and again costs more than the pass.

    Passes may overlap on several threads: the collector is enabled again when the last one ends,
    and only if it was enabled before the first began (the GUI keeps it off, see collection_paused)."""
    global _passes, _enabled_before
    with _lock:
        if _passes == 0:
            _enabled_before = gc.isenabled()
        _passes += 1
        gc.disable()
    try:
        yield
    finally:
        with _lock:
            _passes -= 1
            if _passes == 0 and _enabled_before:
                gc.enable()


@contextmanager
def kept_out_of_collection() -> Iterator[None]:
    """A bulk pass whose results live as long as the open log and hold no cycle (every turn's facts, a long
    session's metrics and timeline rows): the collector is paused while it runs (gc_paused), and once it has
    ended what it made joins the log out of the collector's walks (gc.freeze, undone by hand_over_document when
    the log is replaced). Left young, those results were walked by the GUI thread's next collection, hundreds of
    milliseconds on a big log. A pass ended by an exception, or a generator closed half way, freezes nothing."""
    with gc_paused():
        yield
    gc.freeze()


def collection_paused() -> bool:
    """Whether a bulk pass is under way, on any thread: a collector run by hand (the GUI's) waits."""
    return _passes > 0


# A log of this many turns is released when it is replaced, rather than collected: a collection then would
# walk the log coming in as well (it is not frozen yet), and a big one takes seconds to walk.
RELEASE_TURNS = 1000


def hand_over_document(previous: LogDocument | None, current: LogDocument | None) -> None:
    """Once CURRENT replaced PREVIOUS in the window (either may be None), move every object alive,
    CURRENT's included, out of the cycle collector's sight (gc.freeze), so that no later collection
    walks the objects a loaded log holds; and free PREVIOUS first, or the freeze would keep it.

    PREVIOUS's sessions, turns and facts refer to each other. When either log is big, PREVIOUS is
    released (LogDocument.release: reference counting frees it at once, and its turns are no use
    afterwards); two small logs are collected, a short walk. The freeze is undone first, and with no
    log open nothing stays frozen (the GUI's collector frees what the closed log leaves)."""
    gc.unfreeze()
    if previous is not None and previous is not current:
        if _turns(previous) >= RELEASE_TURNS or (current is not None and _turns(current) >= RELEASE_TURNS):
            previous.release()
        elif current is not None:
            gc.collect()
    if current is not None:
        gc.freeze()


def _turns(document: LogDocument) -> int:
    return sum(len(session.turns) for session in document.sessions)
