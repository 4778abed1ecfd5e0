"""The window over a grid of states on the screen it opens on; tests/gui/appearance/test_layout.py runs this file once
per screen size (1280x720, 1366x768, 1920x1080) in an interpreter whose offscreen screen has that size.

A state is the docks shown (as built, every one, none, the bottom strip only), Compare open or not, the zoom,
the n-best list of the selected turn (none, three alternatives, fifteen long ones) and the concepts editor
open. One window goes through every state of the grid (a state costs a layout, not a window), and each is
checked: the turn table keeps its rows (zoom.rows_kept), the window and its docks stay on the screen, and at
100-150 % no label shows less than its text. The smallest screen goes through every state, the others
through a cross-section.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtGui import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QPushButton
from pytestqt.exceptions import TimeoutError

from annotator.gui.app import parts_of
from annotator.gui.appearance.zoom import rows_kept
from annotator.gui.main_window import MainWindow
from tests.support.compare_logs import make_team_log
from tests.support.gui_keys import close_window
from tests.support.label_checks import cut_labels, shown

ZOOMS = (50, 100, 150, 200, 300)
DOCKS = ("built", "all", "none", "bottom")
NBEST = {"none": "1", "three": "4", "long": "2"}  # the turn selected for each length of list
LONG_LIST_TURN = "2"
LABELS_READ_AT = (100, 125, 150)  # zooms at which every label is checked whole


def team_log_with_a_long_list(folder: Path) -> Path:
    """The Compare log (two annotators' files beside it) with turn 2's n-best list made fifteen long alternatives."""
    log = make_team_log(folder)
    text = log.read_text(encoding="utf-8")
    start = text.index('<GC_LIST name=":nbest_list">', text.index('<GC_TURN etime="1795269608.663" id="2"'))
    end = text.index("</GC_LIST>", start)
    words = "i would like to fly from boston massachusetts to denver colorado next tuesday morning please"
    alternatives = "".join(
        f'<GC_DATA dtype="string" key=":nbest_list[{rank}]" type="text_input_hypothesis" '
        f'score="-{120.5 + rank * 7.25:g}">{words} {rank}</GC_DATA>'
        for rank in range(15)
    )
    log.write_text(text[:start] + '<GC_LIST name=":nbest_list">' + alternatives + text[end:], encoding="utf-8")
    return log


def available() -> QRect:
    return QApplication.primaryScreen().availableGeometry()


def rows_in_view(window: MainWindow) -> float:
    table = window.table
    return table.viewport().height() / table.verticalHeader().defaultSectionSize()


def off_screen(window: MainWindow) -> list[str]:
    screen = available()
    found = [] if screen.contains(window.frameGeometry()) else [f"window {window.frameGeometry()}"]
    for dock in window.findChildren(QDockWidget):
        place = QRect(dock.mapToGlobal(dock.rect().topLeft()), dock.size())
        if shown(dock) and not screen.contains(place):
            found.append(f"{dock.objectName()} at {place}")
    return found


def set_docks(window: MainWindow, which: str) -> None:
    docks = [d for d in window.findChildren(QDockWidget) if d.objectName() != "compare_dock"]
    bottom = {"timeline_dock", "waveform_dock", "search_results_dock"}
    for dock in docks:
        if which == "all" or (which == "bottom" and dock.objectName() in bottom):
            dock.show()
        elif which in ("none", "bottom"):
            dock.hide()


def set_state(qtbot, window: MainWindow, docks: str, compare: bool, zoom: int, nbest: str, concepts: bool) -> None:
    set_docks(window, docks)
    if compare and not parts_of(window).compare.dock.isVisible():
        assert parts_of(window).compare.show_compare()
    elif not compare:
        parts_of(window).compare.dock.hide()
    parts_of(window).appearance.zoom.set_zoom(zoom)
    turn = next(t for t in parts_of(window).navigator.session.turns if t.id == NBEST[nbest])
    parts_of(window).navigator.select_row(turn.index)
    if concepts:
        window.action_table.edit_concepts.trigger()
    try:  # a pane's least size may grow the window past the screen for a moment: it is fitted back at once
        qtbot.waitUntil(lambda: available().contains(window.frameGeometry()), timeout=300)
    except TimeoutError:
        pass  # named by the checks
    QApplication.processEvents()


def walk(qtbot, make_window, folder: Path, states) -> None:
    """Every state of STATES in one window; every state that breaks a rule is named at the end."""
    window = make_window(team_log_with_a_long_list(folder))
    qtbot.waitUntil(lambda: available().contains(window.frameGeometry()), timeout=2000)
    broken = []
    for docks, compare, zoom, nbest, concepts in states:
        set_state(qtbot, window, docks, compare, zoom, nbest, concepts)
        name = f"docks {docks}, compare {compare}, {zoom} %, n-best {nbest}, concepts {concepts}"
        rows = rows_in_view(window)
        if rows < rows_kept(zoom):
            broken.append(f"{name}: {rows:.1f} rows of the turn table")
        if not available().contains(window.frameGeometry()):
            broken.append(
                f"{name}: the window needs {window.minimumSizeHint()}: "
                + ", ".join(
                    f"{d.objectName()} {d.minimumSizeHint().height()}"
                    for d in window.findChildren(QDockWidget)
                    if shown(d)
                )
            )
        broken += [f"{name}: {place} off the screen" for place in off_screen(window)]
        if zoom in LABELS_READ_AT:
            broken += [f"{name}: {cut}" for cut in cut_labels(window)]
        if concepts:
            window.action_table.leave_concepts.trigger()
    parts_of(window).appearance.zoom.set_zoom(100)
    close_window(window)
    assert not broken, "\n".join(broken)


def smallest_screen() -> bool:
    return available().width() < 1366


def test_the_turn_table_keeps_its_rows_in_every_state(qtbot, make_window, tmp_path: Path):
    every = list(itertools.product(DOCKS, (False, True), ZOOMS, tuple(NBEST), (False,)))
    concepts = [
        (docks, compare, zoom, "three", True)
        for docks in ("built", "all")
        for compare in (False, True)
        for zoom in (100, 200)
    ]
    if not smallest_screen():  # a cross-section: each dock state, with and without Compare, at the largest zoom
        every = [
            (docks, compare, zoom, "long", False)
            for docks in DOCKS
            for compare in (False, True)
            for zoom in (100, 200, 300)
        ]
    walk(qtbot, make_window, tmp_path / "team", every + concepts)


def starve_the_table(qtbot, window: MainWindow) -> None:
    """What the annotator's drags made of a layout: Compare open and tall, the editor dragged up over the table,
    the window made small."""
    assert parts_of(window).compare.show_compare()
    window.resizeDocks([parts_of(window).compare.dock], [window.height()], Qt.Orientation.Vertical)
    window.splitter.setSizes([1, sum(window.splitter.sizes())])
    window.showNormal()
    window.resize(900, 500)
    qtbot.wait(20)


def test_reset_layout_brings_back_the_first_start_on_this_screen(qtbot, make_window, tmp_path: Path):
    window = make_window(team_log_with_a_long_list(tmp_path / "team"))
    qtbot.waitUntil(lambda: available().contains(window.frameGeometry()), timeout=2000)
    first = (window.geometry(), rows_in_view(window))
    starve_the_table(qtbot, window)
    qtbot.keyClick(window.table, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: window.geometry() == first[0], timeout=2000)
    assert parts_of(window).compare.dock.isVisible(), "Compare, open, stays open"
    assert rows_in_view(window) >= min(first[1], 8), (
        f"{rows_in_view(window):.1f} rows after a reset, {first[1]:.1f} at the start"
    )
    starve_the_table(qtbot, window)
    dialog = parts_of(window).preferences.show()
    dialog.show_page("Appearance")
    button = dialog.findChild(QPushButton, "reset_layout")
    assert shown(button)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.geometry() == first[0], timeout=2000)
    assert rows_in_view(window) >= min(first[1], 8)
    dialog.close()
    close_window(window)


def test_a_stored_layout_that_starves_the_table_is_repaired_at_start(qtbot, make_window, tmp_path: Path):
    log = team_log_with_a_long_list(tmp_path / "team")
    window = make_window(log)
    starve_the_table(qtbot, window)
    parts_of(window).appearance.zoom.set_zoom(200)
    close_window(window)  # the layout is stored as it is
    window = make_window(log)
    assert parts_of(window).compare.show_compare()
    for zoom in (200, 100):
        parts_of(window).appearance.zoom.set_zoom(zoom)
        qtbot.waitUntil(lambda: available().contains(window.frameGeometry()), timeout=2000)
        assert rows_in_view(window) >= rows_kept(zoom), f"{rows_in_view(window):.1f} rows at {zoom} %"
    close_window(window)
