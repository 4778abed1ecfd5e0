"""The Sessions browser's way into Compare: its table's context menu holds "Compare annotators", which
opens the session under the row and compares the annotators' files beside its log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.widgets.roles import SUMMARY_ROLE

ENTRY_TEXT = "Co&mpare annotators"


def add_compare_entry(browser: SessionBrowser, compare: Callable[[Path, int], object]) -> QAction:
    """Put the entry in the context menu of BROWSER's table (and of its pinned file column); COMPARE gets
    the selected session's file and its position in the file."""
    action = QAction(ENTRY_TEXT, browser)
    action.setObjectName("compare_session")
    action.setStatusTip("Open this session and show every annotator's work on it side by side")

    def compare_selected() -> None:
        summary = browser.table.currentIndex().data(SUMMARY_ROLE)
        if summary is not None:
            compare(summary.file, summary.session_index)

    action.triggered.connect(compare_selected)
    for table in (browser.table, browser.file_column):
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        table.addAction(action)
    return action
