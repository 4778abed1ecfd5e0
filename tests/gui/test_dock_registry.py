"""The table of docks (gui/docks.py) is what the window is made of: a pane declared there is a dock of the
window, in the View menu, placed and shown as declared, and told of what it follows."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel

from annotator.gui import docks as dock_table
from annotator.gui.app import parts_of
from annotator.gui.main_window import MainWindow
from annotator.gui.panes.docking import Follows, Pane, Spot
from annotator.log.document import AnnotationChange
from annotator.log.elements import Session, Turn
from tests.support.gui_keys import press, type_text


class NotesPane(QLabel):
    """A pane as a feature would write one: a view that follows the turn, the session and the annotations."""

    def __init__(self, parent):
        super().__init__(parent)
        self.turns: list[int | None] = []
        self.sessions: list[str | None] = []
        self.changes: list[str] = []

    def show_turn(self, turn: Turn | None) -> None:
        self.turns.append(None if turn is None else turn.index)
        self.setText("" if turn is None else f"turn {turn.index}")

    def show_session(self, session: Session | None) -> None:
        self.sessions.append(None if session is None else session.id)

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        self.changes.append(change.kind)


NOTES = Pane(
    "notes",
    "Notes",
    lambda making: NotesPane(making.window),
    Spot(Qt.DockWidgetArea.RightDockWidgetArea, tab_of="details"),
    follows=Follows.TURN | Follows.SESSION | Follows.ANNOTATIONS,
)


def test_every_pane_of_the_table_is_a_dock_in_the_view_menu(make_window):
    window = make_window()
    menu_entries = [action.text() for action in parts_of(window).menus.view.actions()]
    for pane in dock_table.PANES:
        dock = window.findChild(QDockWidget, f"{pane.name}_dock")
        assert dock is not None and dock.windowTitle() == pane.title and dock.isVisible() == pane.shown
        assert getattr(parts_of(window).docks, pane.name) is dock
        assert pane.title in menu_entries


@pytest.mark.slow
def test_a_pane_added_to_the_table_is_docked_placed_and_follows_what_it_declares(
    qtbot, make_window, raw_log: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(dock_table, "PANES", (*dock_table.PANES, NOTES))
    window = make_window(raw_log)
    dock = parts_of(window).docks.notes
    notes = parts_of(window).docks.view("notes", NotesPane)
    assert dock.objectName() == "notes_dock" and dock.isVisible()
    assert dock in window.tabifiedDockWidgets(parts_of(window).docks.details)
    assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert "Notes" in [action.text() for action in parts_of(window).menus.view.actions()]
    assert notes.sessions[-1] == parts_of(window).navigator.session.id
    first = parts_of(window).navigator.current_turn().index
    assert notes.turns[-1] == first
    type_text(qtbot, window, "a note")
    press(qtbot, window, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # store, go to the next turn
    assert "transcription" in notes.changes
    assert notes.turns[-1] == parts_of(window).navigator.current_turn().index != first


def test_a_pane_without_the_method_for_what_it_follows_is_refused_by_name(make_window, monkeypatch: pytest.MonkeyPatch):
    right = Qt.DockWidgetArea.RightDockWidgetArea
    silent = Pane("silent", "Silent", lambda making: QLabel(making.window), Spot(right), follows=Follows.TURN)
    monkeypatch.setattr(dock_table, "PANES", (*dock_table.PANES, silent))
    before = set(QApplication.topLevelWidgets())
    with pytest.raises(AttributeError, match="show_turn"):
        make_window()
    # The window left half made; its other top-level widgets (pyqtgraph's menus' forms) are owned by it.
    for widget in set(QApplication.topLevelWidgets()) - before:
        if isinstance(widget, MainWindow):
            widget.deleteLater()
