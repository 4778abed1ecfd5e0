"""The table of turns: one selected row at a time, compact rows, texts elided, F2 edits in place; the row
header is the doubt strip (views.doubt_strip).

The short columns (id, speaker, times, WER, concepts, flags) are as wide as what they hold (a column empty
in the session as wide as its title) and the three text columns share the rest, never less than
TEXT_LEAST_CHARS characters each: a table too narrow for that (a large zoom) scrolls sideways. The selected
row stays in view whatever resizes the table. The in-place editor lets the window's keys
through like the large editor does, and commit_open_editor() stores a cell
being edited before a save.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QEvent, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from annotator.gui.annotating.doubt_strip import DoubtStripHeader
from annotator.gui.annotating.rows_ahead import RowsAhead
from annotator.gui.annotating.turn_table import Column, TurnTableModel
from annotator.gui.keyboard import hand_to_window

SHORT_COLUMNS = (Column.TURN, Column.SPEAKER, Column.START, Column.DURATION, Column.WER, Column.CONCEPTS, Column.FLAGS)
TEXT_COLUMNS = (Column.RECOGNIZER, Column.SYSTEM, Column.TRANSCRIPTION)
# Short columns are measured on this many rows at each end of the session (ids and start times grow
# along it), so that a session of 70,000 turns costs no more to lay out than one of 100.
MEASURED_ROWS = 50
# A WER needs the turn's transcription, a concept accuracy its frames, which are not cheap to find: not measured.
# A column none of whose measured rows holds one is as wide as its title.
WIDEST_RATE = {Column.WER: "100.0 %", Column.CONCEPTS: "-100.0 %", Column.FLAGS: "I X T N Z C"}
# What a text column shows at least, in average characters of the table's font: below this its words are gone
# ("i ..."), so the short columns keep their width and the table scrolls sideways instead.
TEXT_LEAST_CHARS = 10


class PassThroughLineEdit(QLineEdit):
    """The cell editor: the window's keys reach their actions (undo only once nothing is typed)."""

    def __init__(self, passthrough_keys: list[QKeySequence], parent: QWidget | None = None):
        super().__init__(parent)
        self.passthrough_keys = passthrough_keys

    def event(self, event: QEvent) -> bool:
        if hand_to_window(event, self.passthrough_keys, self.isUndoAvailable(), self.isRedoAvailable()):
            return True
        return super().event(event)


class TranscriptionDelegate(QStyledItemDelegate):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.passthrough_keys: list[QKeySequence] = []
        self.open_editor: QLineEdit | None = None

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        editor = PassThroughLineEdit(self.passthrough_keys, parent)
        editor.setFrame(False)
        self.open_editor = editor
        editor.destroyed.connect(self._forget_editor)
        return editor

    def _forget_editor(self) -> None:
        self.open_editor = None

    def destroyEditor(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
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
        self.setVerticalHeader(DoubtStripHeader(self))
        self.rows_kept = 0
        self.fit_rows_to_font()
        header = self.horizontalHeader()
        header.setHighlightSections(False)
        header.setStretchLastSection(False)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.delegate = TranscriptionDelegate(self)
        self.setItemDelegateForColumn(Column.TRANSCRIPTION, self.delegate)
        self.rows_ahead = RowsAhead(self)
        self.empty_rates: set[Column] = set()  # the rate columns none of the measured rows fills
        header.sectionResized.connect(self._short_column_resized)
        self.viewport().installEventFilter(self)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        header = self.horizontalHeader()
        for column in SHORT_COLUMNS:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        for column in TEXT_COLUMNS:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Fixed)  # shared by share_the_rest
        self.turn_model().modelReset.connect(self.fit_short_columns)
        self.turn_model().dataChanged.connect(self._refit_when_a_rate_appears)
        self.fit_short_columns()

    def turn_model(self) -> TurnTableModel:
        """The model shown: the view is made for a session's turns."""
        model = self.model()
        assert isinstance(model, TurnTableModel), "the turn table shows a TurnTableModel"
        return model

    def fit_rows_to_font(self) -> None:
        """Rows a line of the table's font high and some padding (again after a zoom)."""
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.keep_rows(self.rows_kept)

    def keep_rows(self, count: int) -> None:
        """Never less than COUNT whole rows high: the splitter, the window's layout and a restored dock
        arrangement give the table this much first, the editor and the docks take what is left."""
        self.rows_kept = count
        self.horizontalHeader().ensurePolished()
        header = self.horizontalHeader().sizeHint().height()
        scroll_bar = self.horizontalScrollBar().sizeHint().height()  # shown when a zoom makes the columns too wide
        rows = count * self.verticalHeader().defaultSectionSize()
        self.setMinimumHeight(header + rows + scroll_bar + 2 * self.frameWidth())

    def fit_short_columns(self) -> None:
        """Each short column as wide as its header or its widest text on the first and last rows (not
        QHeaderView.ResizeToContents: its cell size hints cost a model lookup per role and cell)."""
        model, header, metrics = self.turn_model(), self.horizontalHeader(), self.fontMetrics()
        rows = model.rowCount()
        sample = sorted(set(range(min(rows, MEASURED_ROWS))) | set(range(max(0, rows - MEASURED_ROWS), rows)))
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1
        marker = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, self) + 2 * margin
        self.empty_rates = {column for column in WIDEST_RATE if not any(model.holds_a_rate(r, column) for r in sample)}
        for column in SHORT_COLUMNS:
            if column in self.empty_rates:
                header.resizeSection(column, header.sectionSizeHint(column))
                continue
            texts = (
                [WIDEST_RATE[column]] if column in WIDEST_RATE else [model.shown_text(row, column) for row in sample]
            )
            width = max(map(metrics.horizontalAdvance, texts), default=0) + 2 * margin + 2
            width += marker if column in (Column.TURN, Column.FLAGS) else 0  # the dot of a turn to transcribe, a flag
            header.resizeSection(column, max(width, header.sectionSizeHint(column)))
        self.share_the_rest()

    def share_the_rest(self) -> None:
        """The text columns share the width the short columns leave, each at least TEXT_LEAST_CHARS wide."""
        if self.model() is None:
            return
        header = self.horizontalHeader()
        rest = self.viewport().width() - sum(header.sectionSize(column) for column in SHORT_COLUMNS)
        share = max(TEXT_LEAST_CHARS * self.fontMetrics().averageCharWidth(), rest // len(TEXT_COLUMNS))
        left_over = max(0, rest - share * len(TEXT_COLUMNS))  # under one pixel per column
        for place, column in enumerate(TEXT_COLUMNS):
            header.resizeSection(column, share + (place < left_over))

    def _short_column_resized(self, column: int, _old: int, _new: int) -> None:
        """A short column fitted or dragged: the text columns take what it gave or give what it took."""
        if column not in TEXT_COLUMNS:
            self.share_the_rest()

    def _refit_when_a_rate_appears(self, top: QModelIndex, bottom: QModelIndex, _roles: object = None) -> None:
        """A flag, reference concepts or a transcription given to a turn of a column that was empty widens it;
        a change of many rows (a new theme) changes no value, so only its first rows are read."""
        rows = range(top.row(), min(bottom.row() + 1, top.row() + MEASURED_ROWS))
        model = self.turn_model()
        if any(model.holds_a_rate(row, column) for column in self.empty_rates for row in rows):
            self.fit_short_columns()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The viewport resized (the window, a splitter, a scroll bar shown): the text columns share its width."""
        if watched is self.viewport() and event.type() == QEvent.Type.Resize:
            self.share_the_rest()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A splitter dragged, the window resized: the selected row is still where the annotator can see it."""
        super().resizeEvent(event)
        if self.currentIndex().isValid():
            self.scrollTo(self.currentIndex())

    def keyboardSearch(self, search: str) -> None:
        """Typed keys are the transcription's (gui/keyboard.py), never a search of the rows: none is made."""

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
