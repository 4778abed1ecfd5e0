"""GUI fixtures: settings isolated per test, the real main window on a copy of a sample log,
real key presses to whatever has the focus, and answering modal dialogs from the test.

Every test here fails on a Qt warning (pytest-qt's qt_log_level_fail), except the
offscreen platform's own notice that it cannot propagate size hints.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from annotator.gui.main_window import MainWindow
from annotator.gui.settings import AppSettings

OFFSCREEN_NOTICES = r"This plugin does not support"


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOTICES))


@pytest.fixture(autouse=True)
def isolated_settings(qapp, tmp_path: Path):
    """Each test gets its own empty INI settings under tmp_path, never the user's."""
    folder = tmp_path / "settings"
    folder.mkdir()
    previous = (QCoreApplication.organizationName(), QCoreApplication.applicationName())
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    QCoreApplication.setOrganizationName(f"annotator-tests-{uuid.uuid4().hex}")
    QCoreApplication.setApplicationName("annotator-gui-tests")
    yield folder
    QCoreApplication.setOrganizationName(previous[0])
    QCoreApplication.setApplicationName(previous[1])


@pytest.fixture
def settings(isolated_settings) -> AppSettings:
    return AppSettings()


@pytest.fixture
def raw_log(absolute_audio_log: Path) -> Path:
    """A writable copy of a sample log with no annotations (travel-20261121-002)."""
    return absolute_audio_log


@pytest.fixture
def make_window(qtbot) -> Callable[..., MainWindow]:
    """Build a shown, active main window (optionally on PATH) with its own isolated settings."""

    windows: list[MainWindow] = []

    def make(path: Path | None = None) -> MainWindow:
        window = MainWindow()
        windows.append(window)  # closed below, not by qtbot: its teardown comes before ours
        window.show()
        window.activateWindow()
        qtbot.waitExposed(window)
        qtbot.waitUntil(window.isActiveWindow)
        if path is not None:
            assert window.open_path(path)
        return window

    yield make
    for window in windows:  # a test's unsaved edits must not ask at teardown
        window.controller.pending_edit_flushers.clear()
        window.undo_stack.setClean()
        window.close()
        window.deleteLater()


@pytest.fixture
def main_window(make_window, raw_log: Path) -> MainWindow:
    """The main window on a copy of the unannotated sample log travel-20261121-002."""
    return make_window(raw_log)


def focused(window: QWidget) -> QWidget:
    return QApplication.focusWidget() or window


def press(qtbot, window: QWidget, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A real key press delivered where the keyboard would deliver it: the focus widget."""
    qtbot.keyClick(focused(window), key, modifiers)


def type_text(qtbot, window: QWidget, text: str) -> None:
    qtbot.keyClicks(focused(window), text)


class ModalAnswer:
    """Answers the next modal dialog (message box or file dialog) once it appears."""

    def __init__(self, button: QMessageBox.StandardButton | None = None, file: Path | None = None,
                 patience_ms: int = 10000):
        self.button = button
        self.file = file
        self.text: str | None = None
        self.title: str | None = None
        self.answered = False
        self._tries = patience_ms // 20
        QTimer.singleShot(0, self._poll)

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            self._tries -= 1
            if self._tries > 0:
                QTimer.singleShot(20, self._poll)
            return
        self.title = dialog.windowTitle()
        if isinstance(dialog, QMessageBox):
            self.text = dialog.text()
            dialog.button(self.button or QMessageBox.StandardButton.Ok).click()
        elif isinstance(dialog, QFileDialog):
            self.text = dialog.windowTitle()
            if self.file is None:
                dialog.reject()
            else:
                dialog.selectFile(str(self.file))
                dialog.accept()
        else:
            dialog.close()
        self.answered = True


@pytest.fixture
def answer_modal() -> Callable[..., ModalAnswer]:
    """answer_modal(QMessageBox.StandardButton.Discard) before the action that opens the dialog."""
    return ModalAnswer
