"""Sorted interval arrays for the timeline: culling, hit-testing and pixel aggregation.

Plain numpy, no Qt: a lane of 200k operations is a handful of arrays, never
200k objects. Intervals are sorted by start; `reach` (the running maximum of
the ends) is sorted too, so the intervals overlapping any [x0, x1] are one
contiguous slice found with two binary searches, even when a long interval
starts far left of the view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from annotator.log.text import shorten

# Bars at least this many pixels wide are drawn one by one (outlined, labelled);
# narrower ones are merged into pixel-column coverage runs.
DETAIL_MIN_PIXELS = 3.0
# Above this many detailed bars in view, everything is merged (a dense, overlapping lane).
MAX_DETAILED_BARS = 4000
LABEL_CHARS = 200  # wider than any bar a label is drawn in


@dataclass(frozen=True, eq=False)
class Intervals:
    """Intervals sorted by start, each with a payload, a small integer kind and a label.

    Labels are either given (LABELS) or asked of the payload when needed
    (LABEL_OF), so 200k operation names are never read just to build a lane.
    """

    starts: np.ndarray  # float64, sorted
    ends: np.ndarray  # float64, ends >= starts
    reach: np.ndarray  # running maximum of ends (sorted)
    kinds: np.ndarray  # int8, meaning decided by the owner (e.g. 1 = virtual operation); may be restyled in place
    payloads: list  # whatever a hit should return (an lxml element, a turn index, a marker object)
    labels: list[str] | None = None
    label_of: Callable[[object], str] | None = None

    @classmethod
    def build(
        cls,
        starts: Sequence[float] | NDArray[np.float64],
        ends: Sequence[float] | NDArray[np.float64],
        payloads: Sequence[object] = (),
        kinds: Sequence[int] = (),
        labels: Sequence[str] | None = None,
        label_of: Callable[[object], str] | None = None,
    ) -> Intervals:
        starts_array = np.asarray(starts, dtype=np.float64)
        count = len(starts_array)
        ends_array = np.maximum(np.asarray(ends, dtype=np.float64), starts_array) if count else np.empty(0)
        order = np.argsort(starts_array, kind="stable")
        kinds_array = np.asarray(kinds, dtype=np.int8) if len(kinds) else np.zeros(count, dtype=np.int8)
        payload_list = list(payloads) if len(payloads) else [None] * count
        sorted_ends = ends_array[order]
        return cls(
            starts=starts_array[order],
            ends=sorted_ends,
            reach=np.maximum.accumulate(sorted_ends) if count else np.empty(0),
            kinds=kinds_array[order],
            payloads=[payload_list[i] for i in order.tolist()],
            labels=None if labels is None else [labels[i] for i in order.tolist()],
            label_of=label_of,
        )

    @classmethod
    def empty(cls) -> Intervals:
        return cls.build([], [])

    def __len__(self) -> int:
        return len(self.starts)

    def label(self, i: int) -> str:
        """The label of interval I, at most LABEL_CHARS characters (a name in a log can be megabytes)."""
        if self.labels is not None:
            return shorten(self.labels[i], LABEL_CHARS)
        return shorten(self.label_of(self.payloads[i]), LABEL_CHARS) if self.label_of is not None else ""

    def bounds(self) -> tuple[float, float] | None:
        if not len(self):
            return None
        return float(self.starts[0]), float(self.reach[-1])

    def visible(self, x0: float, x1: float) -> tuple[int, int]:
        """The slice [i0, i1) of intervals that overlap [x0, x1]."""
        i0 = int(np.searchsorted(self.reach, x0, side="left"))
        i1 = int(np.searchsorted(self.starts, x1, side="right"))
        return i0, max(i0, i1)

    def hit(self, x: float, tolerance: float) -> int | None:
        """The interval under x: the shortest one containing it, else the nearest within tolerance."""
        i0, i1 = self.visible(x - tolerance, x + tolerance)
        if i0 == i1:
            return None
        starts, ends = self.starts[i0:i1], self.ends[i0:i1]
        distance = np.maximum(np.maximum(starts - x, x - ends), 0.0)
        near = distance <= tolerance
        if not near.any():
            return None
        # Containing intervals (distance 0) win; among them the shortest, as it is the most specific.
        score = np.where(near, distance * 1e6 + (ends - starts), np.inf)
        return i0 + int(np.argmin(score))


@dataclass(frozen=True, eq=False)
class PixelBars:
    """What to paint for a slice of intervals, in device pixels."""

    detail_index: np.ndarray  # indices (into the Intervals) of bars drawn one by one
    detail_left: np.ndarray
    detail_width: np.ndarray
    merged_left: np.ndarray  # runs of covered pixel columns
    merged_width: np.ndarray


def to_pixel_bars(
    intervals: Intervals, i0: int, i1: int, scale: float, offset: float, width: int, mask: np.ndarray | None = None
) -> PixelBars:
    """Map intervals [i0, i1) to pixels (x_px = x * scale + offset) within [0, width).

    Bars narrower than DETAIL_MIN_PIXELS are merged into runs of covered
    pixel columns, so a zoomed-out lane costs O(width) rectangles, not one per bar.
    MASK (bool over [i0, i1)) keeps only some of them (e.g. one colour class).
    """
    starts, ends = intervals.starts[i0:i1], intervals.ends[i0:i1]
    index = None
    if mask is not None:
        index = np.flatnonzero(mask) + i0
        starts, ends = starts[mask], ends[mask]
    left = starts * scale
    left += offset
    right = ends * scale
    right += offset
    np.clip(left, -2.0, width + 2.0, out=left)
    np.clip(right, -2.0, width + 2.0, out=right)
    wide = (right - left) >= DETAIL_MIN_PIXELS
    wide_count = int(np.count_nonzero(wide))
    if wide_count == 0 or wide_count > MAX_DETAILED_BARS:
        runs_left, runs_width = _coverage_runs(left, right, width)
        return PixelBars(_EMPTY_INDEX, _EMPTY, _EMPTY, runs_left, runs_width)
    narrow = ~wide
    runs_left, runs_width = _coverage_runs(left[narrow], right[narrow], width)
    positions = np.flatnonzero(wide)
    detail_index = (positions + i0) if index is None else index[positions]
    detail_left = left[positions]
    return PixelBars(detail_index, detail_left, right[positions] - detail_left, runs_left, runs_width)


_EMPTY = np.empty(0)
_EMPTY_INDEX = np.empty(0, dtype=np.int64)


def _coverage_runs(left: np.ndarray, right: np.ndarray, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Runs of pixel columns touched by at least one bar (each bar covers at least one column)."""
    if not len(left) or width <= 0:
        return _EMPTY, _EMPTY
    first = np.floor(left).astype(np.int32)
    np.clip(first, 0, width - 1, out=first)
    last = np.ceil(right).astype(np.int32)
    np.maximum(last, first + 1, out=last)
    np.minimum(last, width, out=last)
    delta = np.bincount(first, minlength=width + 1)
    delta -= np.bincount(last, minlength=width + 1)
    covered = np.cumsum(delta[:width]) > 0
    edges = np.flatnonzero(np.diff(covered, prepend=False, append=False))
    starts, stops = edges[0::2], edges[1::2]
    return starts.astype(np.float64), (stops - starts).astype(np.float64)


def to_pixel_ticks(
    intervals: Intervals, i0: int, i1: int, scale: float, offset: float, width: int, mask: np.ndarray | None = None
) -> np.ndarray:
    """Distinct pixel columns (centres) of the point intervals [i0, i1): many ticks in one pixel are one line."""
    starts = intervals.starts[i0:i1]
    if mask is not None:
        starts = starts[mask]
    columns = np.floor(starts * scale + offset)
    columns = columns[(columns >= 0) & (columns < width)]
    if len(columns) > width:
        columns = np.unique(columns)
    return columns + 0.5
