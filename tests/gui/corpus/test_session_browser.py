"""The corpus browser on real logs: a background scan with progress and cancel, filters, activation."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt

from annotator.corpus.scan import summarize_document
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.corpus.session_list import Column
from annotator.gui.widgets.roles import SUMMARY_ROLE
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from tests.support.session_browser import BROKEN, current_summary, many_logs, scanned

# Run again on the floor pins (scripts/test-qt-floor.sh): the session filter model (QSortFilterProxyModel's newer filter calls).
pytestmark = pytest.mark.qt_floor


@pytest.fixture
def browser(qtbot) -> SessionBrowser:
    widget = SessionBrowser()
    qtbot.addWidget(widget)
    widget.resize(1000, 500)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget
    if widget.is_scanning:
        with qtbot.waitSignal(widget.scan_finished, timeout=10000):
            widget.cancel_scan()


def visible_ids(browser: SessionBrowser) -> list[str]:
    proxy = browser.proxy
    return sorted(
        proxy.index(row, 0).data(SUMMARY_ROLE).session_id or "<unreadable>" for row in range(proxy.rowCount())
    )


def row_of(browser: SessionBrowser, session_id: str) -> QModelIndex:
    proxy = browser.proxy
    for row in range(proxy.rowCount()):
        if proxy.index(row, 0).data(SUMMARY_ROLE).session_id == session_id:
            return proxy.index(row, 0)
    raise AssertionError(f"{session_id} is not shown")


@pytest.mark.slow
def test_a_large_folder_scans_in_the_background_with_progress(qtbot, browser, tmp_path, sample_logs):
    """scan() returns at once and the rows arrive in steps with progress; how long the GUI thread
    may stall meanwhile is measured by tests/benchmarks, not here (wall clocks flake on shared CPUs)."""
    made = many_logs(tmp_path / "many", sample_logs)
    progress_seen: list[tuple[int, int]] = []
    browser.progress_bar.valueChanged.connect(
        lambda value: progress_seen.append((value, browser.progress_bar.maximum()))
    )

    with qtbot.waitSignal(browser.scan_finished, timeout=30000) as blocker:
        browser.scan(tmp_path / "many")
        assert browser.is_scanning
        assert browser.progress_bar.isVisible() and browser.cancel_button.isVisible()

    assert blocker.args == [True]
    assert not browser.progress_bar.isVisible()
    assert progress_seen and progress_seen[-1] == (60, 60)
    assert len({value for value, _ in progress_seen}) > 2, "progress should arrive in several steps"
    assert browser.model.rowCount() == 60
    shown = {(s.file, s.session_id) for s in browser.model.summaries}
    assert shown == set(made.items())
    assert browser.count_label.text() == "60 sessions"


@pytest.mark.slow
def test_cancel_stops_the_scan_and_keeps_what_was_read(qtbot, browser, tmp_path, sample_logs):
    many_logs(tmp_path / "many", sample_logs, copies=40)
    browser.scan(tmp_path / "many")
    qtbot.waitUntil(lambda: browser.model.rowCount() > 0, timeout=10000)
    with qtbot.waitSignal(browser.scan_finished, timeout=10000) as blocker:
        qtbot.mouseClick(browser.cancel_button, Qt.MouseButton.LeftButton)
    assert blocker.args == [False]
    assert 0 < browser.model.rowCount() < 120
    assert not browser.progress_bar.isVisible()
    assert not browser.is_scanning


@pytest.mark.slow
def test_an_unreadable_log_is_one_row_and_the_rest_are_listed(qtbot, browser, corpus):
    (corpus / "broken.xml").write_bytes(BROKEN)
    scanned(qtbot, browser, corpus)
    assert visible_ids(browser) == ["<unreadable>", "travel:20261121:001", "travel:20261121:002", "travel:20261121:003"]
    broken = row_of(browser, "")
    assert broken.siblingAtColumn(Column.FINDINGS).data() == "unreadable"
    assert "broken.xml:4" in broken.data(Qt.ItemDataRole.ToolTipRole)
    assert browser.count_label.text() == "3 sessions, 1 unreadable log"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("untranscribed", ["travel:20261121:002", "travel:20261121:003"]),
        ("no task completion", ["travel:20261121:002", "travel:20261121:003"]),
        ("errors", ["<unreadable>"]),
        ("003", ["travel:20261121:003"]),
        ("Untranscribed 002", ["travel:20261121:002"]),
    ],
)
@pytest.mark.slow
def test_the_filter_box_understands_words_and_keywords(qtbot, browser, corpus, typed, expected):
    (corpus / "broken.xml").write_bytes(BROKEN)
    scanned(qtbot, browser, corpus)
    browser.filter_edit.setFocus()
    qtbot.keyClicks(browser.filter_edit, typed)
    assert visible_ids(browser) == expected
    assert browser.count_label.text() == f"showing {len(expected)} of 4 (3 sessions, 1 unreadable log)"
    qtbot.keyClick(browser.filter_edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(browser.filter_edit, Qt.Key.Key_Delete)
    assert len(visible_ids(browser)) == 4


@pytest.mark.slow
def test_the_keyword_menu_edits_the_filter_text(qtbot, browser, corpus):
    scanned(qtbot, browser, corpus)
    browser._keyword_actions["untranscribed"].trigger()
    assert browser.filter_edit.text() == "untranscribed"
    assert visible_ids(browser) == ["travel:20261121:002", "travel:20261121:003"]
    browser._keyword_actions["untranscribed"].trigger()
    assert browser.filter_edit.text() == ""


@pytest.mark.slow
def test_enter_on_a_row_activates_its_session(qtbot, browser, corpus):
    scanned(qtbot, browser, corpus)
    browser.filter_edit.setFocus()
    qtbot.keyClicks(browser.filter_edit, "002")
    qtbot.keyClick(browser.filter_edit, Qt.Key.Key_Down)  # from the filter box into the table
    assert browser.table.hasFocus()
    with qtbot.waitSignal(browser.session_activated, timeout=2000) as blocker:
        qtbot.keyClick(browser.table, Qt.Key.Key_Return)
    expected = corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"
    assert blocker.args == [expected, 0]


@pytest.mark.slow
def test_double_click_on_a_row_activates_its_session(qtbot, browser, corpus):
    scanned(qtbot, browser, corpus)
    index = row_of(browser, "travel:20261121:003").siblingAtColumn(Column.SESSION)
    centre = browser.table.visualRect(index).center()
    with qtbot.waitSignal(browser.session_activated, timeout=2000) as blocker:
        qtbot.mouseClick(browser.table.viewport(), Qt.MouseButton.LeftButton, pos=centre)
        qtbot.mouseDClick(browser.table.viewport(), Qt.MouseButton.LeftButton, pos=centre)
    assert blocker.args == [corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml", 0]


@pytest.mark.slow
def test_clicking_a_header_sorts_by_that_column(qtbot, browser, corpus):
    scanned(qtbot, browser, corpus)
    header = browser.table.horizontalHeader()
    x = header.sectionViewportPosition(Column.TURNS) + header.sectionSize(Column.TURNS) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))
    turns = [browser.proxy.index(row, Column.TURNS).data() for row in range(browser.proxy.rowCount())]
    assert turns in (["10", "12", "14"], ["14", "12", "10"])
    assert turns == sorted(turns, key=int, reverse=header.sortIndicatorOrder() == Qt.SortOrder.DescendingOrder)


@pytest.mark.slow
def test_update_session_refreshes_a_row_after_a_save(qtbot, browser, corpus, absolute_audio_log):
    scanned(qtbot, browser, corpus)
    doc = LogDocument.load(absolute_audio_log)
    set_transcription(doc.sessions[0].user_turns[0], "i need to go to san francisco")
    [summary] = summarize_document(doc)
    browser.update_session(summary)
    assert browser.model.rowCount() == 3
    assert row_of(browser, "travel:20261121:002").siblingAtColumn(Column.TRANSCRIBED).data() == "1 / 5"


@pytest.mark.slow
def test_select_session_makes_a_row_current(qtbot, browser, corpus, latin1_log):
    scanned(qtbot, browser, corpus)
    assert browser.select_session(latin1_log, 0)
    assert current_summary(browser).session_id == "travel:20261121:003"
    assert not browser.select_session(latin1_log, 1)


@pytest.mark.slow
def test_a_new_scan_replaces_the_one_running(qtbot, browser, tmp_path, sample_logs, corpus):
    many_logs(tmp_path / "many", sample_logs, copies=40)
    browser.scan(tmp_path / "many")
    qtbot.waitUntil(lambda: browser.model.rowCount() > 0, timeout=10000)
    scanned(qtbot, browser, corpus)
    assert visible_ids(browser) == ["travel:20261121:001", "travel:20261121:002", "travel:20261121:003"]
    assert browser.folder == corpus


@pytest.mark.slow
def test_clicking_the_doubt_header_lists_the_most_doubtful_sessions_first(qtbot, browser, corpus):
    from annotator.gui.colours import doubt_ramp

    scanned(qtbot, browser, corpus)
    header = browser.table.horizontalHeader()
    browser.table.scrollTo(browser.proxy.index(0, Column.DOUBT))
    x = header.sectionViewportPosition(Column.DOUBT) + header.sectionSize(Column.DOUBT) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))
    proxy = browser.proxy
    rows = [
        (proxy.index(r, 0).data(SUMMARY_ROLE).session_id, proxy.index(r, Column.DOUBT).data())
        for r in range(proxy.rowCount())
    ]
    # 003: "help" (0.95) before munich (0.85); 002: "from the mile i city" (0.83); 001 is all transcribed
    assert rows == [("travel:20261121:003", "0.95"), ("travel:20261121:002", "0.83"), ("travel:20261121:001", "")]
    assert proxy.index(0, Column.DOUBT).data(Qt.ItemDataRole.BackgroundRole) == doubt_ramp()[4]
    assert proxy.index(2, Column.DOUBT).data(Qt.ItemDataRole.ToolTipRole) == "no user turn left to transcribe"
