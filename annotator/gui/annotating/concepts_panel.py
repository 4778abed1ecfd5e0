"""The Concepts panel: the parser's frame of the selected user turn, read-only, above the annotator's
reference concepts, edited in a small table.

Every edit is one SetConcepts on the window's undo stack (annotations.set_concepts is the only writer):
a value or a slot's path changed in a cell, a slot added or removed, the frame renamed. An empty
reference starts as a copy of the parse at its first edit; Ctrl+K makes that copy at once and goes
into the table. The panel shows what the log holds: it reflects each concepts change of its turn
(undo included) heard from DocumentController.annotation_changed, and looking changes nothing.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.gui.annotating.turn_table_view import PassThroughLineEdit, TranscriptionDelegate
from annotator.gui.annotating.undo_commands import SetConcepts, push_if_changed
from annotator.gui.keyboard import TAKES_TYPING
from annotator.gui.widgets.layout_boundary import LayoutBoundary, text_width_free
from annotator.log.concepts import PATH_SEPARATOR, Concepts, parsed_concepts, reference_concepts
from annotator.log.document import AnnotationChange
from annotator.log.elements import Turn
from annotator.log.text import SHOWN_ID_CHARS, clean_text, shorten

PATH, VALUE = 0, 1
NEW_SLOT = ":slot"
HINT = (
    "Ctrl+K: edit, starting from the parse · Tab: next cell · Insert: add a slot · Delete: remove it · "
    "Esc: back to the transcription · Ctrl+Enter: store and go on"
)


class ConceptsPanel(LayoutBoundary):
    status_reported = Signal(str)  # a line for the status bar
    shown_requested = Signal()  # Ctrl+K: the panel's dock comes to the front
    leave_requested = Signal()  # Escape: the transcription editor takes the focus

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("concepts_panel")
        self.undo_stack = undo_stack
        self._turn: Turn | None = None
        self.title = text_width_free(QLabel(self))
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.parse_label = text_width_free(QLabel(self))
        self.parse_label.setTextFormat(Qt.TextFormat.RichText)
        self.parse_table = _slot_table(self, "concepts_parse")
        self.parse_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.parse_table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.frame_edit = PassThroughLineEdit([], self)
        self.frame_edit.setObjectName("concepts_frame")
        self.reference = _slot_table(self, "concepts_reference", ReferenceTable)
        self.reference.setEditTriggers(
            QAbstractItemView.EditTrigger.AnyKeyPressed
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.DoubleClicked
        )
        self.reference.setProperty(TAKES_TYPING, True)  # typed text edits a cell, not the transcription
        self.delegate = TranscriptionDelegate(self.reference)
        self.reference.setItemDelegate(self.delegate)
        self.hint = QLabel(HINT, self)
        self.hint.setEnabled(False)
        self.hint.setWordWrap(True)

        frame_row = QHBoxLayout()
        frame_row.addWidget(QLabel("Reference:", self))
        frame_row.addWidget(self.frame_edit, 1)
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.parse_label)
        layout.addWidget(self.parse_table, 1)
        layout.addLayout(frame_row)
        layout.addWidget(self.reference, 2)
        layout.addWidget(self.hint)
        self.setTabOrder(self.frame_edit, self.reference)

        self.reference.itemChanged.connect(self._cell_edited)
        self.frame_edit.editingFinished.connect(self._frame_edited)
        self._reflect()

    # --- what is shown ---------------------------------------------------------------
    @property
    def turn(self) -> Turn | None:
        return self._turn

    def set_passthrough_keys(self, keys: list[QKeySequence]) -> None:
        self.delegate.passthrough_keys = self.frame_edit.passthrough_keys = list(keys)

    def show_turn(self, turn: Turn | None) -> None:
        """Show TURN, after storing a cell or frame name being edited for the turn shown before."""
        if turn is not None and turn == self._turn:
            return
        self.commit_pending()
        self._turn = turn
        self._reflect()

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        if change.kind == "concepts" and change.turn is not None and change.turn == self._turn:
            self._reflect()

    def _annotatable_turn(self) -> Turn | None:
        """The turn shown, unless there is none or it is a system turn (nothing to annotate)."""
        turn = self._turn
        return turn if turn is not None and turn.speaker != "system" else None

    def _annotatable(self) -> bool:
        return self._annotatable_turn() is not None

    def _reflect(self) -> None:
        turn = self._turn
        annotated = self._annotatable_turn()
        annotatable = annotated is not None
        parse = parsed_concepts(annotated.facts()) if annotated is not None else None
        reference = reference_concepts(annotated.facts()) if annotated is not None else None
        if turn is None:
            self.title.setText("<b>No turn selected</b>")
        else:
            name = html.escape(shorten(turn.id, SHOWN_ID_CHARS))
            self.title.setText(
                f"<b>Turn {name}</b> · {html.escape(turn.speaker or 'unknown side')}"
                if annotatable
                else f"<b>Turn {name}</b> · system: nothing to annotate"
            )
        if not annotatable:
            self.parse_label.setText("")
        elif parse is None:
            self.parse_label.setText("Parse: <i>none in the log</i> (the reference starts empty)")
        else:
            self.parse_label.setText(f"Parse: <b>{html.escape(parse.frame) or '<i>no frame name</i>'}</b>")
        _fill(self.parse_table, parse.slots if parse is not None else ())
        _fill(self.reference, reference.slots if reference is not None else ())
        self.frame_edit.setText(reference.frame if reference is not None else "")
        self.frame_edit.setModified(False)
        self.frame_edit.setPlaceholderText(
            ""
            if not annotatable
            else f"{parse.frame} (from the parse)"
            if parse is not None and parse.frame
            else "frame name"
        )
        for widget in (self.parse_table, self.frame_edit, self.reference):
            widget.setEnabled(annotatable)

    # --- the keys --------------------------------------------------------------------
    def edit_from_parse(self) -> None:
        """Ctrl+K: go into the reference table, an empty reference first copied from the parse."""
        turn = self._turn
        if turn is None or not self._annotatable():
            self.status_reported.emit(
                "No turn selected"
                if turn is None
                else f"Turn {shorten(turn.id, SHOWN_ID_CHARS)} is a system turn: no concepts to annotate"
            )
            return
        self.shown_requested.emit()
        parse = parsed_concepts(turn.facts())
        if reference_concepts(turn.facts()) is None and parse is not None:
            self._store(turn, parse, f"Concepts of turn {turn.id} from the parse")
        if self.reference.rowCount():
            self.reference.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.reference.setCurrentCell(0, VALUE)
        else:
            self.frame_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
            what = "has no parse: type the frame name" if parse is None else "has no slot"
            self.status_reported.emit(f"Turn {shorten(turn.id, SHOWN_ID_CHARS)} {what}; Insert adds a slot")

    def add_slot(self) -> None:
        """Insert: a new slot at the end, its path cell open for typing its name."""
        turn = self._annotatable_turn()
        if turn is None:
            return
        self.commit_pending()
        base = self._base(turn)
        paths = {path for path, _value in base.slots}
        path = next(f"{NEW_SLOT}{n or ''}" for n in range(len(paths) + 1) if f"{NEW_SLOT}{n or ''}" not in paths)
        self._store(turn, Concepts(base.frame, base.slots + ((path, ""),)), f"Add a concept slot to turn {turn.id}")
        row = self.reference.rowCount() - 1
        item = self.reference.item(row, PATH) if row >= 0 else None  # _fill gives every cell its item
        if item is not None and item.text() == path:
            self.reference.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.reference.setCurrentCell(row, PATH)
            self.reference.editItem(item)

    def remove_slot(self) -> None:
        """Delete: remove the slot of the current row."""
        turn = self._annotatable_turn()
        reference = reference_concepts(turn.facts()) if turn is not None else None
        row = self.reference.currentRow()
        if turn is None or reference is None or not 0 <= row < len(reference.slots):
            self.status_reported.emit("No concept slot selected to remove")
            return
        path = reference.slots[row][0]
        slots = reference.slots[:row] + reference.slots[row + 1 :]
        self._store(turn, Concepts(reference.frame, slots), f"Remove concept {path} of turn {turn.id}")
        if self.reference.rowCount():
            self.reference.setCurrentCell(
                min(row, self.reference.rowCount() - 1), max(self.reference.currentColumn(), 0)
            )

    def leave(self) -> None:
        """Escape: give up the cell being edited; with none, go back to the transcription editor."""
        editor = self.delegate.open_editor
        if editor is not None:
            self.reference.closeEditor(editor, QAbstractItemDelegate.EndEditHint.RevertModelCache)
            self.reference.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        self.leave_requested.emit()

    # --- storing ---------------------------------------------------------------------
    def commit_pending(self) -> None:
        """Store the cell or the frame name being edited (before a move, a save, Ctrl+Enter)."""
        editor = self.delegate.open_editor
        if editor is not None:
            self.reference.commitData(editor)
            self.reference.closeEditor(editor, QAbstractItemDelegate.EndEditHint.NoHint)
        self._frame_edited()

    def _base(self, turn: Turn) -> Concepts:
        """What an edit of TURN starts from: the reference, else the parse, else nothing."""
        facts = turn.facts()
        return reference_concepts(facts) or parsed_concepts(facts) or Concepts("")

    def _cell_edited(self, item: QTableWidgetItem) -> None:
        turn = self._annotatable_turn()
        reference = reference_concepts(turn.facts()) if turn is not None else None
        row = item.row()
        if turn is None or reference is None or not 0 <= row < len(reference.slots):
            self._reflect()
            return
        path, value = reference.slots[row]
        if item.column() == PATH:
            new_path = clean_text(item.text())
            if not all(part.strip() for part in new_path.split(PATH_SEPARATOR)):
                self.status_reported.emit(f"A slot's path needs a name in each part between '{PATH_SEPARATOR}'")
                self._reflect()
                return
            slot, text = (new_path, value), f"Rename concept {path} of turn {turn.id} to {new_path}"
        else:
            slot, text = (path, item.text()), f"Set concept {path} of turn {turn.id}"
        slots = reference.slots[:row] + (slot,) + reference.slots[row + 1 :]
        self._store(turn, Concepts(reference.frame, slots), text)

    def _frame_edited(self) -> None:
        if not self.frame_edit.isModified():
            return
        turn = self._annotatable_turn()
        if turn is None:
            return
        self.frame_edit.setModified(False)
        base = self._base(turn)
        frame = clean_text(self.frame_edit.text())
        self._store(turn, Concepts(frame, base.slots), f"Name the concept frame of turn {turn.id} {frame!r}")

    def _store(self, turn: Turn, concepts: Concepts, text: str) -> None:
        """One undo command on TURN (the turn shown); no frame name and no slot is no reference. The panel then
        shows what the log holds (a read-only log refuses the command)."""
        empty = not concepts.frame and not concepts.slots
        push_if_changed(self.undo_stack, SetConcepts(turn, None if empty else concepts, text))
        self._reflect()


class ReferenceTable(QTableWidget):
    """The editable slots. A key that opens a cell's editor is that editor's (Qt's view passes it on and
    then ignores it, and an ignored key would climb to the window and be typed into the transcription);
    Shift+Tab on the first cell goes back to the frame's name."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Backtab and self.currentRow() <= 0 and self.currentColumn() <= 0:
            QWidget.focusNextPrevChild(self, False)  # the view's own would send this key here again
            event.accept()
            return
        super().keyPressEvent(event)
        if self.state() == QAbstractItemView.State.EditingState:
            event.accept()


def _slot_table(parent: QWidget, name: str, kind: type[QTableWidget] = QTableWidget) -> QTableWidget:
    table = kind(0, 2, parent)
    table.setObjectName(name)
    table.setHorizontalHeaderLabels(["Slot", "Value"])
    table.verticalHeader().hide()
    table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setWordWrap(False)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    header = table.horizontalHeader()
    header.setSectionResizeMode(PATH, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(VALUE, QHeaderView.ResizeMode.Stretch)
    table.setMinimumHeight(header.sizeHint().height() + table.verticalHeader().defaultSectionSize() + 6)
    return table


def _fill(table: QTableWidget, slots: tuple[tuple[str, str], ...]) -> None:
    """Show SLOTS, reusing the table's items (a fill may run while one of them reports its edit)."""
    table.blockSignals(True)
    table.setRowCount(len(slots))
    for row, (path, value) in enumerate(slots):
        for column, text in ((PATH, path), (VALUE, value)):
            item = table.item(row, column)
            if item is None:
                table.setItem(row, column, QTableWidgetItem(text))
            elif item.text() != text:
                item.setText(text)
    table.blockSignals(False)
    table.viewport().update()
