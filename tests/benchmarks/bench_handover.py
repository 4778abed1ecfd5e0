"""GUI benchmark: where the GUI thread's time goes from the opening worker's hand-over to the turn table's first paint.

Run on demand: `python tests/benchmarks/bench_handover.py [--mb 100] [--shape many|one] [--log PATH] [STEP ...]`
(--log: that log instead, e.g. a 70k-turn session). Prints the
GUI thread's CPU time and the wall time of each STEP (module.Class.method; a default list of the hand-over's
steps), and, per event type and receiver class, the CPU time Qt spent delivering the paints, layouts,
timers and queued calls (a QApplication.notify timer); then the longest gap between 10 ms timer ticks.
CPU time near the wall time: the GUI's own work; far below it: a wait for the GIL or for a core.
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parents[1])]

import bench_gui  # noqa: E402  (sets the offscreen platform, ALSA and isolated settings first)
from PySide6.QtCore import QEvent  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402
from window_waits import wait_for_validation  # noqa: E402

from annotator.gui.app import parts_of  # noqa: E402
from annotator.gui.opening import opener as opening  # noqa: E402

STEPS = [
    "annotator.gui.opening.document_controller.DocumentController._show_document",
    "annotator.gui.annotating.navigation.Navigator.show_document",
    "annotator.gui.annotating.session_bar.SessionBar.set_sessions",
    "annotator.gui.annotating.navigation.Navigator.show_session",
    "annotator.gui.annotating.turn_table.TurnTableModel.set_session",
    "annotator.gui.annotating.navigation.Navigator.select_row",
    "annotator.gui.panes.following.PanesFollowing._show_session",
    "annotator.gui.panes.following.PanesFollowing._show_turn",
    "annotator.gui.listening.playback.Playback.show_turn",
    "annotator.gui.panes.detail_panel.DetailPanel.show_turn",
    "annotator.gui.recovery.watcher.RecoveryWatcher._opened",
    "annotator.gui.panes.validation.Validation._document_opened",
]
TIMED_EVENTS = {
    QEvent.Type.Paint,
    QEvent.Type.UpdateRequest,
    QEvent.Type.LayoutRequest,
    QEvent.Type.Timer,
    QEvent.Type.MetaCall,
}


class _State:
    measuring = False
    steps: list[tuple[str, float, float]] = []  # (step, GUI-thread CPU ms, wall ms), in the order they ended
    events: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0])  # "type receiver": [count, CPU s]


class TimedApplication(QApplication):
    def notify(self, receiver, event):
        if not _State.measuring or event.type() not in TIMED_EVENTS:
            return super().notify(receiver, event)
        start = time.thread_time()
        try:
            return super().notify(receiver, event)
        finally:
            kept = _State.events[f"{event.type().name} {type(receiver).__name__}"]
            kept[0] += 1
            kept[1] += time.thread_time() - start


def timed(step: str) -> None:
    module, owner, name = step.rsplit(".", 2)
    cls = getattr(importlib.import_module(module), owner)
    original = getattr(cls, name)

    @functools.wraps(original)
    def measured(*args, **kwargs):
        if not _State.measuring:
            return original(*args, **kwargs)
        cpu, wall = time.thread_time(), time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            _State.steps.append(
                (f"{owner}.{name}", (time.thread_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000)
            )

    setattr(cls, name, measured)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=100)
    parser.add_argument("--shape", default="many", choices=sorted(bench_gui.SHAPES))
    parser.add_argument("--log", type=Path, help="open this log instead of the generated one")
    parser.add_argument("steps", nargs="*", default=STEPS, help="module.Class.method to time")
    args = parser.parse_args()
    TimedApplication(sys.argv[:1])  # before build_window connects its signals: the wrapped methods are connected
    for step in args.steps:
        timed(step)
    app = bench_gui.make_application()
    window = bench_gui.build_window()
    window.show()
    app.processEvents()
    path = args.log or bench_gui.cached_big_log(args.mb, bench_gui.SHAPES[args.shape])
    bench_gui.bare_parse(path)  # as bench_gui does before it opens: the same memory state
    load, handed = opening.LogOpener.load, {}

    def load_then_measure(self, *load_args, **load_kwargs):
        document = load(self, *load_args, **load_kwargs)
        handed["wall"], handed["cpu"] = time.perf_counter(), time.thread_time()
        _State.measuring = True
        return document

    opening.LogOpener.load = load_then_measure
    painted = bench_gui.Painted(window.table.viewport())
    with bench_gui.GapWatch(bench_gui.STALL_TICK_MS) as watch:
        parts_of(window).navigator.open_path(path)
        returned = time.perf_counter()
        painted.seen = False
        window.table.viewport().update()
        while not painted.seen:
            app.processEvents()
    _State.measuring = False
    print(
        f"{path.name}: hand-over to open_path's return {(returned - handed['wall']) * 1000:.0f} ms; to the paint "
        f"{(time.perf_counter() - handed['wall']) * 1000:.0f} ms wall, GUI-thread CPU "
        f"{(time.thread_time() - handed['cpu']) * 1000:.0f} ms; longest timer gap {watch.longest_ms():.0f} ms"
    )
    handed_ms = watch.now() - (time.perf_counter() - handed["wall"]) * 1000
    print(
        "  timer gaps from the hand-over on (ms): "
        + " ".join(f"{gap:.0f}" for end, gap in watch.gaps if end >= handed_ms and gap > bench_gui.STALL_TICK_MS * 1.5)
    )
    for step, cpu, wall in _State.steps:
        print(f"  {step:55s} CPU {cpu:6.1f} ms  wall {wall:6.1f} ms")
    for name, (count, cpu) in sorted(_State.events.items(), key=lambda item: -item[1][1])[:12]:
        print(f"  {name:55s} CPU {cpu * 1000:6.1f} ms  ({count} events)")
    wait_for_validation(app, window)


if __name__ == "__main__":
    main()
