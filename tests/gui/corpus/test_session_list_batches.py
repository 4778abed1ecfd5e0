"""A batch of rows arriving in the session browser of the real window is inserted run by run (the rows
that go between the same two listed rows at once), and the sorted, filtered view is right after
every insertion."""

from __future__ import annotations

import random
from pathlib import Path

from PySide6.QtCore import Qt

from annotator.corpus.scan import scan_corpus
from annotator.gui.app import parts_of
from annotator.gui.corpus.session_list import Column
from tests.support.gui_keys import close_window
from tests.support.session_browser import click_header, many_logs, shown


def corpus_rows(tmp_path: Path, sample_logs: list[Path]) -> list:
    many_logs(tmp_path / "corpus", sample_logs, copies=6)
    return scan_corpus(tmp_path / "corpus")


def batches(rows: list, size: int) -> list[list]:
    return [rows[start : start + size] for start in range(0, len(rows), size)]


def test_a_batch_in_file_order_is_one_insertion(qtbot, make_window, tmp_path: Path, sample_logs: list[Path]):
    rows = corpus_rows(tmp_path, sample_logs)
    window = make_window()
    browser = parts_of(window).browser
    browser.model.clear(tmp_path / "corpus")
    insertions: list[tuple[int, int]] = []
    browser.model.rowsInserted.connect(lambda _parent, first, last: insertions.append((first, last)))
    for batch in batches(rows, 5):
        before = len(insertions)
        browser.model.append_summaries(batch)
        assert len(insertions) == before + 1, "the batch's rows all go after those listed: one insertion"
        assert insertions[-1][1] - insertions[-1][0] + 1 == len(batch)
    assert shown(browser) == sorted(rows, key=lambda s: (browser.model.display_name(s.file), s.session_index))
    close_window(window)


def test_a_shuffled_batch_keeps_the_sorted_filtered_view_right_at_every_insertion(
    qtbot, make_window, tmp_path: Path, sample_logs: list[Path]
):
    rows = corpus_rows(tmp_path, sample_logs)
    random.Random(12).shuffle(rows)
    window = make_window()
    browser = parts_of(window).browser
    browser.model.clear(tmp_path / "corpus")
    browser.model.append_summaries(rows[:4])
    click_header(qtbot, browser, Column.TURNS)
    click_header(qtbot, browser, Column.TURNS)  # descending
    assert browser.table.horizontalHeader().sortIndicatorOrder() == Qt.SortOrder.DescendingOrder
    browser.filter_edit.setText("untranscribed")
    checked: list[int] = []

    def check(*_) -> None:
        listed = shown(browser)
        turns = [s.n_turns for s in listed]
        assert turns == sorted(turns, reverse=True)
        assert all(s.n_untranscribed > 0 for s in listed)
        checked.append(len(listed))

    browser.model.rowsInserted.connect(check)
    for batch in batches(rows[4:], 7):
        browser.model.append_summaries(batch)
    assert checked, "rows were inserted while sorted and filtered"
    expected = [s for s in rows if s.problem is None and s.n_untranscribed > 0]
    assert sorted(map(id, shown(browser))) == sorted(map(id, expected))
    assert len(checked) < len(rows) - 4, "rows that go to the same place were inserted together"
    close_window(window)
