"""The session browser as the GUI tests drive it: a corpus of many copies of the sample logs (each with a session id
of its own) and a log that cannot be read, a scan waited for, a header clicked, the summaries it lists and the one
of its current row."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QPoint, Qt

from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.corpus.session_list import Column
from annotator.gui.widgets.roles import SUMMARY_ROLE

BROKEN = b"<?xml version='1.0'?>\n<GC_LOG>\n  <GC_SESSION id='x'>\n</GC_LOG>\n"
SESSION_ID = re.compile(rb'(<GC_SESSION id=")([^"]+)(")')


def many_logs(folder: Path, sample_logs: list[Path], copies: int = 20) -> dict[Path, str]:
    """COPIES of each sample log under FOLDER, each with its own session id: {file: session id}."""
    made: dict[Path, str] = {}
    for n in range(copies):
        for log in sample_logs:
            session_id = f"copy:{n:02d}:{log.parent.name}"
            target = folder / f"batch{n:02d}" / log.name
            target.parent.mkdir(parents=True, exist_ok=True)
            new_id = session_id.encode()
            target.write_bytes(SESSION_ID.sub(lambda m, new_id=new_id: m[1] + new_id + m[3], log.read_bytes(), count=1))
            made[target] = session_id
    return made


def scanned(qtbot, browser: SessionBrowser, folder: Path) -> SessionBrowser:
    with qtbot.waitSignal(browser.scan_finished, timeout=20000) as blocker:
        browser.scan(folder)
    assert blocker.args == [True]
    return browser


def shown(browser) -> list:
    return [browser.proxy.index(row, 0).data(SUMMARY_ROLE) for row in range(browser.proxy.rowCount())]


def click_header(qtbot, browser, column: Column) -> None:
    header = browser.table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))


def current_summary(browser):
    """The SessionSummary of the session browser's current row, or None: what the annotator sees selected."""
    return browser.table.currentIndex().data(SUMMARY_ROLE)
