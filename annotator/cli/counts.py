"""Options that take a count: a whole number from 0, refused in argparse's own words otherwise."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def count_of(what: str) -> Callable[[str], int]:
    """An argparse type for a number of WHAT (e.g. "hits") from 0."""

    def count(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = -1
        if value < 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {what} from 0")
        return value

    return count
