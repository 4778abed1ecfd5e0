"""Moving through a corpus from the keyboard: sessions of a log and of the next log, the ends of a
session, and the validation findings (clicked or stepped through with F8)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.actions import ACTIONS
from annotator.gui.app import parts_of
from annotator.gui.widgets.roles import FINDING_ROLE
from tests.support.gui_keys import press
from tests.support.repository import REPO
from tests.support.session_browser import current_summary

Key, Mod = Qt.Key, Qt.KeyboardModifier
HOSTILE = REPO / "tests" / "hostile"


def status(window) -> str:
    return window.statusBar().currentMessage()


def test_alt_down_at_the_last_turn_says_so(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(parts_of(window).navigator.model.rowCount() - 1, focus_editor=True)
    last = parts_of(window).navigator.current_turn()
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)
    assert parts_of(window).navigator.current_turn() is last or parts_of(window).navigator.current_turn() == last
    assert status(window) == f"No turn after turn {last.id} in session travel:20261121:002"
    window.table.setFocus()
    window.statusBar().clearMessage()
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)
    assert status(window).startswith("No turn after turn")


def test_session_keys_are_in_the_action_table_and_the_menu(main_window):
    names = {spec.name: spec for spec in ACTIONS}
    assert names["next_session"].keys == ("Ctrl+PgDown",) and names["previous_session"].keys == ("Ctrl+PgUp",)
    assert names["next_finding"].keys == ("F8",) and names["previous_finding"].keys == ("Shift+F8",)
    navigate = main_window.menus.navigate.actions()
    assert main_window.action_table.next_session in navigate and main_window.action_table.next_finding in navigate


@pytest.mark.slow
def test_ctrl_page_down_goes_on_to_the_next_log_of_the_corpus(make_window, corpus: Path, qtbot):
    folder = corpus.parent / "two-logs"
    folder.mkdir()
    for name in ("travel-20261121-001", "travel-20261121-002"):
        shutil.copytree(corpus / name, folder / name)
    window = make_window(folder)
    browser = parts_of(window).browser
    # The scan is a background task: on a busy machine it may take longer than qtbot's default 5 s.
    qtbot.waitUntil(lambda: browser.model.rowCount() == 2 and not browser.is_scanning, timeout=60000)
    first = parts_of(window).controller.document.path
    assert first.name == "travel-20261121-001-hublog.xml"

    press(qtbot, window, Key.Key_PageDown, Mod.ControlModifier)
    assert parts_of(window).controller.document.path.name == "travel-20261121-002-hublog.xml"
    assert (
        parts_of(window).navigator.session.id == "travel:20261121:002"
        and current_summary(browser).session_id == parts_of(window).navigator.session.id
    )

    press(qtbot, window, Key.Key_PageDown, Mod.ControlModifier)
    assert parts_of(window).controller.document.path.name == "travel-20261121-002-hublog.xml"
    assert status(window) == "Session travel:20261121:002 is the last session of travel-20261121-002-hublog.xml"

    press(qtbot, window, Key.Key_PageUp, Mod.ControlModifier)
    assert parts_of(window).controller.document.path == first


def test_a_single_log_says_where_the_sessions_end(main_window, qtbot):
    press(qtbot, main_window, Key.Key_PageDown, Mod.ControlModifier)
    assert status(main_window).startswith("Session travel:20261121:002 is the last session of")
    assert "open a folder of logs" in status(main_window)


def in_front(widget) -> bool:
    """A tabbed dock's widget counts as visible even behind another tab; what is painted tells."""
    return not widget.visibleRegion().isEmpty()


def _findings_shown(window) -> bool:
    return bool(parts_of(window).findings.findings)


@pytest.mark.slow
def test_a_log_with_errors_says_so_and_f8_walks_its_findings(make_window, tmp_path, qtbot):
    log = tmp_path / "reversed.xml"
    shutil.copy(HOSTILE / "etime-before-stime.xml", log)
    window = make_window(log)
    qtbot.waitUntil(lambda: _findings_shown(window), timeout=20000)
    assert status(window).startswith("reversed.xml has 1 error") and "F8" in status(window)

    panel = parts_of(window).findings
    parts_of(window).navigator.select_row(0)
    press(qtbot, window, Key.Key_F8)
    first = panel.current_finding()
    assert first is not None and in_front(panel)
    assert parts_of(window).navigator.current_turn().id == "2"  # the turn that ends before it starts
    press(qtbot, window, Key.Key_F8, Mod.ShiftModifier)
    assert status(window) == "No further finding that way"


@pytest.mark.slow
def test_clicking_a_finding_keeps_the_findings_in_front(make_window, tmp_path, qtbot):
    log = tmp_path / "reversed.xml"
    shutil.copy(HOSTILE / "etime-before-stime.xml", log)
    window = make_window(log)
    qtbot.waitUntil(lambda: _findings_shown(window), timeout=20000)
    parts_of(window).docks.findings.raise_()
    panel = parts_of(window).findings
    qtbot.waitUntil(lambda: in_front(panel))
    table = panel.table
    index = table.model().index(0, 0)
    assert index.data(FINDING_ROLE) is not None
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center())
    assert parts_of(window).navigator.current_turn().id == "2"
    assert parts_of(window).detail.element is not None  # the details follow...
    qtbot.wait(50)
    assert in_front(panel) and not in_front(parts_of(window).detail)  # ...without taking the tab
