"""Start the desktop application: `annotator gui [PATH]` and `annotator [PATH]` land here."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from annotator import __version__
from annotator.gui.about import app_icon
from annotator.gui.main_window import APP_TITLE, MainWindow
from annotator.gui.workspace import Workspace
from annotator.resources import sample_session_path

ORGANISATION = "Communicator Annotator"
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
        QApplication.setOrganizationName(ORGANISATION)
        QApplication.setApplicationName(APPLICATION)
        app = QApplication(argv if argv is not None else sys.argv[:1])
    app.setApplicationDisplayName(APP_TITLE)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    QGuiApplication.setDesktopFileName("io.github.communicator_annotator")  # Wayland matches the menu entry
    return app


def build_window() -> MainWindow:
    """The main window with every dock and playback wired, its layout restored."""
    window = MainWindow()
    window.workspace = Workspace(window)
    window.restore_layout()
    return window


def run_app(path: str | Path | None = None) -> int:
    """Open PATH (a log, or a folder: its first log), or the sample session; run until the window closes.

    With ANNOTATOR_SMOKE_TEST=1 the app quits once the window has been shown
    and says what it opened (the packaged build's smoke test uses it).
    """
    app = make_application()
    window = build_window()
    window.show()
    target = Path(path) if path is not None else sample_session()
    if os.environ.get("ANNOTATOR_SMOKE_TEST"):
        QTimer.singleShot(200, lambda: _end_smoke_test(window, target))
    if target is not None:
        window.open_path(target)
    status = app.exec()
    window.workspace.playback.close()
    return status


def _end_smoke_test(window: MainWindow, target: Path | None) -> None:
    """Say what opened and close, dismissing an error box a broken TARGET raised (without saving)."""
    dialog = QApplication.activeModalWidget()
    if dialog is not None:
        dialog.close()
    document = window.document
    opened = document is not None and target is not None and document.path.resolve() == _log_in(target)
    turns = sum(len(s.turns) for s in document.sessions) if document else 0
    print(f"smoke test: opened={opened} turns={turns} path={target}", flush=True)
    window.undo_stack.setClean()
    window.close()


def _log_in(target: Path) -> Path:
    from annotator.corpus.paths import expand_log_paths

    logs = expand_log_paths([target]) if target.is_dir() else [target]
    return logs[0].resolve() if logs else target.resolve()
