"""Edit > Preferences (Ctrl+,): a page per group of PREFERENCES, and a Keys page that opens the keyboard
dialog. Each change is stored and applied at once (Preferences.set); "Restore defaults" resets one page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from annotator.gui.preferences.table import PAGES, on_page
from annotator.gui.preferences.widgets import CheckWidget, PreferenceWidget, make_widget

if TYPE_CHECKING:
    from annotator.gui.preferences.controller import Preferences

KEYS_PAGE = "Keys"


class PreferencesDialog(QDialog):
    def __init__(self, preferences: Preferences, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.setObjectName("preferences_dialog")
        self.preferences = preferences
        self.widgets: dict[str, PreferenceWidget] = {}
        self.restore_buttons: dict[str, QPushButton] = {}
        self.page_list = QListWidget(self)
        self.page_list.setObjectName("preference_pages")
        self.pages = QStackedWidget(self)
        for page in PAGES:
            self.page_list.addItem(page)
            self.pages.addWidget(self._page(page))
        self.page_list.addItem(KEYS_PAGE)
        self.pages.addWidget(self._keys_page())
        self.page_list.setFixedWidth(self.page_list.sizeHintForColumn(0) + 24)
        self.page_list.currentRowChanged.connect(self.pages.setCurrentIndex)
        self.page_list.setCurrentRow(0)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        body = QHBoxLayout()
        body.addWidget(self.page_list)
        body.addWidget(self.pages, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        layout.addWidget(buttons)
        for button in self.findChildren(QPushButton):
            button.setAutoDefault(False)  # Return confirms a number typed in a box; it must not restore defaults
        preferences.changed.connect(self._show_value)
        self.show_values()
        self.resize(620, 420)

    def _page(self, page: str) -> QWidget:
        widget = QWidget(self.pages)
        form = QFormLayout()
        for preference in on_page(page):
            editor = make_widget(preference, widget)
            editor.edited.connect(lambda value, name=preference.name: self.preferences.set(name, value))
            self.widgets[preference.name] = editor
            if isinstance(editor, CheckWidget):
                form.addRow(editor)  # the box carries its label
            else:
                form.addRow(preference.label + ":", editor)
        restore = QPushButton("Restore &defaults", widget)
        restore.setObjectName(f"restore_{page.lower()}")
        restore.setToolTip(f"Put every {page} setting back to what it is when the annotator is new")
        restore.clicked.connect(lambda: self.preferences.restore(page))
        self.restore_buttons[page] = restore
        layout = QVBoxLayout(widget)
        layout.addLayout(form)
        layout.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        if any(preference.name == "zoom" for preference in on_page(page)):
            reset = QPushButton("Reset the window &layout", widget)
            reset.setObjectName("reset_layout")
            reset.setToolTip("As View > Reset layout: the window's default arrangement for this screen")
            reset.clicked.connect(self.preferences.reset_layout)
            row.addWidget(reset)
        row.addWidget(restore)
        layout.addLayout(row)
        return widget

    def _keys_page(self) -> QWidget:
        widget = QWidget(self.pages)
        text = QLabel(
            "Every action's keys can be changed: record a key for it, or clear it. "
            "Keys bound to two actions must be resolved before saving.",
            widget,
        )
        text.setWordWrap(True)
        self.keys_button = QPushButton("&Keyboard shortcuts…", widget)
        self.keys_button.setObjectName("edit_keys")
        self.keys_button.clicked.connect(self.preferences.show_keys)
        layout = QVBoxLayout(widget)
        layout.addWidget(text)
        row = QHBoxLayout()
        row.addWidget(self.keys_button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addStretch(1)
        return widget

    def show_page(self, page: str) -> None:
        self.page_list.setCurrentRow([*PAGES, KEYS_PAGE].index(page))

    def show_values(self) -> None:
        for name in self.widgets:
            self._show_value(name)

    def _show_value(self, name: str) -> None:
        if name in self.widgets:
            self.widgets[name].show_value(getattr(self.preferences.settings, name))

    def showEvent(self, event: QShowEvent) -> None:
        self.show_values()  # a menu may have changed a setting while the dialog was away
        super().showEvent(event)
