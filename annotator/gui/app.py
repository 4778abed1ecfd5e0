"""Start the desktop application: `annotator gui [PATH]` and `annotator [PATH]` land here."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import NoReturn

from PySide6.QtCore import QThreadPool, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from annotator import __version__
from annotator.analysis.child_processes import stop_children
from annotator.gui.about import APP_NAME, app_icon
from annotator.gui.actions import Actions, Menus, bind_actions
from annotator.gui.appearance import Appearance
from annotator.gui.collector import GuiThreadCollector
from annotator.gui.compare.browser_entry import add_compare_entry
from annotator.gui.compare.controller import CompareController
from annotator.gui.corpus_search import CorpusSearch
from annotator.gui.document_controller import DocumentController
from annotator.gui.export_menu import ExportMenu
from annotator.gui.find_controller import FindController
from annotator.gui.flags_controller import FlagsController
from annotator.gui.main_window import MainWindow
from annotator.gui.markers_controller import MarkersController
from annotator.gui.navigation import Navigator
from annotator.gui.playback import Playback
from annotator.gui.preferences.controller import Preferences
from annotator.gui.recovery import RecoveryWatcher
from annotator.gui.replace_controller import ReplaceController
from annotator.gui.settings import DOUBT_ORDER, AppSettings
from annotator.gui.team_switch import TeamSwitch
from annotator.gui.workspace import Workspace
from annotator.resources import sample_session_path

APPLICATION = "annotator"


def sample_session() -> Path | None:
    """The bundled sample session (annotator.resources), or None if this install lacks it."""
    try:
        return sample_session_path()
    except FileNotFoundError:
        return None


def make_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if app is None:
        QApplication.setOrganizationName(APP_NAME)
        QApplication.setApplicationName(APPLICATION)
        app = QApplication(argv if argv is not None else sys.argv[:1])
    if app.findChild(GuiThreadCollector) is None:
        GuiThreadCollector(app)  # Qt objects in reference cycles are freed on the GUI thread only
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    QGuiApplication.setDesktopFileName("io.github.communicator_annotator")  # Wayland matches the menu entry
    return app


def build_window(settings: AppSettings | None = None) -> MainWindow:
    """The composition root: the settings, the document controller, playback, navigation, every panel
    and controller, connected, every action bound to its handler, in the shell; its layout restored."""
    settings = settings if settings is not None else AppSettings()
    window = MainWindow(settings)
    controller = DocumentController(window, settings)
    recovery = RecoveryWatcher(controller, window)
    actions, menus = window.install_menus(controller.undo_stack)
    playback = Playback(window)
    navigator = Navigator(window, controller, settings, actions, playback)
    workspace = Workspace(window, navigator, controller, playback, settings)
    markers = MarkersController(window, navigator, controller, workspace.timeline, workspace.browser)
    exports = ExportMenu(window, controller, lambda: workspace.corpus, menus.file, actions.close)
    window.controller, window.navigator, window.playback = controller, navigator, playback
    window.workspace, window.markers, window.exports = workspace, markers, exports
    window.recovery = recovery
    window.appearance = Appearance(settings, menus.view, navigator.table, navigator.editor)
    find = FindController(window, navigator, controller)
    window.search = SimpleNamespace(find=find, corpus=CorpusSearch(window, navigator, workspace, find),
                                    replace=ReplaceController(window, navigator, controller, workspace, find))
    window.team = TeamSwitch(controller, actions.team_mode, lambda: workspace.corpus)
    window.compare = CompareController(window, navigator, controller, beside=workspace.timeline_dock)
    add_compare_entry(workspace.browser, lambda file, index: workspace.open_session(file, index)
                      and window.compare.show_compare())
    window.may_close = controller.may_close
    window.closing.connect(recovery.release)
    window.closing.connect(stop_children)  # a validation still running must not keep the quitting process alive
    # A long session's facts are made on the panes' worker; the journal's reading would make them again meanwhile.
    workspace.panes.pending_changed.connect(recovery.hold_baseline_reading)
    workspace.panes.facts_made.connect(lambda _session: recovery.hold_baseline_reading(False))
    window.open_requested.connect(navigator.open_path)
    navigator.neighbour_session = workspace.neighbour_session
    window.flags = FlagsController(window, navigator, controller, settings)
    handlers = SimpleNamespace(window=window, controller=controller, navigator=navigator, editor=navigator.editor,
                               playback=playback, workspace=workspace, markers=markers, exports=exports,
                               timeline=workspace.timeline, team=window.team, appearance=window.appearance,
                               search=window.search, compare=window.compare, flags=window.flags)
    window.preferences = Preferences(window, settings, SimpleNamespace(
        actions=actions, menus=menus, navigator=navigator, workspace=workspace, playback=playback, controller=controller,
        appearance=window.appearance))
    _show_settings(settings, actions, menus, workspace)
    bind_actions(actions, handlers)
    window.preferences.start()  # the user's own keys, and the text fields let them through
    navigator.show_document(None)
    window.restore_layout()
    return window


def _show_settings(settings: AppSettings, actions: Actions, menus: Menus, workspace: Workspace) -> None:
    """Check the menus' settings as stored; the speed choices follow the Playback > Speed group."""
    for action in menus.speeds.actions():
        action.setChecked(abs(action.data() - settings.speed) < 1e-9)
    menus.speeds.triggered.connect(lambda action: workspace.set_speed(float(action.data())))
    actions.auto_play.setChecked(settings.auto_play)
    actions.loop.setChecked(settings.loop)
    actions.spectrogram.setChecked(settings.show_spectrogram)
    actions.prefill_automatically.setChecked(settings.prefill_automatically)
    actions.doubtful_first.setChecked(settings.next_turn_order == DOUBT_ORDER)


def run_app(path: str | Path | None = None, annotator: str | None = None) -> int:
    """Open PATH (a log, or a folder: its first log), or the sample session; run until the window closes.

    With ANNOTATOR_SMOKE_TEST=1 the app quits once the window has been shown
    and says what it opened (the packaged build's smoke test uses it). ANNOTATOR (`--annotator NAME`)
    is who annotates, for this run only.
    """
    app = make_application()
    settings = AppSettings()
    settings.annotator_for_this_run = annotator
    window = build_window(settings)
    window.show()
    target = Path(path) if path is not None else sample_session()
    if os.environ.get("ANNOTATOR_SMOKE_TEST"):
        QTimer.singleShot(200, lambda: _end_smoke_test(window, target))
    if target is not None:
        window.navigator.open_path(target)
    status = app.exec()
    window.playback.close()
    end_process(status)


def end_process(status: int) -> NoReturn:
    """End the process once its window has closed, without tearing down what it held.

    What must outlive the window is done by then: the settings synced and the journal released as it
    closed, its child processes told to stop (stop_children), every task asked to stop (BackgroundTask
    cancels on quit). The workers of the shared pool are waited for, so a write they were asked for (the
    other logs of a replace) is finished; then the process ends. Freeing a big log's tree, Qt's objects
    and the interpreter would take a second more, for nothing."""
    QThreadPool.globalInstance().waitForDone()
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def _end_smoke_test(window: MainWindow, target: Path | None) -> None:
    """Say what opened and close, dismissing an error box a broken TARGET raised (without saving);
    while the log is still being read, look again a little later."""
    if window.controller.opener.busy:
        QTimer.singleShot(50, lambda: _end_smoke_test(window, target))
        return
    dialog = QApplication.activeModalWidget()
    if dialog is not None:
        dialog.close()
    document = window.controller.document
    opened = document is not None and target is not None and document.path.resolve() == _log_in(target)
    turns = sum(len(s.turns) for s in document.sessions) if document else 0
    print(f"smoke test: opened={opened} turns={turns} path={target}", flush=True)
    window.controller.undo_stack.setClean()
    window.close()


def _log_in(target: Path) -> Path:
    from annotator.corpus.paths import expand_log_paths

    logs = expand_log_paths([target]) if target.is_dir() else [target]
    return logs[0].resolve() if logs else target.resolve()
