"""A corpus opened in the real window: its rows arrive while the scan goes on, with counts and a
way to stop it; sorting, filtering and the selection hold while they do; a save refreshes only its log."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.gui.corpus.session_list import Column
from annotator.gui.widgets.roles import SORT_ROLE, SUMMARY_ROLE
from tests.support.gui_keys import close_window, press
from tests.support.session_browser import BROKEN, click_header, current_summary, many_logs, shown

# Run again on the floor pins (scripts/test-qt-floor.sh): the session filter model (QSortFilterProxyModel's newer filter calls).
pytestmark = pytest.mark.qt_floor

COPIES = 17  # of each of the three sample logs: 51 logs, and an unreadable one
# Enough that the scan still goes on once a test has sorted, filtered and selected: with 17 copies a quiet
# machine's scan once ended before a busy test's clicks did.
SORTING_COPIES = 80


def corpus_of(folder: Path, sample_logs: list[Path], copies: int) -> Path:
    many_logs(folder, sample_logs, copies=copies)
    (folder / "zz-unreadable.xml").write_bytes(BROKEN)  # last: the window opens the corpus's first log
    return folder


@pytest.fixture
def big_corpus(tmp_path: Path, sample_logs: list[Path]) -> Path:
    return corpus_of(tmp_path / "corpus", sample_logs, COPIES)


def scan_in(qtbot, window, folder: Path):
    """Open FOLDER in WINDOW as File > Open does; return its session browser once the whole list is filled."""
    with qtbot.waitSignal(parts_of(window).browser.scan_finished, timeout=60000) as finished:
        assert parts_of(window).navigator.open_path(folder)
    assert finished.args == [True]
    return parts_of(window).browser


@pytest.mark.slow
def test_rows_arrive_while_the_scan_goes_on_with_counts_and_the_unreadable_log_is_one_row(
    qtbot, make_window, big_corpus: Path
):
    window = make_window()
    browser = parts_of(window).browser
    batches: list[tuple[int, bool, str]] = []  # rows listed, still scanning, progress bar's text: at each batch
    browser.model.rowsInserted.connect(
        lambda *_: batches.append((browser.model.rowCount(), browser.is_scanning, browser.progress_bar.text()))
    )
    counts: list[str] = []
    parts_of(window).navigator.corpus_requested.connect(lambda _folder: counts.append(browser.count_label.text()))
    scan_in(qtbot, window, big_corpus)
    assert counts == [""], "while it looks for logs, the browser does not say there are none"

    total = 3 * COPIES + 1
    assert browser.model.rowCount() == total
    partial = [(rows, text) for rows, scanning, text in batches if scanning and rows < total]
    assert partial, "rows are shown before the scan ends"
    assert any(re.fullmatch(rf"\d+ of {total} logs", text) for _rows, text in partial), "the counts show however narrow"
    assert browser.progress_bar.maximum() == total and not browser.progress_row.isVisible()
    unreadable = [s for s in browser.model.summaries if s.problem is not None]
    assert [s.file.name for s in unreadable] == ["zz-unreadable.xml"]
    assert "zz-unreadable.xml:4" in unreadable[0].problem and "\n" not in unreadable[0].problem
    assert browser.count_label.text() == f"{3 * COPIES} sessions, 1 unreadable log"
    close_window(window)


@pytest.mark.slow
def test_cancel_stops_the_window_scan_and_keeps_the_rows_read(qtbot, make_window, big_corpus: Path):
    window = make_window()
    browser = parts_of(window).browser
    parts_of(window).navigator.open_path(big_corpus)
    qtbot.waitUntil(lambda: browser.model.rowCount() > 0, timeout=30000)
    assert browser.cancel_button.isVisible()
    with qtbot.waitSignal(browser.scan_finished, timeout=30000) as finished:
        qtbot.mouseClick(browser.cancel_button, Qt.MouseButton.LeftButton)
    assert finished.args == [False]
    kept = browser.model.rowCount()
    assert 0 < kept < 3 * COPIES + 1
    assert not browser.progress_row.isVisible()
    qtbot.wait(200)
    assert browser.model.rowCount() == kept, "nothing arrives after the scan stopped"
    close_window(window)


@pytest.mark.slow
def test_sorting_filtering_and_the_selection_hold_while_rows_arrive(
    qtbot, make_window, tmp_path: Path, sample_logs: list[Path]
):
    corpus = corpus_of(tmp_path / "corpus", sample_logs, SORTING_COPIES)
    (corpus / "batch00" / "travel-20261121-001-hublog.xml").unlink()  # the window opens an untranscribed log
    window = make_window()
    browser = parts_of(window).browser
    parts_of(window).navigator.open_path(corpus)
    qtbot.waitUntil(lambda: browser.model.rowCount() >= 3, timeout=30000)
    assert browser.is_scanning, "the corpus is big enough to sort and filter while it is read"
    click_header(qtbot, browser, Column.TURNS)
    browser.filter_edit.setFocus()
    qtbot.keyClicks(browser.filter_edit, "untranscribed")
    opened = parts_of(window).controller.document.path
    chosen = next(
        row for row in range(browser.proxy.rowCount()) if browser.proxy.index(row, 0).data(SUMMARY_ROLE).file != opened
    )
    browser.table.setFocus()
    browser.table.selectRow(chosen)  # another session than the one open: the annotator looks around
    picked = current_summary(browser)
    seen: list[tuple[list, object]] = []
    browser.model.rowsInserted.connect(lambda *_: seen.append((shown(browser), current_summary(browser))))
    with qtbot.waitSignal(browser.scan_finished, timeout=60000):
        pass

    descending = browser.table.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    assert seen, "rows arrived after sorting and filtering"
    for rows, selected in seen + [(shown(browser), current_summary(browser))]:
        turns = [s.n_turns for s in rows]
        assert turns == sorted(turns, reverse=descending)
        assert all(s.n_untranscribed > 0 for s in rows)
        assert selected == picked, "the selection stays on the session the annotator chose"
    untranscribed = [s for s in browser.model.summaries if s.problem is None and s.n_untranscribed > 0]
    assert len(shown(browser)) == len(untranscribed) == 2 * SORTING_COPIES  # the logs 002 and 003 are untranscribed
    close_window(window)


@pytest.mark.slow
def test_a_save_refreshes_exactly_the_rows_of_its_log(qtbot, make_window, big_corpus: Path):
    window = make_window()
    browser = scan_in(qtbot, window, big_corpus)
    saved = parts_of(window).controller.document.path
    before = {(s.file, s.session_index): s for s in browser.model.summaries}
    assert before[(saved, 0)].task_completion == "1"
    click_header(qtbot, browser, Column.TASK)  # the saved row will move: completed, then not completed
    assert current_summary(browser) == before[(saved, 0)]
    window.table.setFocus()
    press(
        qtbot, window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    )  # mark the task not completed
    assert {(s.file, s.session_index): s for s in browser.model.summaries} == before, (
        "an edit not saved leaves the list alone"
    )
    with qtbot.waitSignal(browser.log_refreshed, timeout=30000) as refreshed:
        press(qtbot, window, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert refreshed.args == [saved]
    after = {(s.file, s.session_index): s for s in browser.model.summaries}
    assert after.keys() == before.keys()
    changed = [key for key in after if after[key] is not before[key]]
    assert changed == [(saved, 0)]
    assert after[(saved, 0)].task_completion == "0"
    row = browser.proxy.mapFromSource(browser.model.index(browser.model.row_of(saved, 0), Column.TASK))
    assert row.data() == "not completed"
    tasks = [browser.proxy.index(r, Column.TASK).data(SORT_ROLE) for r in range(browser.proxy.rowCount())]
    assert tasks == sorted(
        tasks, reverse=browser.table.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    )
    assert current_summary(browser) is after[(saved, 0)], "the saved session's row moved and stayed selected"
    close_window(window)
