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


def collection_paused() -> bool:
    """Whether a bulk pass is under way, on any thread: a collector run by hand (the GUI's) waits."""
    return _passes > 0


def hand_over_document(previous: LogDocument | None, current: LogDocument | None) -> None:
    """Once CURRENT replaced PREVIOUS in the window (either may be None): free PREVIOUS's sessions,
    turns and facts by reference counting (LogDocument.release), and move every object alive now,
    CURRENT's included, out of the cycle collector's sight (gc.freeze), so that no later collection
    walks the millions of objects a loaded log holds. The freeze is undone first: what was frozen
    with PREVIOUS (and did not go with its release) is collected again, and with no log open nothing
    stays frozen."""
    gc.unfreeze()
    if previous is not None and previous is not current:
        previous.release()
    if current is not None:
        gc.freeze()
