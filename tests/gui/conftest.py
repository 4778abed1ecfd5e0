"""GUI fixtures: settings isolated per test, the real main window on a copy of a sample log,
real key presses to whatever has the focus, and answering modal dialogs from the test.

Every test here fails on a Qt warning (pytest-qt's qt_log_level_fail), except the
offscreen platform's own notice that it cannot propagate size hints, and on any
unhandled exception (fail_on_unhandled_exceptions below).
"""

from __future__ import annotations

import gc
import logging
import sys
import threading
import traceback
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QWidget

from annotator.gui.app import parts_of
from annotator.gui.main_window import MainWindow
from annotator.gui.runtime.collector import GuiThreadCollector
from annotator.gui.settings import AppSettings
from annotator.gui.theme import applied_theme, apply_theme

OFFSCREEN_NOTICES = r"This plugin does not support"


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOTICES))


class _ErrorRecords(logging.Handler):
    """Error records of the annotator's own loggers: a background task's bug is logged, not raised."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def pytest_configure(config):
    config.addinivalue_line("markers", "logs_a_bug: the test makes a background task log a bug on purpose")


@pytest.fixture(scope="package", autouse=True)
def no_automatic_collection_while_windows_live():
    """Python's automatic collector stays off from the first GUI test to the last, as it stays off for the
    application's whole life (gui/runtime/collector.py). Each test's collector gives collection back when it
    ends; between two tests, a thread a closed window left running (its validation, its corpus scan) would
    then collect on its own thread whatever cycles hold Qt objects, destroying widgets on the wrong thread,
    and the process died later in an unrelated test (a segfault inside an open's event loop)."""
    enabled = gc.isenabled()
    gc.disable()
    yield
    gc.collect()
    if enabled:
        gc.enable()


@pytest.fixture(autouse=True)
def fail_on_unhandled_exceptions(qapp, request):
    """Fail the test on any exception nobody handled: in a slot or event handler (sys.excepthook;
    pytest-qt swaps in its own equivalent hook during each phase), on another thread, in a
    destructor or finaliser, or logged as a bug by a background task. Windows the test left for
    deferred deletion are destroyed here, while still watching: destruction runs slots too
    (an undo stack announces cleanChanged as it dies). Cycles are collected on the GUI thread only,
    as in the application (gui/runtime/collector.py), and what the test left is collected here too."""
    collector = GuiThreadCollector(qapp)
    caught: list[str] = []
    saved = sys.excepthook, threading.excepthook, sys.unraisablehook

    def record(kind, value, trace) -> None:
        caught.append("".join(traceback.format_exception(kind, value, trace)))

    sys.excepthook = record
    threading.excepthook = lambda args: record(args.exc_type, args.exc_value, args.exc_traceback)
    sys.unraisablehook = lambda raised: record(raised.exc_type, raised.exc_value, raised.exc_traceback)
    errors = _ErrorRecords()
    logging.getLogger("annotator").addHandler(errors)
    try:
        yield
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        gc.collect()
    finally:
        collector.uninstall()
        logging.getLogger("annotator").removeHandler(errors)
        sys.excepthook, threading.excepthook, sys.unraisablehook = saved
    if request.node.get_closest_marker("logs_a_bug") is not None:
        errors.lines.clear()
    if caught or errors.lines:
        pytest.fail("unhandled exception(s):\n" + "\n".join(caught + errors.lines), pytrace=False)


@pytest.fixture(autouse=True)
def desktop_theme_after(qapp):
    """The theme is the application's, not a window's: a test that chose one leaves the desktop's behind."""
    yield
    if applied_theme(qapp) != "system":
        apply_theme(qapp, "system")


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


def _windows(qtbot, build: Callable[[], MainWindow]):
    """make(path=None) -> a shown, active window from BUILD (optionally on PATH); closed at the end
    without asking about a test's unsaved edits."""
    windows: list[MainWindow] = []

    def make(path: Path | None = None) -> MainWindow:
        window = build()
        windows.append(window)  # closed below, not by qtbot: its teardown comes before ours
        window.show()
        window.activateWindow()
        qtbot.waitExposed(window)
        qtbot.waitUntil(window.isActiveWindow)
        if path is not None:
            assert parts_of(window).navigator.open_path(path)
        return window

    yield make
    for window in windows:
        if not shiboken6.isValid(window):
            continue  # the test destroyed it
        parts_of(window).controller.pending_edit_flushers.clear()
        parts_of(window).controller.typing_sources.clear()
        parts_of(window).controller.undo_stack.setClean()
        parts_of(window).playback.close()
        window.close()
        window.deleteLater()


def close_window(window: MainWindow) -> None:
    """Close WINDOW now, as the annotator would, without the question about a test's unsaved edits
    (closing saves its layout: a test reopens a window to see what was kept)."""
    parts_of(window).controller.undo_stack.setClean()
    parts_of(window).playback.close()
    window.close()


@pytest.fixture
def make_window(qtbot) -> Callable[..., MainWindow]:
    """The window as the app composes it (annotator.gui.app.build_window): turn table, editor, every
    dock, playback, isolated settings."""
    from annotator.gui.app import build_window

    yield from _windows(qtbot, build_window)


@pytest.fixture
def main_window(make_window, raw_log: Path) -> MainWindow:
    """The composed window on a copy of the unannotated sample log travel-20261121-002."""
    return make_window(raw_log)


def focused(window: QWidget) -> QWidget:
    return QApplication.focusWidget() or window


def press(qtbot, window: QWidget, key: Qt.Key, modifiers=Qt.KeyboardModifier.NoModifier) -> None:
    """A real key press delivered where the keyboard would deliver it: the focus widget."""
    qtbot.keyClick(focused(window), key, modifiers)


def type_text(qtbot, window: QWidget, text: str) -> None:
    qtbot.keyClicks(focused(window), text)


def current_summary(browser):
    """The SessionSummary of the session browser's current row, or None: what the annotator sees selected."""
    from annotator.gui.widgets.roles import SUMMARY_ROLE

    return browser.table.currentIndex().data(SUMMARY_ROLE)


def metric_text(panel, name: str) -> str:
    """The value the Session metrics panel shows for metric NAME, as shown."""
    from annotator.gui.panes.metrics_panel import label

    return panel.findItems(label(name), Qt.MatchFlag.MatchExactly)[0].text(1)


_WAITING_FOR_MODALS: list[list[int]] = []  # each when_modal's tries left; the test's end sets them to 0


@pytest.fixture(autouse=True)
def modal_answers_end_with_the_test():
    """A dialog a test armed an answer for and never opened is not answered in the next test."""
    yield
    for tries in _WAITING_FOR_MODALS:
        tries[0] = 0
    _WAITING_FOR_MODALS.clear()


def when_modal(kind: type[QWidget], act: Callable[[QWidget], object], patience_ms: int = 10000) -> list:
    """Call ACT with the next modal dialog of class KIND once it shows, within PATIENCE_MS and the test:
    schedule it before the key or action that opens the dialog (whose call returns only when the dialog
    closes). The list returned gets what ACT returned."""
    results: list = []
    tries = [patience_ms // 20]
    _WAITING_FOR_MODALS.append(tries)

    def poll() -> None:
        if tries[0] <= 0:
            return  # the test ended
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            tries[0] -= 1
            if tries[0] > 0:
                QTimer.singleShot(20, poll)
            return
        results.append(act(dialog))

    QTimer.singleShot(0, poll)
    return results


def answer_input(qtbot, text: str) -> list[tuple[str, str]]:
    """Type TEXT into the next input dialog with real keys, over what it holds, and press Enter; the list
    gets (its label, the text it held) when it showed."""
    from PySide6.QtWidgets import QInputDialog, QLineEdit

    def answer(dialog: QInputDialog) -> tuple[str, str]:
        shown = (dialog.labelText(), dialog.textValue())
        field = dialog.findChild(QLineEdit)
        field.selectAll()
        qtbot.keyClick(field, Qt.Key.Key_Backspace)
        qtbot.keyClicks(field, text)
        qtbot.keyClick(field, Qt.Key.Key_Return)
        return shown

    return when_modal(QInputDialog, answer)


class ModalAnswer:
    """Answers the next modal dialog (message box or file dialog) once it appears."""

    def __init__(
        self, button: QMessageBox.StandardButton | None = None, file: Path | None = None, patience_ms: int = 10000
    ):
        self.button = button
        self.file = file
        self.text: str | None = None
        self.title: str | None = None
        self.answered = False
        when_modal(QWidget, self._answer, patience_ms)

    def _answer(self, dialog: QWidget) -> None:
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


@pytest.fixture
def boxes():
    """boxes("Restore", ...) answers every message box with the first of those buttons it has (else its
    default) until the test ends or asks for other answers; .seen lists what was asked."""
    from tests.gui.journal_helpers import BoxAnswers

    made: list[BoxAnswers] = []

    def make(*answers: str) -> BoxAnswers:
        for earlier in made:
            earlier.stop()
        made.append(BoxAnswers(*answers))
        return made[-1]

    yield make
    for answers in made:
        answers.stop()
