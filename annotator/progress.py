"""How a loop over many files reports its progress: the caller passes a wrapper of the items.

progress(items, total=N) yields the same items in the same order, and may show
how far the loop is meanwhile: a bar on a terminal (annotator.cli.progress), a
window's progress bar (annotator.export.formats.progress_from_callback), or
nothing. The loop stays the same whoever watches it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Progress = Callable[..., Iterable]
