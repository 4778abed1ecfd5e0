"""The window's layout: on real screen sizes (tests/gui/appearance/layout_checks.py and layout_grid.py, one interpreter per size,
since Qt fixes the screens when the application starts), and what holds on any screen: the
selected turn stays in view, the Sessions dock is there for a corpus only."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel

from annotator.gui.app import parts_of
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.main_window import MainWindow
from annotator.gui.settings import LastPosition
from annotator.gui.widgets.roles import SUMMARY_ROLE
from tests.support.compare_logs import make_team_log
from tests.support.gui_keys import close_window, press
from tests.support.repository import REPO

CHECKS = [Path(__file__).with_name(name) for name in ("layout_checks.py", "layout_grid.py")]
SCREENS = ("1280x720", "1366x768", "1920x1080")
STORED_LAYOUT = REPO / "tests" / "support" / "stored_layout_script.py"


def on_screen(screen: str, folder: Path) -> dict[str, str]:
    """The environment of an interpreter whose offscreen screen is SCREEN (e.g. "1280x720")."""
    width, height = map(int, screen.split("x"))
    config = folder / f"screen-{screen}.json"
    config.write_text(
        json.dumps(
            {
                "screens": [
                    {
                        "name": screen,
                        "x": 0,
                        "y": 0,
                        "width": width,
                        "height": height,
                        "logicalDpi": 96,
                        "logicalBaseDpi": 96,
                        "dpr": 1,
                    }
                ]
            }
        )
    )
    return dict(os.environ, QT_QPA_PLATFORM=f"offscreen:configfile={config}", PYTHONPATH=str(REPO))


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.slow
def test_the_window_fits_each_screen_size(screen: str, tmp_path: Path):
    env = on_screen(screen, tmp_path)
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            *map(str, CHECKS),
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            f"--basetemp={tmp_path / 'checks'}",
            "-o",
            "faulthandler_timeout=240",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"at {screen}:\n{result.stdout[-8000:]}\n{result.stderr[-4000:]}"
    assert " passed" in result.stdout and "skipped" not in result.stdout


@pytest.mark.slow
def test_a_layout_stored_on_each_screen_is_restored_on_each_other(tmp_path: Path):
    """Stored with Compare tall and the editor dragged over the table, on one screen; started on another: the
    window is on the screen, its docks too, the table has its rows, and a window from a smaller screen takes the
    larger one's first-start size (most of it), not its old size with empty margins."""
    log = make_team_log(tmp_path / "team")
    run = lambda screen, *args: subprocess.run(  # noqa: E731
        [sys.executable, str(STORED_LAYOUT), *args],
        cwd=REPO,
        env=on_screen(screen, tmp_path),
        capture_output=True,
        text=True,
        timeout=240,
    )
    for screen in SCREENS:
        saved = run(screen, "save", str(tmp_path / f"saved-{screen}"), str(log))
        assert saved.returncode == 0, f"saving at {screen}: {saved.stderr[-3000:]}"
    for screen, other in itertools.permutations(SCREENS, 2):
        settings = tmp_path / f"from-{other}-on-{screen}"
        shutil.copytree(tmp_path / f"saved-{other}", settings)
        checked = run(screen, "check", str(settings), str(log), other)
        assert checked.returncode == 0, f"{other} on {screen}: {checked.stderr[-3000:]}"
        shown = json.loads(checked.stdout.strip().splitlines()[-1])
        assert shown["on_screen"] and not shown["docks_outside"], shown
        assert shown["rows"] >= 8, shown
        width, height = map(int, other.split("x"))
        if width < shown["screen"][0]:
            assert shown["window"][0] >= 0.8 * shown["screen"][0] and shown["window"][1] >= 0.8 * shown["screen"][1], (
                shown
            )


def assert_current_row_in_view(window: MainWindow) -> None:
    table = window.table
    rect = table.visualRect(table.currentIndex())
    assert rect.isValid() and rect.top() >= 0 and rect.bottom() < table.viewport().height(), (
        f"row {table.currentIndex().row()} at {rect} in a {table.viewport().height()} px high table"
    )


def shrink_table(window: MainWindow) -> None:
    """The annotator drags the splitter up: the editor takes all the table gives (it keeps zoom.rows_kept)."""
    total = sum(window.splitter.sizes())
    window.splitter.setSizes([window.table.verticalHeader().defaultSectionSize() * 4, total])


@pytest.mark.slow
def test_the_selected_turn_stays_in_view_when_the_editor_grows(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    parts_of(window).navigator.select_row(parts_of(window).navigator.model.rowCount() - 1)
    assert_current_row_in_view(window)
    shrink_table(window)
    qtbot.waitUntil(lambda: window.table.height() == window.table.minimumHeight())  # the least the table gives up
    assert_current_row_in_view(window)
    parts_of(window).navigator.select_row(5)
    window.resize(window.width(), window.height() - 120)
    qtbot.wait(10)
    assert_current_row_in_view(window)
    close_window(window)


@pytest.mark.slow
def test_reopening_a_log_at_its_last_turn_shows_that_turn(qtbot, make_window, settings, latin1_log: Path):
    window = make_window(latin1_log)
    last = parts_of(window).navigator.model.rowCount() - 1
    shrink_table(window)
    window.save_layout()
    session = parts_of(window).controller.document.sessions[0]
    close_window(window)
    settings.set_last_position(latin1_log, LastPosition(session.id, last), None)
    window = make_window(latin1_log)
    assert window.table.current_row() == last
    qtbot.wait(10)
    assert_current_row_in_view(window)
    close_window(window)


def test_ctrl_enter_moves_to_a_turn_that_is_in_view(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    shrink_table(window)
    window.editor.focus_text()
    for _ in range(4):
        press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        assert_current_row_in_view(window)
    close_window(window)


@pytest.mark.slow
def test_the_sessions_dock_is_for_a_corpus_only(qtbot, make_window, corpus: Path, latin1_log: Path):
    window = make_window()
    with qtbot.waitSignal(parts_of(window).browser.scan_finished, timeout=30000):
        assert parts_of(window).navigator.open_path(corpus)
    assert parts_of(window).docks.sessions.isVisible()
    close_window(window)
    again = make_window(latin1_log)
    assert not parts_of(again).docks.sessions.isVisible(), "no empty Sessions dock on a single log"
    assert parts_of(again).docks.sessions.toggleViewAction().isEnabled()
    close_window(again)


@pytest.mark.slow
def test_the_pinned_file_column_sorts_and_scrolls_with_the_sessions(qtbot, corpus: Path):
    browser = SessionBrowser()
    qtbot.addWidget(browser)
    browser.resize(420, browser.minimumSizeHint().height())  # room for a row or two: the rows scroll
    browser.show()
    qtbot.waitExposed(browser)
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        browser.scan(corpus)
    pinned, table = browser.file_column, browser.table
    header = pinned.horizontalHeader()
    names = lambda: [browser.proxy.index(row, 0).data() for row in range(browser.proxy.rowCount())]  # noqa: E731
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=header.rect().center())
    assert names() == sorted(names(), reverse=True), "a click on the pinned header sorts by file, descending"
    assert table.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=header.rect().center())
    assert names() == sorted(names())
    qtbot.waitUntil(lambda: table.verticalScrollBar().maximum() > 0)  # once the rows are laid out
    table.verticalScrollBar().setValue(table.verticalScrollBar().maximum())
    assert pinned.verticalScrollBar().value() == table.verticalScrollBar().value()
    bottom = table.viewport().height() - 2
    assert pinned.rowAt(bottom) == table.rowAt(bottom) == browser.proxy.rowCount() - 1
    last = browser.proxy.index(browser.proxy.rowCount() - 1, 0)
    qtbot.mouseClick(pinned.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(4, bottom))
    assert table.hasFocus() and table.currentIndex().row() == last.row(), "a click on a file name selects its row"
    with qtbot.waitSignal(browser.session_activated, timeout=2000) as activated:
        qtbot.keyClick(table, Qt.Key.Key_Return)
    assert activated.args[1] == last.data(SUMMARY_ROLE).session_index


@pytest.mark.slow
def test_a_layout_is_restored_by_a_window_with_the_same_docks_only(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    details = parts_of(window).docks.details
    assert details.isVisible()
    window.save_layout()  # Details shown
    details.hide()
    window.restore_layout()
    assert details.isVisible()  # the same docks: the saved layout comes back
    details.hide()
    window.add_dock(QLabel("a later version's dock"), "New", Qt.DockWidgetArea.RightDockWidgetArea, "new_dock")
    window.restore_layout()
    assert not details.isVisible()  # saved by a window without the new dock: the window keeps its own layout
    close_window(window)


def _cut_tabs(window) -> list[str]:
    """The titles of the dock tabs WINDOW shows narrower than their text: what the annotator reads as "De…"."""
    from PySide6.QtWidgets import QTabBar

    cut = []
    for bar in window.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for index in range(bar.count()):
            text = bar.tabText(index)
            if bar.tabRect(index).width() < bar.fontMetrics().horizontalAdvance(text):
                cut.append(text)
    return cut


@pytest.mark.slow
def test_a_stored_layout_that_squeezes_the_dock_tabs_is_widened_at_start(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    qtbot.waitExposed(window)
    details = parts_of(window).docks.details
    assert _cut_tabs(window) == [], "a first start shows every tab title whole"
    window.resizeDocks([details], [60], Qt.Orientation.Horizontal)  # the annotator drags the side docks narrow
    qtbot.waitUntil(lambda: _cut_tabs(window) != [])
    window.save_layout()
    close_window(window)
    again = make_window(latin1_log)
    qtbot.waitExposed(again)
    qtbot.waitUntil(lambda: _cut_tabs(again) == [], timeout=3000)
    assert again.table.viewport().height() >= 8 * again.table.verticalHeader().defaultSectionSize(), (
        "the table keeps its rows"
    )
    close_window(again)
