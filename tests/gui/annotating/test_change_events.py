"""How a change is heard (docs/events.md): Qt views hear DocumentController.annotation_changed,
which one document listener re-emits; nobody else in the GUI listens to the document."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

import annotator.gui
from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from annotator.log.annotations import set_transcription
from tests.support.gui_keys import focused, press, type_text

Key = Qt.Key
TYPED = "from the mile high city"


def _detail_shows(window, text: str) -> bool:
    flags = Qt.MatchFlag.MatchContains | Qt.MatchFlag.MatchRecursive
    return any(
        parts_of(window).detail.findItems(text, flags, column)
        for column in range(parts_of(window).detail.columnCount())
    )


def test_a_transcription_typed_in_a_table_cell_reaches_every_view(main_window, qtbot):
    window = main_window
    parts_of(window).navigator.select_row(3)
    window.table.setFocus()
    press(qtbot, window, Key.Key_F2)
    assert focused(window) is window.table.delegate.open_editor
    type_text(qtbot, window, TYPED)
    press(qtbot, window, Key.Key_Return)
    qtbot.waitUntil(lambda: parts_of(window).navigator.session.turns[3].transcription == TYPED)
    assert window.editor.text.toPlainText() == TYPED
    assert _detail_shows(window, TYPED)
    assert window.session_bar.progress.text().startswith("1 of ")
    assert parts_of(window).navigator.model.index(3, Column.TRANSCRIPTION).data() == TYPED


def test_a_change_made_by_the_core_alone_reaches_the_views(main_window, qtbot):
    """What the journal's restore or any Qt-free code changes is shown like an edit made in the window."""
    window = main_window
    parts_of(window).navigator.select_row(3)
    set_transcription(parts_of(window).navigator.session.turns[3], TYPED)
    assert window.editor.text.toPlainText() == TYPED and _detail_shows(window, TYPED)
    assert window.session_bar.progress.text().startswith("1 of ")
    assert parts_of(window).navigator.model.index(3, Column.TRANSCRIPTION).data() == TYPED


def test_in_the_gui_only_the_document_controller_listens_to_the_document():
    gui = Path(annotator.gui.__file__).parent
    listening = sorted(
        path.relative_to(gui).as_posix()
        for path in gui.rglob("*.py")
        if "add_listener(" in path.read_text(encoding="utf-8")
    )
    assert listening == ["opening/document_controller.py"]
