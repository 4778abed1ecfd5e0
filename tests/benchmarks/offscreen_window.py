"""What a benchmark of the real window sets up before it makes one: the offscreen platform with a
laptop's screen, and a data folder, a cache folder and settings of its own in a fresh temporary folder, so no run
reads or leaves the user's journal, recent files or last positions."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

# The offscreen platform's own screen is 800x600, narrower than the window's minimum width: a window
# resized to a laptop's size would stay clipped to it and grow back while it is measured.
SCREEN = (1366, 768)


def isolated_offscreen(prefix: str) -> Path:
    """Set it up (before the application is made); return the temporary folder."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    screen = folder / "offscreen-screen.json"
    width, height = SCREEN
    screen.write_text(
        json.dumps(
            {
                "screens": [
                    {
                        "name": "laptop",
                        "x": 0,
                        "y": 0,
                        "width": width,
                        "height": height,
                        "logicalDpi": 96,
                        "logicalBaseDpi": 96,
                        "dpr": 1,
                    }
                ]
            }
        )
    )
    os.environ.setdefault("QT_QPA_PLATFORM", f"offscreen:configfile={screen}")
    os.environ.setdefault("ANNOTATOR_DATA_DIR", str(folder / "data"))
    os.environ.setdefault("ANNOTATOR_CACHE_DIR", str(folder / "cache"))  # the corpus index (corpus_index)
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder / "settings"))
    return folder
