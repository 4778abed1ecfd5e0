"""GUI fixtures, for every test below tests/gui (its feature folders too): settings isolated per test, the real
main window on a copy of a sample log, answering modal dialogs from the test, and the logs several feature folders
open. Real key presses to whatever has the focus and the dialog answers themselves are in tests/support
(gui_keys.py, modal_answers.py).

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
from lxml import etree
from PySide6.QtCore import QCoreApplication, QEvent, QSettings

import annotator.gui.opening.opener as opener
from annotator.gui.app import parts_of
from annotator.gui.main_window import MainWindow
from annotator.gui.runtime.collector import GuiThreadCollector
from annotator.gui.settings import AppSettings
from annotator.gui.theme import applied_theme, apply_theme
from tests.support.background_open import LONG_TURNS, write_big_log
from tests.support.error_records import ErrorRecords
from tests.support.long_session import make_long_session
from tests.support.modal_answers import BoxAnswers, ModalAnswer, forget_waiting_answers

OFFSCREEN_NOTICES = r"This plugin does not support"


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).is_relative_to(here):
            item.add_marker(pytest.mark.qt_log_level_fail("WARNING"))
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOTICES))


def pytest_configure(config):
    config.addinivalue_line("markers", "logs_a_bug: the test makes a background task log a bug on purpose")


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
    errors = ErrorRecords()
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
    # No aligner process for every window a test makes (a second of CPU each): the tests of the words placed on
    # a turn's audio turn it back on (tests/gui/listening/conftest.py).
    AppSettings().place_words = False
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
    """The window as the app composes it (annotator.gui.app.build_window): turn table, editor, every
    dock, playback, isolated settings."""
    from annotator.gui.app import build_window

    windows: list[MainWindow] = []

    def make(path: Path | None = None) -> MainWindow:
        """A shown, active window (optionally on PATH); closed at the end without asking about a test's unsaved
        edits."""
        window = build_window()
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


@pytest.fixture
def main_window(make_window, raw_log: Path) -> MainWindow:
    """The composed window on a copy of the unannotated sample log travel-20261121-002."""
    return make_window(raw_log)


@pytest.fixture(autouse=True)
def modal_answers_end_with_the_test():
    """A dialog a test armed an answer for and never opened is not answered in the next test."""
    yield
    forget_waiting_answers()


@pytest.fixture
def answer_modal() -> Callable[..., ModalAnswer]:
    """answer_modal(QMessageBox.StandardButton.Discard) before the action that opens the dialog."""
    return ModalAnswer


@pytest.fixture
def boxes():
    """boxes("Restore", ...) answers every message box with the first of those buttons it has (else its
    default) until the test ends or asks for other answers; .seen lists what was asked."""
    made: list[BoxAnswers] = []

    def make(*answers: str) -> BoxAnswers:
        for earlier in made:
            earlier.stop()
        made.append(BoxAnswers(*answers))
        return made[-1]

    yield make
    for answers in made:
        answers.stop()


@pytest.fixture(scope="module")
def big_log(tmp_path_factory) -> Path:
    """A multi-megabyte log: the sample's session repeated, each copy with an id of its own (background_open.py)."""
    return write_big_log(tmp_path_factory.mktemp("big"))


@pytest.fixture(scope="module")
def long_log(tmp_path_factory) -> Path:
    """One session of LONG_TURNS turns, alternating system and user (long_session.py, the benchmark's shape)."""
    assert LONG_TURNS >= opener.PREPARE_AFTER_PAINT_TURNS
    return make_long_session(tmp_path_factory.mktemp("long") / "long-hublog.xml", LONG_TURNS)


@pytest.fixture
def two_session_log(corpus: Path) -> Path:
    """One log holding sample sessions 002 and 001 (in that order); the second begins with a user turn."""
    first = etree.parse(str(corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"))
    second = etree.parse(str(corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml")).getroot()[0]
    opening = second.find("GC_TURN")
    second.remove(opening)  # the welcome prompt: the session now opens with the caller speaking
    first.getroot().append(second)
    target = corpus / "travel-20261121-002" / "two-sessions-hublog.xml"
    first.write(str(target), encoding="UTF-8", xml_declaration=True)
    return target
