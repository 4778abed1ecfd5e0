"""Help > Keyboard shortcuts (F1): every action of the table with its keys, which the annotator can rebind.

Select an action, record a key in the box below and Set it (or Clear its keys, or go back to its
Default); a key bound to two actions is named under the table and Save stays disabled until it is
resolved. Save stores only what differs from the table's defaults (gui/preferences/key_bindings.py) and the
window's actions take the keys at once. Without KeyBindings the dialog only lists the default keys.

A key that types text (a plain letter, digit, Space, Return...: gui/keyboard.py) is refused with the reason.
Escape while the box records cancels the recording (the focus goes back to the table); the next one
closes the dialog.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QKeySequenceEdit,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.gui.actions import ACTIONS, plain_menu_name
from annotator.gui.keyboard import typing_key_reason
from annotator.gui.preferences.key_bindings import KeyBindings, Keys, conflicts, default_keys, portable

KEYS_COLUMN = 0
CLASH_MARK = "\u26a0 "  # before the keys of an action that shares one with another


def native(keys: tuple[str, ...]) -> str:
    """The keys as the platform writes them (e.g. "Ctrl+Return, Ctrl+Enter")."""
    return ", ".join(QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) for key in keys)


class ShortcutsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, bindings: KeyBindings | None = None):
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.setObjectName("shortcuts_dialog")
        self.bindings = bindings
        self.pending: Keys = dict(bindings.effective) if bindings is not None else default_keys()
        shown = ACTIONS if bindings is not None else [s for s in ACTIONS if s.keys]
        self.names = [action_spec.name for action_spec in shown]
        self.table = QTableWidget(len(shown), 3, self)
        self.table.setHorizontalHeaderLabels(["Keys", "Action", "Menu"])
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        self.table.setShowGrid(False)
        self.table.setAlternatingRowColors(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        for row, action_spec in enumerate(shown):
            for column, text in enumerate(("", action_spec.text.replace("&", ""), plain_menu_name(action_spec.menu))):
                item = QTableWidgetItem(text)
                item.setToolTip(action_spec.tip)
                self.table.setItem(row, column, item)
        self._show_keys()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        if bindings is not None:
            layout.addLayout(self._editing_row())
            self.problem = QLabel(self)
            self.problem.setObjectName("key_conflict")
            self.problem.setWordWrap(True)
            layout.addWidget(self.problem)
            buttons = QDialogButtonBox(
                QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
            )
            self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
            restore = buttons.addButton("Restore all defaults", QDialogButtonBox.ButtonRole.ResetRole)
            restore.clicked.connect(self.restore_all_defaults)
            buttons.accepted.connect(self.save)
            self.table.currentCellChanged.connect(lambda *_: self._show_selected())
            self._check()
        else:
            buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        wanted = 120 + (len(shown) + 3) * (self.table.fontMetrics().height() + 8)
        room = self.screen().availableGeometry().height() * 9 // 10  # the table scrolls beyond that
        self.resize(640, min(wanted, room))

    def _editing_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.selected_label = QLabel("Select an action, then press its new key here:", self)
        self.recorder = QKeySequenceEdit(self)
        self.recorder.setObjectName("key_recorder")
        self.recorder.setMinimumWidth(self.fontMetrics().horizontalAdvance("Ctrl+Shift+PgDown") + 24)
        self.recorder.setMaximumSequenceLength(1)  # one chord: the window's keys are chords, never sequences
        self.set_button = QPushButton("&Set", self)
        self.set_button.setToolTip("Make the recorded key the selected action's only key")
        self.clear_button = QPushButton("C&lear", self)
        self.clear_button.setToolTip("Remove the selected action's keys (it stays in its menu)")
        self.default_button = QPushButton("&Default", self)
        self.default_button.setToolTip("Give the selected action its keys from the table again")
        self.set_button.clicked.connect(self.set_recorded_key)
        self.recorder.editingFinished.connect(self.set_recorded_key)  # one chord recorded: it is the choice
        self.clear_button.clicked.connect(lambda: self.set_keys(()))
        self.default_button.clicked.connect(self._set_default_keys)
        self.recorder.installEventFilter(self)  # Escape cancels the recording instead of being recorded
        for widget in (self.selected_label, self.recorder, self.set_button, self.clear_button, self.default_button):
            row.addWidget(widget)
        row.setStretch(1, 1)
        self._show_selected()
        return row

    # --- what the annotator does ----------------------------------------------------------
    def select(self, name: str) -> None:
        self.table.setCurrentCell(self.names.index(name), 1)

    def selected_name(self) -> str | None:
        row = self.table.currentRow()
        return self.names[row] if 0 <= row < len(self.names) else None

    def set_recorded_key(self) -> None:
        key = portable(self.recorder.keySequence())
        if not key:
            return
        reason = typing_key_reason(key)
        if reason is not None:
            self.recorder.clear()
            self.problem.setText(reason + ".")
            self.problem.setStyleSheet("font-weight: bold")
            return
        self.set_keys((key,))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.recorder
            and event.type() in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress)
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Escape
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        ):
            if event.type() == QEvent.Type.KeyPress:
                self.recorder.clear()
                self.table.setFocus(Qt.FocusReason.OtherFocusReason)
            event.accept()
            return True
        return super().eventFilter(watched, event)

    def set_keys(self, keys: tuple[str, ...]) -> None:
        name = self.selected_name()
        if name is None:
            return
        self.pending[name] = tuple(keys)
        self.recorder.clear()
        self._show_keys()
        self._check()

    def _set_default_keys(self) -> None:
        """The selected action's keys from the table again (the button is enabled while one is selected)."""
        name = self.selected_name()
        if name is not None:
            self.set_keys(default_keys()[name])

    def restore_all_defaults(self) -> None:
        self.pending = default_keys()
        self._show_keys()
        self._check()

    def save(self) -> None:
        if self.bindings is None or conflicts(self.pending):
            return
        self.bindings.save(self.pending)
        self.accept()

    # --- what the dialog shows ------------------------------------------------------------
    def listed_keys(self) -> list[str]:
        keys = (self._item(row, KEYS_COLUMN).text() for row in range(self.table.rowCount()))
        return [text.removeprefix(CLASH_MARK) for text in keys if text]

    def conflict_text(self) -> str:
        return self.problem.text() if self.bindings is not None else ""

    def _show_keys(self) -> None:
        for row, name in enumerate(self.names):
            item = self._item(row, KEYS_COLUMN)
            item.setText(native(self.pending[name]))
            font = item.font()
            font.setBold(self.pending[name] != default_keys()[name])  # the user's own keys stand out
            item.setFont(font)

    def _show_selected(self) -> None:
        name = self.selected_name()
        for button in (self.set_button, self.clear_button, self.default_button):
            button.setEnabled(name is not None)
        self.recorder.setEnabled(name is not None)
        if name is not None:
            text = self._item(self.names.index(name), 1).text()
            self.selected_label.setText(f"New key for \u201c{text}\u201d:")

    def _check(self) -> None:
        found = conflicts(self.pending)
        self.problem.setText(
            "; ".join(conflict.describe() for conflict in found)
            + (". Give one of them another key (or Clear it) to save." if found else "")
        )
        self.save_button.setEnabled(not found)
        self.save_button.setToolTip("Resolve the conflicting keys first" if found else "Keep these keys")
        self.problem.setStyleSheet("font-weight: bold" if found else "")
        for row, name in enumerate(self.names):
            clash = any(name in conflict.actions for conflict in found)
            self._item(row, KEYS_COLUMN).setText((CLASH_MARK if clash else "") + native(self.pending[name]))

    def _item(self, row: int, column: int) -> QTableWidgetItem:
        """The item of a cell: the dialog gives every cell of its table one when it is made."""
        item = self.table.item(row, column)
        assert item is not None, "every cell of the table has its item"
        return item
