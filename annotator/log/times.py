"""Time values of a log: parsing, and the per-file unit.

The standard says times are milliseconds since the epoch, but its own
examples (and MIT's logs) write seconds with decimals. The unit is decided
once per file from the session start times: epoch seconds are near 1e9 and
epoch milliseconds near 1e12, so anything above 1e11 (the year 5138 in
seconds) is read as milliseconds. Small relative times are read as seconds.
Everything the library exposes is in seconds.

A time is the standard's decimal numeral: an optional sign, ASCII digits and
an optional decimal point with more digits ("941473394.66"), with XML
whitespace around it dropped. float() reads more: "1_000", "1e3", "nan",
"inf" and non-ASCII digits such as "٣"; those are not times here
(docs/numbers-and-ids.md).
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:  # the timeline converts whole arrays of times
    import numpy as np
    from numpy.typing import NDArray

MILLISECONDS_THRESHOLD = 1e11


class TimeUnit(Enum):
    SECONDS = 1
    MILLISECONDS = 1000

    @overload
    def to_seconds(self, value: float) -> float: ...
    @overload
    def to_seconds(self, value: NDArray[np.float64]) -> NDArray[np.float64]: ...
    def to_seconds(self, value: float | NDArray[np.float64]) -> float | NDArray[np.float64]:
        # Division, not multiplication by 0.001, keeps exact integers exact.
        return value / self.value if self is TimeUnit.MILLISECONDS else value


# What a decimal numeral is made of. float() accepting a text made only of these means the
# text is a plain decimal numeral (with whitespace around it at most): no "_", "e", "nan",
# "inf" or non-ASCII digit gets through. str.strip with these is the fastest test there is.
NUMERAL_CHARACTERS = "0123456789.+- \t\r\n"


def parse_number(text: str | None) -> float | None:
    """The time in an attribute, or None when absent or not a finite decimal numeral."""
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    if text.strip(NUMERAL_CHARACTERS) or value - value != 0.0:  # not only a numeral, or too long to be finite
        return None
    return value


def detect_unit(raw_values: list[str | None]) -> TimeUnit:
    numbers = [abs(v) for v in map(parse_number, raw_values) if v is not None]
    if not numbers:
        return TimeUnit.SECONDS
    numbers.sort()
    median = numbers[len(numbers) // 2]
    return TimeUnit.MILLISECONDS if median > MILLISECONDS_THRESHOLD else TimeUnit.SECONDS
