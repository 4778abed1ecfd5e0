"""Ctrl+Shift+F in the real window on a real corpus folder: hits listed in the dock, activating one opens it."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from annotator.gui.search.search_results import HIT_ROLE
from tests.support.big_log import make_big_log
from tests.support.cli import run_annotator
from tests.support.gui_keys import CTRL_SHIFT, press, type_text
from tests.support.pane_readouts import result_rows
from tests.support.planted_logs import plant


@pytest.mark.slow
def test_ctrl_shift_f_searches_the_corpus_and_a_hit_opens_its_turn(qtbot, make_window, corpus: Path):
    planted = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    plant(planted, {"10": "the third of december in zanzibar"})
    (corpus / "zz-broken-hublog.xml").write_text("<GC_LOG><GC_SESSION>")
    window = make_window(corpus)
    first = parts_of(window).navigator.document.path
    press(qtbot, window, Qt.Key.Key_F, CTRL_SHIFT)
    search = parts_of(window).corpus_search
    assert search.dock.isVisible() and QApplication.focusWidget() is search.results.text
    type_text(qtbot, window, "Zanzibar")
    press(qtbot, window, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: search.task is None, timeout=30000)
    assert result_rows(search.results) == [
        (
            "travel-20261121-003/travel-20261121-003-hublog.xml",
            "travel:20261121:003",
            "10",
            "transcription",
            "the third of december in «zanzibar»",
        )
    ]
    summary = search.results.summary.text()
    assert summary.startswith("1 hit; 1 log(s) could not be read: ") and "zz-broken-hublog.xml" in summary
    assert parts_of(window).navigator.document.path == first  # nothing opened yet
    table = search.results.table
    table.setFocus()
    table.setCurrentIndex(search.results.model.index(0, 0))
    press(qtbot, window, Qt.Key.Key_Return)
    assert parts_of(window).navigator.document.path.resolve() == planted.resolve()
    turn = parts_of(window).navigator.current_turn()
    assert (turn.session.id, turn.id) == ("travel:20261121:003", "10")


@pytest.mark.slow
def test_the_open_log_is_searched_with_its_unsaved_edits(qtbot, make_window, corpus: Path):
    log = corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"
    window = make_window(log)
    model = parts_of(window).navigator.model
    model.setData(model.index(3, 6), "from the mile high city")  # unsaved
    press(qtbot, window, Qt.Key.Key_F, CTRL_SHIFT)
    type_text(qtbot, window, "mile high")
    press(qtbot, window, Qt.Key.Key_Return)
    search = parts_of(window).corpus_search
    qtbot.waitUntil(lambda: search.task is None, timeout=30000)
    rows = result_rows(search.results)
    assert [row[2:4] for row in rows] == [("04", "transcription")]
    assert rows[0][0] == log.name  # the open log alone, named against its folder
    assert search.results.model.index(0, 0).data(HIT_ROLE).turn_index == 3


@pytest.mark.slow
def test_a_bad_regex_in_the_corpus_search_is_one_line(qtbot, make_window, corpus: Path):
    window = make_window(corpus)
    press(qtbot, window, Qt.Key.Key_F, CTRL_SHIFT)
    search = parts_of(window).corpus_search
    search.results.regex.setChecked(True)
    type_text(qtbot, window, "[a-")
    press(qtbot, window, Qt.Key.Key_Return)
    assert search.task is None
    assert search.results.summary.text().startswith("bad regular expression '[a-': unterminated character set")


@pytest.mark.slow
def test_cancel_stops_the_corpus_search_and_keeps_the_hits_found(qtbot, make_window, corpus: Path):
    source = corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"
    many = corpus / "many"
    many.mkdir()
    for k in range(150):
        (many / f"copy-{k:03d}-hublog.xml").write_bytes(source.read_bytes())
    window = make_window(corpus)
    press(qtbot, window, Qt.Key.Key_F, CTRL_SHIFT)
    search = parts_of(window).corpus_search
    type_text(qtbot, window, "denver")
    press(qtbot, window, Qt.Key.Key_Return)
    assert search.results.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: search.results.hit_count() > 0, timeout=30000)
    qtbot.mouseClick(search.results.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: search.task is None, timeout=30000)
    found = search.results.hit_count()
    # Every log holds "denver" more than once: the whole corpus's count, not its number of logs, is the bound.
    every_hit = len(run_annotator("search", "denver", corpus).stdout.splitlines())
    assert 0 < found < every_hit and search.results.summary.text() == f"{found} hits (cancelled)"
    assert not search.results.cancel_button.isEnabled() and search.results.search_button.isEnabled()


@pytest.mark.slow
def test_the_open_log_is_read_in_the_background_too(qtbot, make_window, tmp_path: Path):
    """Enter in the dock on a 10 MB open log: the window's thread only starts the search (it read every
    session of the open log first, 4.3 s here, before the reading moved to the worker)."""
    window = make_window(make_big_log(tmp_path / "big-hublog.xml", 10))
    press(qtbot, window, Qt.Key.Key_F, CTRL_SHIFT)
    type_text(qtbot, window, "boston")
    started = time.monotonic()
    press(qtbot, window, Qt.Key.Key_Return)
    assert time.monotonic() - started < 1.0
    search = parts_of(window).corpus_search
    assert search.task is not None
    qtbot.waitUntil(lambda: search.task is None, timeout=120000)
    assert search.results.hit_count() > 0 and search.results.summary.text().endswith("hits")
