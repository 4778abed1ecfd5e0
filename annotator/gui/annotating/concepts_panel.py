"""The Concepts panel: the parser's frame of the selected user turn, read-only, above the annotator's
reference concepts, edited in a small table.

Every edit is one SetConcepts on the window's undo stack (annotations.set_concepts is the only writer):
a value or a slot's path changed in a cell, a slot added or removed, the frame renamed. An empty
reference starts as a copy of the parse at its first edit; Ctrl+K shows that copy in the table, not
stored, and goes into it, so that opening and leaving the panel changes nothing: only an edit stores
it, and taking the parse unchanged as the reference is a command of its own (accept_parse). The panel
shows what the log holds (and that unstored copy): it reflects each concepts change of its turn (undo
included) heard from DocumentController.annotation_changed. A cell or frame name being typed is
typing not yet stored, which the window counts as unsaved work and journals (pending_edit).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal, SignalInstance
from PySide6.QtGui import QKeyEvent, QKeySequence, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemDelegate,
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from annotator.gui.annotating.turn_table_view import PassThroughLineEdit, TranscriptionDelegate
from annotator.gui.annotating.undo_commands import SetConcepts, push_if_changed
from annotator.gui.keyboard import TAKES_TYPING
from annotator.gui.widgets.layout_boundary import LayoutBoundary, text_width_free
from annotator.journal.values import CONCEPTS
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
    pending_text_changed = Signal()  # what pending_edit() returns may have changed

    def __init__(self, undo_stack: QUndoStack, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("concepts_panel")
        self.undo_stack = undo_stack
        self._turn: Turn | None = None
        self._draft: Concepts | None = None  # the parse shown as the reference after Ctrl+K, not stored
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
        self.delegate = TypingDelegate(self.pending_text_changed, self.reference)
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
        self.frame_edit.textChanged.connect(self.pending_text_changed)
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
        self._turn, self._draft = turn, None
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

    def _shown_reference(self) -> Concepts | None:
        """The reference the table shows: the log's, else the parse's unstored copy Ctrl+K made."""
        turn = self._annotatable_turn()
        return None if turn is None else reference_concepts(turn.facts()) or self._draft

    def _reflect(self) -> None:
        turn = self._turn
        annotated = self._annotatable_turn()
        annotatable = annotated is not None
        parse = parsed_concepts(annotated.facts()) if annotated is not None else None
        reference = self._shown_reference()
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
            self._draft = parse
            self._reflect()
            self.status_reported.emit(
                f"Turn {shorten(turn.id, SHOWN_ID_CHARS)}: the parse's concepts, not stored; an edit stores "
                "the reference, Ctrl+Shift+K takes the parse as it is"
            )
        if self.reference.rowCount():
            self.reference.setFocus(Qt.FocusReason.ShortcutFocusReason)
            self.reference.setCurrentCell(0, VALUE)
        else:
            self.frame_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
            what = "has no parse: type the frame name" if parse is None else "has no slot"
            self.status_reported.emit(f"Turn {shorten(turn.id, SHOWN_ID_CHARS)} {what}; Insert adds a slot")

    def accept_parse(self) -> None:
        """Take the parse of the turn shown, unchanged, as its reference: the annotator checked it."""
        turn = self._annotatable_turn()
        parse = parsed_concepts(turn.facts()) if turn is not None else None
        if turn is None or parse is None:
            self.status_reported.emit("No user turn with a parse selected: nothing to accept")
            return
        self.commit_pending()
        if reference_concepts(turn.facts()) == parse:
            self.status_reported.emit(f"Turn {shorten(turn.id, SHOWN_ID_CHARS)}'s reference already is the parse")
            return
        self._store(turn, parse, f"Accept the parse as the concepts of turn {turn.id}")

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
        reference = self._shown_reference()
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
        if self._draft is not None:  # the parse's copy was only looked at
            self._draft = None
            self._reflect()
        self.leave_requested.emit()

    # --- storing ---------------------------------------------------------------------
    def commit_pending(self) -> None:
        """Store the cell or the frame name being edited (before a move, a save, Ctrl+Enter)."""
        editor = self.delegate.open_editor
        if editor is not None:
            self.reference.commitData(editor)
            self.reference.closeEditor(editor, QAbstractItemDelegate.EndEditHint.NoHint)
        self._frame_edited()

    def pending_edit(self) -> tuple[Turn, str | None, str] | None:
        """The turn, the concepts (compact, None: none) a commit would store and their kind, while a cell or the
        frame name holds typing not yet stored."""
        turn = self._annotatable_turn()
        if turn is None:
            return None
        stored = reference_concepts(turn.facts())
        editor = self.delegate.open_editor
        index = self.reference.currentIndex()
        edit = (
            self._cell_edit(turn, index.row(), index.column(), editor.text())
            if editor is not None and index.isValid()
            else None
        )
        if edit is not None and edit[0] != stored:
            concepts: Concepts | None = edit[0]
        elif self.frame_edit.isModified():
            concepts = Concepts(clean_text(self.frame_edit.text()), self._base(turn).slots)
        else:
            return None
        if concepts is not None and not concepts.frame and not concepts.slots:
            concepts = None
        return None if concepts == stored else (turn, None if concepts is None else concepts.compact(), CONCEPTS)

    def _base(self, turn: Turn) -> Concepts:
        """What an edit of TURN starts from: the reference, else the parse, else nothing."""
        facts = turn.facts()
        return reference_concepts(facts) or parsed_concepts(facts) or Concepts("")

    def _cell_edited(self, item: QTableWidgetItem) -> None:
        turn = self._annotatable_turn()
        edit = self._cell_edit(turn, item.row(), item.column(), item.text())
        if turn is None or edit is None:
            if item.column() == PATH and not _names_each_part(item.text()):
                self.status_reported.emit(f"A slot's path needs a name in each part between '{PATH_SEPARATOR}'")
            self._reflect()
            return
        self._store(turn, *edit)

    def _cell_edit(self, turn: Turn | None, row: int, column: int, typed: str) -> tuple[Concepts, str] | None:
        """The reference TURN would hold with TYPED in the cell at (ROW, COLUMN), and the edit's name; None when
        that cell holds no slot or TYPED is no slot's path."""
        reference = self._shown_reference()
        if turn is None or reference is None or not 0 <= row < len(reference.slots):
            return None
        path, value = reference.slots[row]
        if column == PATH:
            new_path = clean_text(typed)
            if not _names_each_part(new_path):
                return None
            slot, text = (new_path, value), f"Rename concept {path} of turn {turn.id} to {new_path}"
        else:
            slot, text = (path, typed), f"Set concept {path} of turn {turn.id}"
        slots = reference.slots[:row] + (slot,) + reference.slots[row + 1 :]
        return Concepts(reference.frame, slots), text

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


def _names_each_part(path: str) -> bool:
    return all(part.strip() for part in clean_text(path).split(PATH_SEPARATOR))


class TypingDelegate(TranscriptionDelegate):
    """The cell editor of the reference table, saying through TYPED when its typing may have changed."""

    def __init__(self, typed: SignalInstance, parent: QWidget | None = None):
        super().__init__(parent)
        self.typed = typed

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        editor = super().createEditor(parent, option, index)
        assert isinstance(editor, QLineEdit), "a cell is edited in a line"
        editor.textChanged.connect(self.typed)
        return editor

    def destroyEditor(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        super().destroyEditor(editor, index)
        self.typed.emit()  # its typing is stored or given up


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
