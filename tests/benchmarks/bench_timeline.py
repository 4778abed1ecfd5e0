"""Timeline redraw after a zoom, on one session of 200k operations (run on demand).

    python tests/benchmarks/bench_timeline.py [--operations 200000] [--repeats 60]

The session is the core benchmark's big log (tests/support/big_log.py)
folded into ONE GC_SESSION: its sessions' turns laid end to end (times shifted
so no gaps remain), until the wanted number of operations is reached. The
widget is shown offscreen at 1600x400; each sample sets an x range (from the
whole session down to a few seconds, at seeded random places) and times a
synchronous repaint. The baseline is the same redraw with no session loaded,
so the figure that counts is the difference. Target: median <= 16 ms.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

from lxml import etree

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from PySide6.QtCore import QEvent, QObject  # noqa: E402

from tests.support.big_log import CACHE, cached_big_log  # noqa: E402

TARGET_MS = 16.0
_TIME_ATTRIBUTES = ("stime", "etime", "time")


def one_session_log(operations: int) -> Path:
    """A log of one session holding OPERATIONS operations, made once from the big log and cached."""
    source_path = cached_big_log(100)
    path = CACHE / f"timeline-{operations}-ops-from-{source_path.stem}.xml"
    if path.exists():
        return path
    source = etree.parse(str(source_path), etree.XMLParser(huge_tree=True))
    root = etree.Element("GC_LOG", {"logfile_version": "11"})
    merged = etree.SubElement(root, "GC_SESSION", {"id": f"timeline-benchmark-{operations}"})
    clock = None
    count = 0
    for session in source.getroot().iterchildren("GC_SESSION"):
        start, end = float(session.get("stime")), float(session.get("etime"))
        shift = 0.0 if clock is None else clock - start
        clock = end + shift + 1.0
        for turn in session.iterchildren("GC_TURN"):
            for el in turn.iter():
                for name in _TIME_ATTRIBUTES:
                    value = el.get(name)
                    if value is not None:
                        el.set(name, f"{float(value) + shift:.3f}")
            merged.append(turn)
            count += sum(1 for _ in turn.iter("GC_OPERATION"))
        if count >= operations:
            break
    first = merged[0]
    merged.set("stime", first.get("stime"))
    merged.set("etime", f"{clock:.3f}")
    etree.ElementTree(root).write(str(path), encoding="UTF-8", xml_declaration=True)
    return path


def zoom_ranges(extent: float, repeats: int, seed: int = 11) -> list[tuple[float, float]]:
    """Seeded x ranges from the whole session down to 2 s, evenly spread over zoom levels (log scale)."""
    rng = random.Random(seed)
    ranges = []
    for i in range(repeats):
        span = extent * (2.0 / extent) ** (i / max(repeats - 1, 1)) if extent > 2 else extent
        left = rng.uniform(0, max(extent - span, 0.0))
        ranges.append((left, left + span))
    rng.shuffle(ranges)
    return ranges


class PaintCounter(QObject):
    """Counts the paint events of a widget, to check each sample painted exactly once."""

    def __init__(self, widget):
        super().__init__(widget)
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def time_redraws(view, app, ranges: list[tuple[float, float]]) -> list[float]:
    """Milliseconds from setting an x range to the end of the repaint it causes.

    The range change is handled and painted the way the event loop does it
    after a wheel zoom: pyqtgraph updates its transforms, the scene collects
    the dirty region, and one paint of the plot follows (counted, so a sample
    that painted nothing or twice is noticed).
    """
    samples = []
    viewport = view.plot.viewport()
    counter = PaintCounter(viewport)
    app.processEvents()
    for left, right in ranges:
        before = counter.count
        start = time.perf_counter()
        view.view_box.setXRange(left, right, padding=0)
        app.processEvents()
        if counter.count == before:  # nothing scheduled: force it
            viewport.repaint()
        samples.append((time.perf_counter() - start) * 1000)
        if counter.count - before != 1:
            raise RuntimeError(f"expected one paint per sample, got {counter.count - before}")
    counter.deleteLater()
    return samples


def time_cursor_moves(view, app, positions: list[float]) -> list[float]:
    """Milliseconds to move the playback cursor and repaint (the lanes reuse their pixel layout)."""
    view.fit()
    app.processEvents()
    samples = []
    for seconds in positions:
        start = time.perf_counter()
        view.set_cursor(seconds)
        app.processEvents()
        samples.append((time.perf_counter() - start) * 1000)
    view.set_cursor(None)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--operations", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=60)
    args = parser.parse_args()

    from PySide6.QtWidgets import QApplication

    from annotator.gui.timeline.view import TimelineView
    from annotator.log.document import LogDocument

    path = one_session_log(args.operations)
    app = QApplication.instance() or QApplication([])
    started = time.perf_counter()
    document = LogDocument.load(path)
    load_s = time.perf_counter() - started
    session = document.sessions[0]

    view = TimelineView()
    view.resize(1600, 400)
    view.show()
    app.processEvents()
    started = time.perf_counter()
    view.set_session(session)
    view.repaint()
    app.processEvents()
    first_paint_s = time.perf_counter() - started
    operations = sum(len(lane.bars) for lane in view.timeline.lanes if lane.name != "audio segments")
    extent = view.timeline.extent
    ranges = zoom_ranges(extent, args.repeats)
    time_redraws(view, app, ranges[:5])  # warm up
    loaded = time_redraws(view, app, ranges)
    whole = view.full_range()
    fit_view = time_redraws(view, app, [ranges[0], whole] * 9)[1::2]

    cursor = time_cursor_moves(view, app, [extent * i / 40 for i in range(1, 40)])

    view.set_session(None)
    view.view_box.setLimits(xMin=None, xMax=None, minXRange=None, maxXRange=None)  # let the ranges apply
    time_redraws(view, app, ranges[:5])
    baseline = time_redraws(view, app, ranges)

    median_loaded, median_baseline = statistics.median(loaded), statistics.median(baseline)
    print(f"log: {path.name}, {len(session.turns)} turns, {operations} operations, {extent:.0f} s")
    print(f"load {load_s:.2f} s; set_session + first paint {first_paint_s:.2f} s")
    print(f"redraw after zoom, {len(ranges)} ranges from the whole session to 2 s, widget 1600x400:")
    print(f"  with the session: median {median_loaded:.2f} ms (p90 {_p90(loaded):.2f} ms, max {max(loaded):.2f} ms)")
    print(f"  whole session in view: median {statistics.median(fit_view):.2f} ms")
    print(f"  baseline, empty timeline: median {median_baseline:.2f} ms")
    print(
        f"playback cursor step with the whole session in view: median {statistics.median(cursor):.2f} ms, "
        f"max {max(cursor):.2f} ms"
    )
    verdict = "OK" if median_loaded <= TARGET_MS else "OVER TARGET"
    print(
        f"median redraw {median_loaded:.2f} ms (baseline {median_baseline:.2f} ms, "
        f"timeline's own share {median_loaded - median_baseline:.2f} ms); target <= {TARGET_MS:.0f} ms: {verdict}"
    )


def _p90(samples: list[float]) -> float:
    return sorted(samples)[int(0.9 * (len(samples) - 1))]


if __name__ == "__main__":
    main()
