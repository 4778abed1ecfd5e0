"""GUI benchmark: a 2,000-log corpus opened into the session browser of the real window.

    python tests/benchmarks/bench_browser.py                 # 2,000 logs of about 100 kB, 2 sessions each
    python tests/benchmarks/bench_browser.py --files 200 --kb 50

The corpus is made once under tests/benchmarks/.cache/ from big_log.make_big_log (one log written,
then copied with its session ids made unique per file) plus one unreadable log. The window
(annotator.gui.app.build_window, offscreen unless QT_QPA_PLATFORM says otherwise) opens the folder
as the annotator does (File > Open on a folder: navigator.open_path), and the run prints:
  first rows shown: from open_path until the Sessions table has painted rows      target < 1 s
  whole list:       until the scan finished (every file's rows listed)            for information
  GUI-thread stall: the longest gap between ticks of a 10 ms QTimer while filling, from the
                    call of open_path (which also opens the corpus's first log)                  target <= 100 ms;
                    split into the gaps that began before the opened log's turns were painted (the
                    opening's hand-over and first paint, with the scan starting beside it) and those after
                    (the list filling)
  while filling, sorting by Findings and typing a filter: the longest gap then     target <= 100 ms
Each stall is split by what the GUI thread did meanwhile (Linux's per-thread schedstat): ran (its own
work), waited for a core (the machine is busy), or neither, asleep: a wait for the GIL when the process's
other threads ran Python meanwhile (their CPU time is printed too), else for the disk or a lock.
With --stacks, a thread samples the GUI thread's stack whenever the timer is 40 ms late and prints
the most frequent ones, and where the other threads were: where a stall comes from.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

from offscreen_window import isolated_offscreen  # noqa: E402
from PySide6.QtCore import QElapsedTimer, QEvent, QEventLoop, QObject, Qt, QTimer  # noqa: E402

from tests.support.big_log import CACHE, make_big_log  # noqa: E402

_TEMP = isolated_offscreen("bench-browser-")

from annotator.gui.app import build_window, make_application, parts_of  # noqa: E402
from annotator.gui.corpus.session_list import Column  # noqa: E402

CORPUS_VERSION = 1  # bump when the corpus changes, so that a stale cached one is not used
SESSION_NUMBER = re.compile(rb'(<GC_SESSION id="129\.10\.2\.200:1010:)(\d+)(")')
UNREADABLE = b"<?xml version='1.0'?>\n<GC_LOG>\n  <GC_SESSION id='x'>\n</GC_LOG>\n"
STALL_TARGET_MS = 100


def cached_corpus(files: int, kb: int) -> Path:
    """FILES logs of about KB kilobytes in folders of 100 (as corpora are kept), plus one unreadable log."""
    folder = CACHE / f"corpus-v{CORPUS_VERSION}-{files}x{kb}kb"
    done = folder / ".complete"
    if done.exists():
        return folder
    template = make_big_log(_TEMP / "template.xml", kb / 1000).read_bytes()
    for number in range(files):
        target = folder / f"day{number // 100:03d}" / f"travel-{number:05d}-hublog.xml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(
            SESSION_NUMBER.sub(lambda m, n=number: m[1] + f"{n:05d}.{m[2].decode()}".encode() + m[3], template)
        )
    # Named to come last: the window opens a corpus's first log, and an unreadable one would ask about it.
    (folder / f"day{(files - 1) // 100:03d}" / "unreadable-hublog.xml").write_bytes(UNREADABLE)
    done.touch()
    return folder


class PaintedAt(QObject):
    """Notes when WIDGET first paints while CONDITION() holds (without ending any loop)."""

    def __init__(self, widget, condition):
        super().__init__(widget)
        self.at: float | None = None
        self.condition = condition
        widget.installEventFilter(self)

    def eventFilter(self, watched, event):
        if self.at is None and event.type() == QEvent.Type.Paint and self.condition():
            self.at = time.perf_counter()
        return False


class Painted(QObject):
    """Notes when WIDGET has painted while CONDITION() holds, and ends LOOP then."""

    def __init__(self, widget, condition, loop: QEventLoop):
        super().__init__(widget)
        self.at: float | None = None
        self.condition, self.loop = condition, loop
        widget.installEventFilter(self)

    def eventFilter(self, watched, event):
        if self.at is None and event.type() == QEvent.Type.Paint and self.condition():
            self.at = time.perf_counter()
            self.loop.quit()
        return False


def run_until(loop: QEventLoop, done) -> None:
    """Run the event loop as the application does (sleeping when idle, unlike a processEvents spin,
    which would compete with the scan for the GIL) until DONE() holds."""
    if not done():
        loop.exec()


class StallStacks:
    """A thread that samples the GUI thread's stack while TICKS' timer is more than LATE_MS late;
    report() prints the samples of the longest stalls, the innermost frames last."""

    LATE_MS = 40

    def __init__(self, ticks: Ticks):
        self.ticks = ticks
        self.stalls: dict[int, list[str]] = {}  # by the tick the stall followed
        self.gui_thread = threading.main_thread().ident
        self.running = True
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self) -> None:
        while self.running:
            time.sleep(0.005)
            last = self.ticks.last
            if self.ticks.timer.isActive() and self.ticks.clock.elapsed() - last > self.LATE_MS:
                frames = sys._current_frames()
                frame = frames.get(self.gui_thread)
                if frame is not None:
                    # Where the other threads running Python were (one of them holds the GIL, when the GUI
                    # thread waits for it): their innermost lines.
                    others = [
                        f"  thread {ident}: " + "".join(traceback.format_stack(other)[-2:]).strip()
                        for ident, other in frames.items()
                        if ident not in (self.gui_thread, threading.get_ident())
                    ]
                    self.stalls.setdefault(last, []).append(
                        "".join(traceback.format_stack(frame)[-6:]) + "\n".join(others)
                    )

    def report(self, stalls: int = 3) -> None:
        self.running = False
        longest = sorted(self.stalls, key=lambda last: len(self.stalls[last]), reverse=True)[:stalls]
        for last in longest:
            print(f"=== a stall of about {len(self.stalls[last]) * 5 + self.LATE_MS} ms at {last} ms:")
            for stack, count in Counter(self.stalls[last]).most_common(4):
                print(f"--- {count} samples:\n{stack}")


def thread_times() -> tuple[float, float, float]:
    """(ms this thread ran, ms it waited for a core, ms the whole process ran) so far; the first two 0 where
    the system keeps no schedstat."""
    try:
        with open("/proc/thread-self/schedstat") as stat:
            ran, waited = (int(field) / 1e6 for field in stat.read().split()[:2])
    except (OSError, ValueError):
        ran = waited = 0.0
    return ran, waited, time.process_time() * 1000


class Ticks:
    """A 10 ms timer on the GUI thread: the longest gap between its ticks is the longest stall."""

    def __init__(self):
        self.clock = QElapsedTimer()
        self.clock.start()
        self.last = 0
        self.gaps: list[int] = []
        self.ends: list[int] = []  # the clock at the end of each gap
        # For each gap: ms the GUI thread ran, ms it waited for a core, ms the process's other threads ran.
        self.spent: list[tuple[float, float, float]] = []
        self._times = thread_times()
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(10)
        self.timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.gaps.clear()
        self.ends.clear()
        self.spent.clear()
        self.last = self.clock.elapsed()
        self._times = thread_times()
        self.timer.start()

    def stop(self) -> int:
        self.timer.stop()
        self._tick()
        return max(self.gaps, default=0)

    def longest(self, began_before: float | None, before: bool) -> tuple[int, str]:
        """The longest gap that began before the clock's BEGAN_BEFORE seconds (BEFORE), or at or after it,
        and what the threads did meanwhile (see spent)."""
        limit = None if began_before is None else began_before * 1000
        chosen = [
            index
            for index, (gap, end) in enumerate(zip(self.gaps, self.ends))
            if (not before if limit is None else ((end - gap) < limit) == before)
        ]
        if not chosen:
            return 0, ""
        index = max(chosen, key=lambda index: self.gaps[index])
        return self.gaps[index], self.spent_in(index)

    def worst(self) -> tuple[float, str]:
        """Seconds on the clock when the longest gap ended (the clock starts with the window's opening), and
        what the threads did meanwhile."""
        if not self.gaps:
            return 0.0, ""
        index = self.gaps.index(max(self.gaps))
        return self.ends[index] / 1000, self.spent_in(index)

    def spent_in(self, index: int) -> str:
        """What the GUI thread did during gap INDEX, and how long the process's other threads ran."""
        ran, waited, others = self.spent[index]
        slept = max(0.0, self.gaps[index] - ran - waited)
        return (
            f"the GUI thread ran {ran:.0f} ms, waited for a core {waited:.0f} ms, slept {slept:.0f} ms; "
            f"the process's other threads ran {others:.0f} ms"
        )

    def _tick(self) -> None:
        now = self.clock.elapsed()
        times = thread_times()
        ran, waited, process = (after - before for after, before in zip(times, self._times))
        self.gaps.append(now - self.last)
        self.ends.append(now)
        self.spent.append((ran, waited, max(0.0, process - ran)))
        self.last, self._times = now, times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--kb", type=int, default=100)
    parser.add_argument("--stacks", action="store_true", help="print where the GUI thread was while late")
    args = parser.parse_args()
    folder = cached_corpus(args.files, args.kb)
    logs = sorted(folder.rglob("*.xml"))
    print(
        f"corpus: {folder} ({len(logs)} logs, {sum(p.stat().st_size for p in logs) / 1e6:.0f} MB), "
        f"{os.cpu_count()} CPUs",
        flush=True,
    )

    app = make_application()
    window = build_window()
    window.resize(1280, 720)
    window.show()
    app.processEvents()
    browser = parts_of(window).browser
    table = browser.table
    loop = QEventLoop()
    first = Painted(table.viewport(), lambda: browser.proxy.rowCount() > 0, loop)
    finished: list[float] = []
    browser.scan_finished.connect(lambda _whole: (finished.append(time.perf_counter()), loop.quit()))
    half_way = args.files // 2
    browser.progress_bar.valueChanged.connect(lambda value: loop.quit() if value >= half_way else None)
    ticks = Ticks()
    stacks = StallStacks(ticks) if args.stacks else None
    log_painted = PaintedAt(
        parts_of(window).navigator.table.viewport(), lambda: parts_of(window).controller.document is not None
    )

    # The ticks run from before open_path: it shows the first log (its hand-over's passes and first paint run in
    # its event loop) beside the scan starting, and that is the opening the stall counts.
    ticks.start()
    start = time.perf_counter()
    clock_start = start - ticks.clock.elapsed() / 1000  # perf_counter when the ticks' clock read 0
    parts_of(window).navigator.open_path(folder)  # announces the corpus (the scan starts), then opens its first log
    opened_s = time.perf_counter() - start
    run_until(loop, lambda: first.at is not None)
    first_s = first.at - start
    print(
        f"first rows shown: {first_s:.3f} s (target < 1 s) {'PASS' if first_s < 1 else 'MISS'}; of which "
        f"the window opening the corpus's first log on the GUI thread (open_path): {opened_s:.3f} s",
        flush=True,
    )

    # Half way through, the annotator sorts by findings and types a filter: the rows still arrive.
    run_until(loop, lambda: browser.progress_bar.value() >= half_way or finished)
    quiet_stall = ticks.stop()
    quiet_at, quiet_spent = ticks.worst()
    shown = None if log_painted.at is None else log_painted.at - clock_start
    (opening_part, opening_spent), (filling_part, filling_spent) = (
        ticks.longest(shown, before=True),
        ticks.longest(shown, before=False),
    )
    ticks.start()
    table.horizontalHeader().setSortIndicator(Column.FINDINGS, Qt.SortOrder.AscendingOrder)
    for n in range(1, len("untranscribed") + 1):
        browser.filter_edit.setText("untranscribed"[:n])
        app.processEvents()
    browser.progress_bar.valueChanged.disconnect()
    run_until(loop, lambda: bool(finished))
    busy_stall = ticks.stop()
    busy_at, busy_spent = ticks.worst()
    whole_s = finished[0] - start
    rows, files = browser.model.rowCount(), len({s.file for s in browser.model.summaries})
    print(f"whole list: {whole_s:.1f} s ({rows} rows from {files} files, {browser.count_label.text()!r})")
    for name, stall, at, spent in (
        ("while filling", quiet_stall, quiet_at, quiet_spent),
        ("while filling, sorting and filtering", busy_stall, busy_at, busy_spent),
    ):
        print(
            f"GUI-thread stall {name}: longest 10 ms timer gap {stall} ms (target <= {STALL_TARGET_MS} ms) "
            f"{'PASS' if stall <= STALL_TARGET_MS else 'MISS'}, ending {at:.2f} s after the open; "
            f"meanwhile {spent}",
            flush=True,
        )
    print(
        f"  of which: gaps that began before the opened log's turns were painted "
        f"({'never' if shown is None else f'{log_painted.at - start:.2f} s after the open'}): longest "
        f"{opening_part} ms ({opening_spent})",
        flush=True,
    )
    print(
        f"  and after, the list filling alone: longest {filling_part} ms "
        f"{'PASS' if filling_part <= STALL_TARGET_MS else 'MISS'} ({filling_spent})",
        flush=True,
    )
    if stacks is not None:
        stacks.report()
    parts_of(window).controller.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
