"""Run by tests/gui/appearance/test_layout.py in an interpreter whose offscreen screen has one size:
`save SETTINGS LOG`: the real window on LOG, Compare open and tall, the editor dragged over the table, closed
(its layout stored in SETTINGS); `check SETTINGS LOG WIDTHxHEIGHT`: the window started on that stored layout
(saved on a WIDTHxHEIGHT screen) prints one line of JSON: what it shows."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDockWidget

from annotator.gui.app import parts_of


def main(mode: str, settings: str, log: str, saved: str = "") -> None:
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings)
    from annotator.gui.app import build_window, make_application

    app = make_application()
    window = build_window()
    window.show()
    QTest.qWaitForWindowExposed(window)
    assert parts_of(window).navigator.open_path(Path(log))
    QTest.qWait(100)
    if mode == "save":
        assert parts_of(window).compare.show_compare()
        window.resizeDocks([parts_of(window).compare.dock], [window.height()], Qt.Orientation.Vertical)
        window.splitter.setSizes([1, sum(window.splitter.sizes())])
        QTest.qWait(50)
    else:
        QTest.qWait(200)
        screen = app.primaryScreen().availableGeometry()
        docks = [
            dock for dock in window.findChildren(QDockWidget) if dock.isVisible() and not dock.visibleRegion().isEmpty()
        ]
        outside = [
            dock.objectName()
            for dock in docks
            if not screen.contains(dock.mapToGlobal(dock.rect().topLeft()))
            or not screen.contains(dock.mapToGlobal(dock.rect().bottomRight()))
        ]
        table = window.table
        print(
            json.dumps(
                {
                    "saved": saved,
                    "screen": [screen.width(), screen.height()],
                    "window": [window.frameGeometry().width(), window.frameGeometry().height()],
                    "on_screen": screen.contains(window.frameGeometry()),
                    "docks_outside": outside,
                    "rows": table.viewport().height() / table.verticalHeader().defaultSectionSize(),
                }
            ),
            flush=True,
        )
    parts_of(window).controller.undo_stack.setClean()
    parts_of(window).playback.close()
    window.close()
    QApplication.processEvents()


if __name__ == "__main__":
    main(*sys.argv[1:])
