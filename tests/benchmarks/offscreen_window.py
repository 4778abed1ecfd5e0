"""What a benchmark of the real window sets up before it makes one: the offscreen platform, and a
data folder and settings of its own in a fresh temporary folder, so no run reads or leaves the
user's journal, recent files or last positions."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings


def isolated_offscreen(prefix: str) -> Path:
    """Set it up (before the application is made); return the temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("ANNOTATOR_DATA_DIR", str(folder / "data"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder / "settings"))
    return folder
