"""Ctrl+Shift+F in the real window answers from the corpus's index once the session browser has listed
the corpus: an unchanged log is not read, what the index keeps of it is what is found, and a log
changed since is read as it is now."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.corpus_index.corpus import open_index
from annotator.gui.app import parts_of
from tests.support.gui_keys import CTRL_SHIFT, press, type_text
from tests.support.pane_readouts import result_rows
from tests.support.planted_logs import plant


@pytest.mark.slow
def test_ctrl_shift_f_answers_from_the_index(qtbot, make_window, corpus: Path):
    window = make_window(corpus)
    browser = parts_of(window).browser
    qtbot.waitUntil(lambda: not browser.is_scanning and browser.model.rowCount() == 3, timeout=60000)
    store = open_index([corpus])
    store.write(
        lambda connection: connection.execute(
            "UPDATE texts SET text = 'kept in the index only' WHERE text = 'Your flight to São Paulo is booked. Goodbye.'"
        )
    )
    store.close()
    changed = corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"
    plant(changed, {"04": "changed since it was indexed"})
    press(qtbot, window, Qt.Key.Key_F, CTRL_SHIFT)
    type_text(qtbot, window, "index")
    press(qtbot, window, Qt.Key.Key_Return)
    search = parts_of(window).corpus_search
    qtbot.waitUntil(lambda: search.task is None, timeout=30000)
    rows = [row[2:] for row in result_rows(search.results)]
    assert ("13", "system", "kept in the «index» only") in rows  # 003 unchanged: not read
    assert ("04", "transcription", "changed since it was «index»ed") in rows
