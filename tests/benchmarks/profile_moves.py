"""Where a selection move on the turn table spends the GUI thread: each event's own CPU time per receiver.

Run on demand: `python tests/benchmarks/profile_moves.py [--turns 2000] [--repeat 30] [--move pgdn|end|enter]
[--cprofile]`. The real main window (offscreen 1366x768) on one long session, as bench_table.py; every event Qt
delivers goes through a QApplication whose `notify` charges its GUI-thread CPU time (`time.thread_time`, without
the events it delivered inside) to (receiver class, event type). Prints the biggest entries per move. With
--cprofile, prints the Python functions instead (cumulative time per move).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

from offscreen_window import isolated_offscreen  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from window_waits import events_until, wait_for_panes, wait_for_validation  # noqa: E402

from annotator.gui.app import parts_of  # noqa: E402
from tests.support.long_session import cached_long_session  # noqa: E402

isolated_offscreen("profile-moves-")


def receiver_name(receiver) -> str:
    """The receiver's class; a plain QWidget (a scroll area's viewport, a graphics view's, a pane's body inside its
    LayoutBoundary) by its parent's."""
    name = type(receiver).__name__
    parent = receiver.parent() if name == "QWidget" else None
    if parent is None:
        return name
    part = "body" if getattr(parent, "body", None) is receiver else "viewport"
    return f"{type(parent).__name__}.{part}"


class TimedApplication(QApplication):
    """Charges each event's own GUI-thread CPU time to its receiver's class and the event's type."""

    def __init__(self, argv):
        super().__init__(argv)
        self.costs: dict[tuple[str, str], float] = defaultdict(float)
        self.counts: dict[tuple[str, str], int] = defaultdict(int)
        self._inner = [0.0]  # per nesting level: the CPU time of the events delivered inside it
        self.trace: list[tuple[int, str, str, float]] | None = None  # (depth, receiver, event, ms) when tracing

    def notify(self, receiver, event) -> bool:
        start = time.thread_time()
        self._inner.append(0.0)
        try:
            return super().notify(receiver, event)
        finally:
            used = time.thread_time() - start
            inner = self._inner.pop()
            self._inner[-1] += used
            key = (receiver_name(receiver), event.type().name)
            self.costs[key] += used - inner
            self.counts[key] += 1
            if self.trace is not None:
                self.trace.append((len(self._inner) - 1, *key, used * 1000))

    def reset(self) -> None:
        self.costs.clear()
        self.counts.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--move", choices=("pgdn", "end", "enter"), default="pgdn")
    parser.add_argument("--cprofile", action="store_true")
    parser.add_argument("--trace", action="store_true", help="print one move's events over 0.2 ms, in order")
    args = parser.parse_args()
    app = TimedApplication(sys.argv[:1])
    from bench_table import settle

    from annotator.gui.app import build_window, make_application

    make_application()
    window = build_window()
    window.resize(1366, 768)
    window.show()
    app.processEvents()
    navigator, table = parts_of(window).navigator, window.table
    assert navigator.open_path(cached_long_session(args.turns))
    events_until(app, lambda: navigator.session is not None)
    wait_for_panes(app, window)
    wait_for_validation(app, window)
    navigator.select_row(0)
    table.setFocus()
    settle(app, window)
    if args.move == "enter":
        parts_of(window).playback.set_loop(False)
        navigator.commit_and_next()
        settle(app, window)

    def move(number: int) -> None:
        if args.move == "pgdn":
            table.setFocus()
            QTest.keyClick(table, Qt.Key.Key_PageDown)
        elif args.move == "end":
            table.setFocus()
            key = Qt.Key.Key_End if number % 2 == 0 else Qt.Key.Key_Home
            QTest.keyClick(table, key, Qt.KeyboardModifier.ControlModifier)
        else:
            editor = parts_of(window).navigator.editor.text
            editor.setFocus()
            QTest.keyClicks(editor, f"to boston {number}")
            settle(app, window)
            app.reset()
            QTest.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        settle(app, window)

    for number in range(3):
        move(number)  # warm caches
    app.reset()
    timeline = parts_of(window).timeline
    scrolled = 0
    for number in range(args.repeat):
        before = timeline.x_range()
        move(number)
        scrolled += timeline.x_range() != before
    print(f"the timeline scrolled at {scrolled} of {args.repeat} moves; it shows {timeline.x_range()}")
    app.reset()
    if args.trace:
        app.trace = []
        move(0)
        for depth, receiver, kind, used in reversed(app.trace):  # an event ends after those it delivered
            if used >= float(os.environ.get("TRACE_MS", "0.2")):
                print(f"{'  ' * depth}{used:6.2f} ms  {receiver} {kind}")
        app.trace = None
        return
    profile = cProfile.Profile() if args.cprofile else None
    cpu = time.thread_time()
    for number in range(args.repeat):
        if profile is not None:
            profile.enable()
        move(number)
        if profile is not None:
            profile.disable()
    total = (time.thread_time() - cpu) * 1000 / args.repeat
    print(f"{args.move}: GUI-thread CPU per move {total:.2f} ms (n={args.repeat})")
    if profile is not None:
        stats = pstats.Stats(profile)
        stats.sort_stats("cumulative").print_stats(45)
    else:
        ranked = sorted(app.costs.items(), key=lambda item: -item[1])[:30]
        for (receiver, kind), cost in ranked:
            count = app.counts[receiver, kind] / args.repeat
            print(f"  {cost * 1000 / args.repeat:6.2f} ms  {count:5.1f}x  {receiver} {kind}")
    parts_of(window).controller.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
