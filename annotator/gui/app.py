"""Start the desktop application: `annotator gui [PATH]` and `annotator [PATH]` land here."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtWidgets import QApplication

from annotator import __version__
from annotator.gui.main_window import APP_TITLE, MainWindow

ORGANISATION = "Communicator Annotator"
APPLICATION = "annotator"


def sample_session() -> Path | None:
    """The bundled sample session (annotator.resources), or None if this install lacks it."""
    try:
        from annotator.resources import sample_session_path
    except ImportError:  # an older resources module: look where a checkout keeps it
        candidate = (Path(__file__).resolve().parents[2] / "sample_logs" / "travel-20261121-001"
                     / "travel-20261121-001-hublog.xml")
        return candidate if candidate.is_file() else None
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
    return app


def run_app(path: str | Path | None = None) -> int:
    """Open PATH (a log, or a folder: its first log), or the sample session; run until the window closes."""
    app = make_application()
    window = MainWindow()
    window.restore_layout()
    window.show()
    target = Path(path) if path is not None else sample_session()
    if target is not None:
        window.open_path(target)
    return app.exec()
