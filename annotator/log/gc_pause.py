"""Pausing Python's cycle collector around bulk passes over a large log."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    """A pass over a 100 MB log makes millions of short-lived objects and no cycles; letting
    the collector walk the loaded log's survivors again and again costs more than the pass."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
