"""The table of turns: one selected row at a time, compact rows, texts elided, F2 edits in place.

The in-place editor lets the window's keys through like the large editor
does, and commit_open_editor() stores a cell being edited before a save.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLineEdit, QStyledItemDelegate, QTableView, QWidget

from annotator.gui.models.turn_table import Column

COLUMN_WIDTHS = {Column.TURN: 56, Column.SPEAKER: 64, Column.START: 66, Column.DURATION: 60,
                 Column.RECOGNIZER: 220, Column.SYSTEM: 250, Column.WER: 64}
_UNDO, _REDO = QKeySequence("Ctrl+Z"), QKeySequence("Ctrl+Shift+Z")


class PassThroughLineEdit(QLineEdit):
    """The cell editor: the window's keys reach their actions (undo only once nothing is typed)."""

    def __init__(self, passthrough_keys: list[QKeySequence], parent: QWidget | None = None):
        super().__init__(parent)
        self.passthrough_keys = passthrough_keys

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride:
            modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            pressed = QKeySequence(event.key() | modifiers.value)
            local = (pressed == _UNDO and self.isUndoAvailable()) or (pressed == _REDO and self.isRedoAvailable())
            if not local and any(pressed == key for key in self.passthrough_keys):
                event.ignore()
                return True
        return super().event(event)


class TranscriptionDelegate(QStyledItemDelegate):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.passthrough_keys: list[QKeySequence] = []
        self.open_editor: QLineEdit | None = None

    def createEditor(self, parent: QWidget, option, index) -> QWidget:
        editor = PassThroughLineEdit(self.passthrough_keys, parent)
        editor.setFrame(False)
        self.open_editor = editor
        editor.destroyed.connect(self._forget_editor)
        return editor

    def _forget_editor(self) -> None:
        self.open_editor = None

    def destroyEditor(self, editor: QWidget, index) -> None:
        if editor is self.open_editor:
            self.open_editor = None
        super().destroyEditor(editor, index)


class TurnTableView(QTableView):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("turn_table")
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed | QAbstractItemView.EditTrigger.DoubleClicked)
        self.setAlternatingRowColors(True)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().hide()
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.delegate = TranscriptionDelegate(self)
        self.setItemDelegateForColumn(Column.TRANSCRIPTION, self.delegate)

    def setModel(self, model) -> None:
        super().setModel(model)
        header = self.horizontalHeader()
        for column, width in COLUMN_WIDTHS.items():
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            self.setColumnWidth(column, width)
        header.setSectionResizeMode(Column.TRANSCRIPTION, QHeaderView.ResizeMode.Stretch)

    def set_passthrough_keys(self, keys: list[QKeySequence]) -> None:
        self.delegate.passthrough_keys = list(keys)

    def commit_open_editor(self) -> None:
        """Store the cell being edited (before a save, a close, a move elsewhere)."""
        editor = self.delegate.open_editor
        if editor is not None:
            self.commitData(editor)

    def current_row(self) -> int:
        index = self.currentIndex()
        return index.row() if index.isValid() else -1
