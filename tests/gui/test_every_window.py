"""Every part of the window made, shown and closed: every module of annotator/gui imported, every dock shown with
a corpus open, every dialog opened from its menu entry and closed, the progress dialog of a slow open and a
question about unsaved work. scripts/test-qt-floor.sh runs this (and the other `qt_floor` tests) on the oldest
PySide6 and pyqtgraph pyproject.toml allows, where a call newer than the floor fails."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QInputDialog, QMessageBox

import annotator.gui
from annotator.gui.about import AboutDialog
from annotator.gui.app import parts_of
from annotator.gui.preferences.dialog import PreferencesDialog
from annotator.gui.preferences.keys_dialog import ShortcutsDialog
from annotator.gui.search.replace_dialog import ReplaceDialog
from tests.support.gui_keys import press, type_text
from tests.support.modal_answers import when_modal

pytestmark = pytest.mark.qt_floor

# Menu entries that open a dialog and wait for it (exec), and those that show one and return.
WAITED_FOR = {
    "open": QFileDialog,
    "save_as": QFileDialog,
    "export_csv": QFileDialog,
    "fold_from": QFileDialog,
    "load_markers": QFileDialog,
    "annotator_name": QInputDialog,
    "comment": QInputDialog,
    "replace_in_log": ReplaceDialog,
    "replace_in_corpus": ReplaceDialog,
}
SHOWN = {"preferences": PreferencesDialog, "shortcuts": ShortcutsDialog, "about": AboutDialog}


def test_every_module_of_the_window_imports():
    names = [info.name for info in pkgutil.walk_packages(annotator.gui.__path__, "annotator.gui.")]
    assert len(names) > 100
    for name in names:
        importlib.import_module(name)


@pytest.mark.slow
def test_every_dock_shows_with_a_corpus_open(qtbot, make_window, corpus: Path):
    window = make_window(corpus)
    parts = parts_of(window)
    parts.actions.spectrogram.setChecked(True)
    for dock in parts.docks:
        dock.show()
        dock.raise_()
        qtbot.waitUntil(lambda dock=dock: dock.widget().isVisible())
        assert dock.widget().width() > 0 and dock.widget().height() > 0, dock.objectName()
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)  # every dock follows a move
    assert parts.navigator.current_turn() is not None


@pytest.mark.parametrize("action", sorted(WAITED_FOR))
@pytest.mark.slow
def test_every_dialog_the_window_waits_for_opens_and_closes(qtbot, make_window, corpus: Path, action: str):
    window = make_window(corpus)
    seen = when_modal(QDialog, lambda dialog: (type(dialog), dialog.isVisible(), dialog.width(), dialog.close()))
    getattr(parts_of(window).actions, action).trigger()
    qtbot.waitUntil(lambda: bool(seen))
    kind, visible, width, _closed = seen[0]
    assert issubclass(kind, WAITED_FOR[action]) and visible and width > 0
    qtbot.waitUntil(window.isActiveWindow)


@pytest.mark.parametrize("action", sorted(SHOWN))
@pytest.mark.slow
def test_every_dialog_shown_beside_the_window_opens_and_closes(qtbot, make_window, raw_log: Path, action: str):
    window = make_window(raw_log)
    before = set(QApplication.topLevelWidgets())
    getattr(parts_of(window).actions, action).trigger()
    [dialog] = [w for w in QApplication.topLevelWidgets() if w not in before and isinstance(w, QDialog)]
    assert isinstance(dialog, SHOWN[action])
    qtbot.waitExposed(dialog)
    dialog.close()
    qtbot.waitUntil(lambda: not dialog.isVisible())


@pytest.mark.slow
def test_the_progress_of_an_open_and_the_question_about_unsaved_work(qtbot, make_window, raw_log: Path):
    big = raw_log.with_name("big-hublog.xml")  # megabytes: the read reports its progress
    tree = etree.parse(str(raw_log))
    session = tree.getroot().find("GC_SESSION")
    for number in range(200):
        copy = etree.fromstring(etree.tostring(session))
        copy.set("id", f"{session.get('id')}-copy{number}")
        tree.getroot().append(copy)
    tree.write(str(big), xml_declaration=True, encoding="UTF-8")
    window = make_window()
    parts = parts_of(window)
    parts.controller.opener.show_progress_after_ms = 0  # the dialog shows at once
    shown: list[bool] = []
    parts.controller.opener.progressed.connect(
        lambda *_: shown.append(
            parts.controller.opener.dialog is not None and parts.controller.opener.dialog.isVisible()
        )
    )
    assert parts.navigator.open_path(big)
    assert shown and all(shown)
    type_text(qtbot, window, "unsaved words")
    asked = when_modal(QMessageBox, lambda box: (box.text(), box.button(QMessageBox.StandardButton.Cancel).click()))
    parts.actions.close.trigger()
    assert asked and parts.controller.document is not None, "Cancel keeps the log open"
