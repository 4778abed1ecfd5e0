"""A move of the selection has no part of the window but the panes laid out again: the texts that follow the
turn (the editor's and the Concepts' titles, the diff, the n-best list, the waveform's message, the session
bar's progress) ask their pane for a new layout, and the pane does not pass the request on to its dock, the
splitter or the main window while its minimum and maximum size stay what they were (views.layout_boundary)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QApplication, QDockWidget

from annotator.gui.app import parts_of
from tests.support.gui_keys import press, type_text


class LayoutRequests(QObject):
    """The LayoutRequest events the application delivers to WATCHED, by object name."""

    def __init__(self, watched):
        super().__init__()
        self.watched = {id(widget): widget.objectName() for widget in watched}
        self.received: list[str] = []
        QApplication.instance().installEventFilter(self)

    def eventFilter(self, receiver, event) -> bool:
        if event.type() == QEvent.Type.LayoutRequest and id(receiver) in self.watched:
            self.received.append(self.watched[id(receiver)])
        return False

    def stop(self) -> None:
        QApplication.instance().removeEventFilter(self)


def settle(qtbot) -> None:
    qtbot.wait(50)  # the clip of the new turn is read and shown
    QApplication.processEvents()


@pytest.mark.slow
def test_a_move_lays_out_neither_the_main_window_nor_a_dock(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    navigator, table = parts_of(window).navigator, window.table
    parts_of(window).playback.set_loop(False)
    parts_of(window).docks.concepts.raise_()  # a tab behind Details on a small screen: shown, it follows the turn
    turns = navigator.session.turns
    table.setFocus()
    for row in range(len(turns)):  # the editor has grown to the session's widest and tallest turn
        navigator.select_row(row)
        settle(qtbot)
    navigator.select_row(0)
    table.setFocus()
    settle(qtbot)
    watched = [window, window.centralWidget(), window.splitter, *window.findChildren(QDockWidget)]
    requests = LayoutRequests(watched)
    try:
        seen = []
        for key, modifiers in (
            (Qt.Key.Key_PageDown, Qt.KeyboardModifier.NoModifier),
            (Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier),
            (Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier),
        ):
            table.setFocus()
            press(qtbot, window, key, modifiers)
            settle(qtbot)
            seen.append(navigator.current_turn().index)
        assert seen == [seen[0], len(turns) - 1, 0] and seen[0] > 0
        at_moves = list(requests.received)
        navigator.commit_and_next()  # to the first turn to transcribe
        settle(qtbot)
        # The editor grows to the widest and tallest diff of typed text it has shown (never shrinking back): the first
        # transcriptions of a session may lay out the window.
        for number in range(1, 5):
            before = navigator.current_turn()
            window.editor.focus_text()
            type_text(qtbot, window, f"to boston {number}")
            settle(qtbot)
            requests.received.clear()  # typing lays out the editor (its diff): the Ctrl+Enter is what is watched
            press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
            settle(qtbot)
            assert before.transcription == f"to boston {number}" and navigator.current_turn() is not before
        assert window.session_bar.progress.text().startswith("4 of")
    finally:
        requests.stop()
    assert at_moves == []
    assert requests.received == []
