"""Benchmark: how long the real window is busy with text of any size, against a short text in the same run.

    python tests/benchmarks/bench_huge_text_window.py [--repeat 5]

The sample log gets a transcription of one 1,000,000-character word on one user turn and a megabyte of
ordinary words (about 150,000) on another. In the offscreen window, each action below is timed from the key
to the end of the layout and paint it asked for (the GUI thread busy, nothing else), the median of REPEAT:

    move onto a short turn (Down in the turn table)        the baseline
    move onto the one-word turn / the megabyte-of-words turn
    a key typed on each of them (the editor shows their start, read-only)
    a key typed on a short turn (the baseline of the keys)
    paste 210,000 characters (refused: past the editor's size) / paste one word just under the editor's size
    a key typed after that paste

Each line prints milliseconds and the ratio to its baseline; the target is 100 ms for every action.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path[:0] = [str(HERE), str(REPO)]

from offscreen_window import isolated_offscreen  # noqa: E402

FOLDER = isolated_offscreen("bench-huge-text-window-")

from PySide6.QtCore import Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from annotator.gui.annotating.transcription_editor import EDITOR_MAX_CHARS  # noqa: E402
from annotator.gui.app import build_window, make_application, parts_of  # noqa: E402
from annotator.log.document import LogDocument  # noqa: E402
from tests.support.planted_logs import plant  # noqa: E402

TARGET_MS = 100.0
ONE_WORD = "x" * 1_000_000
WORDS = ("boston austin denver friday morning please " * 25_000)[:1_000_000]
SAMPLE = REPO / "sample_logs" / "travel-20261121-001" / "travel-20261121-001-hublog.xml"


def busy_ms(app: QApplication, action: Callable[[], None]) -> float:
    """Milliseconds from ACTION's start until the events it posted (layout, paint) are handled."""
    started = time.perf_counter()
    action()
    app.processEvents()
    app.processEvents()
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    log = Path(tempfile.mkdtemp(prefix="huge-", dir=FOLDER)) / SAMPLE.name
    shutil.copy(SAMPLE, log)
    user_ids = [turn.id for turn in LogDocument.load(log).sessions[0].user_turns]
    plant(log, {user_ids[1]: ONE_WORD, user_ids[2]: WORDS})
    app = make_application()
    window = build_window()
    window.resize(1280, 720)
    window.show()
    navigator = parts_of(window).navigator
    assert navigator.open_path(log)
    turns = navigator.session.turns
    short, one_word, words = (navigator.session.turn(turn_id) for turn_id in user_ids[:3])

    def move_onto(turn) -> float:
        navigator.select_row(turn.index - 1)
        navigator.table.setFocus()
        return busy_ms(app, lambda: QTest.keyClick(navigator.table, Qt.Key.Key_Down))

    def key_on(turn) -> float:
        navigator.select_row(turn.index, focus_editor=True)
        app.processEvents()
        return busy_ms(app, lambda: QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A))

    def paste(text: str) -> Callable[[], float]:
        def run() -> float:
            navigator.select_row(short.index, focus_editor=True)
            app.processEvents()
            QApplication.clipboard().setText(text)
            return busy_ms(
                app,
                lambda: QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier),
            )

        return run

    def key_after_paste() -> float:
        paste("y" * (EDITOR_MAX_CHARS - 100))()
        return busy_ms(app, lambda: QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_B))

    def median(measure: Callable[[], float]) -> float:
        values = []
        for _ in range(repeat):
            values.append(measure())
            navigator.editor.text.document().setModified(False)  # the typing is dropped, not stored
            navigator.editor.set_turn(None)
            navigator.select_row(0)
            app.processEvents()
        return statistics.median(values)

    move_base = median(lambda: move_onto(short))
    key_base = median(lambda: key_on(short))
    print(
        f"baselines: move onto a short turn {move_base:.1f} ms; a key on a short turn {key_base:.1f} ms "
        f"(turns {len(turns)}, repeat {repeat})"
    )
    rows = [
        ("move onto a 1,000,000-character word", lambda: move_onto(one_word), move_base),
        ("move onto a megabyte of words", lambda: move_onto(words), move_base),
        ("a key on the 1,000,000-character word", lambda: key_on(one_word), key_base),
        ("a key on the megabyte of words", lambda: key_on(words), key_base),
        ("paste 210,000 characters (refused)", paste("boston " * 30_000), key_base),
        (f"paste one word of {EDITOR_MAX_CHARS - 100:,} characters", paste("y" * (EDITOR_MAX_CHARS - 100)), key_base),
        ("a key after that paste", key_after_paste, key_base),
    ]
    worst = 0.0
    for name, measure, base in rows:
        value = median(measure)
        worst = max(worst, value)
        print(
            f"{name:45s} {value:8.1f} ms  x{value / base:5.1f} its baseline  "
            f"{'ok' if value <= TARGET_MS else 'OVER'} (target {TARGET_MS:.0f} ms)",
            flush=True,
        )
    print(
        f"worst {worst:.1f} ms; width {window.width()} px on a screen of "
        f"{window.screen().availableGeometry().width()} px"
    )
    parts_of(window).controller.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main()
