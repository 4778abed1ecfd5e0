"""The View menu's appearance: the Theme submenu (System / Light / Dark) and the zoom of the table and the editor.

The Preferences dialog shows the same two settings; it calls set_theme and zoom.set_zoom, which keep them.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QApplication, QMenu

from annotator.gui.appearance.zoom import Zoom, ZoomedEditor, ZoomedTable
from annotator.gui.settings import AppSettings
from annotator.gui.theme import THEMES, apply_theme

THEME_TEXTS = {
    "system": ("&System", "Follow the desktop's light or dark scheme"),
    "light": ("&Light", "Dark text on a light background, whatever the desktop shows"),
    "dark": ("&Dark", "Light text on a dark background, whatever the desktop shows"),
}


class Appearance:
    """The theme and the zoom of the window, from SETTINGS at the start and kept there when changed."""

    def __init__(self, settings: AppSettings, view_menu: QMenu, table: ZoomedTable, editor: ZoomedEditor):
        self.settings = settings
        self.zoom = Zoom(settings, table, editor)
        self.theme_menu = view_menu.addMenu("T&heme")
        self.theme_menu.setObjectName("theme_menu")
        self.themes = QActionGroup(view_menu)
        for name in THEMES:
            text, tip = THEME_TEXTS[name]
            action = QAction(text, self.theme_menu, checkable=True, statusTip=tip, toolTip=tip)
            action.setObjectName(f"theme_{name}")
            action.setData(name)
            self.themes.addAction(action)
            self.theme_menu.addAction(action)
        self.themes.triggered.connect(lambda action: self.set_theme(action.data()))
        self.set_theme(settings.theme)

    def set_theme(self, name: str) -> None:
        """Show theme NAME ("system", "light" or "dark"), check it in the menu, keep it in the settings."""
        name = name if name in THEMES else "system"
        self.settings.theme = name
        for action in self.themes.actions():
            action.setChecked(action.data() == name)
        app = QApplication.instance()
        assert isinstance(app, QApplication), "the window runs in a QApplication"
        apply_theme(app, name)

    def zoom_in(self) -> None:
        self.zoom.zoom_in()

    def zoom_out(self) -> None:
        self.zoom.zoom_out()

    def reset_zoom(self) -> None:
        self.zoom.reset_zoom()
