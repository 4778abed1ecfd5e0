"""Progress over many files: a bar on a terminal, silence otherwise (tqdm decides)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")


def progress(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    from tqdm import tqdm

    # disable=None: tqdm shows the bar only when stderr is a terminal.
    yield from tqdm(items, desc=description, total=total, unit="file", disable=None, file=sys.stderr, leave=False)
