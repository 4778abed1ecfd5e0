"""The Compare table's model: one row per user turn of the shown session and a last row for its task
completion; columns Turn, one per annotator (their transcription with the words that differ
highlighted, their concepts below in compact form), Adjudicated (what the document holds now) and
Source (agreed, take:NAME, edited, left). Cells are rich text (drawn by view.RichTextDelegate); a
row where the annotators disagree has a tinted background.

Connected to DocumentController.annotation_changed, a change of a shown turn or session repaints its
row only (docs/events.md).
"""

from __future__ import annotations

import html
from typing import cast

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QGuiApplication, QPalette

from annotator.agreement.adjudication import AGREED, CONCEPTS, LEFT, TRANSCRIPTION, Value, value_text
from annotator.gui.compare.comparison import Comparison, FieldKey, Row, current_value, rows_of, same_value
from annotator.gui.compare.word_diff import differing_words, marked, words_html
from annotator.gui.theme import theme_colour
from annotator.log.document import AnnotationChange
from annotator.log.elements import Session

Role = Qt.ItemDataRole
TURN_COLUMN = 0
ANNOTATOR_LETTERS = "ABCD"  # Alt+A ... Alt+D take these annotators' versions
TASK_ROW_TEXT = "Task completion"
_TOP = QModelIndex()


def letter(index: int) -> str:
    return ANNOTATOR_LETTERS[index] if index < len(ANNOTATOR_LETTERS) else str(index + 1)


class CompareModel(QAbstractTableModel):
    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.rows: list[Row] = []
        self._row_of_turn: dict[int, int] = {}

    # --- what is shown ---------------------------------------------------------------
    def show(self, comparison: Comparison | None, session: Session | None) -> None:
        self.beginResetModel()
        self.comparison = comparison
        self.rows = rows_of(session) if comparison is not None and session is not None else []
        self._row_of_turn = {row.turn.index: at for at, row in enumerate(self.rows) if row.turn is not None}
        self.endResetModel()

    @property
    def names(self) -> list[str]:
        return self.comparison.names if self.comparison is not None else []

    def adjudicated_column(self) -> int:
        return 1 + len(self.names)

    def source_column(self) -> int:
        return 2 + len(self.names)

    def row_of_turn(self, turn_index: int) -> int | None:
        return self._row_of_turn.get(turn_index)

    def rows_before(self, turn_index: int) -> int:
        """How many rows show turns that come before the turn at TURN_INDEX."""
        return sum(1 for row in self.rows if row.turn is not None and row.turn.index < turn_index)

    def task_row(self) -> int | None:
        return len(self.rows) - 1 if self.rows else None

    def _shown(self) -> Comparison:
        """The comparison whose rows are shown: show() makes rows from one only."""
        assert self.comparison is not None, "rows are shown of a comparison"
        return self.comparison

    def disagrees(self, row: int) -> bool:
        comparison = self._shown()
        return any(comparison.disagrees(key) for key in self.rows[row].keys())

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        if not self.rows or change.session != self.rows[0].session:
            return
        row = self.task_row() if change.turn is None else self.row_of_turn(change.turn.index)
        if row is not None:
            self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))

    # --- Qt's model API ----------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _TOP) -> int:
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _TOP) -> int:
        return 0 if parent.isValid() or self.comparison is None else 3 + len(self.names)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Role.DisplayRole) -> object:
        if orientation != Qt.Orientation.Horizontal or role not in (Role.DisplayRole, Role.ToolTipRole):
            return None
        names = self.names
        if section == TURN_COLUMN:
            return (
                "Turn"
                if role == Role.DisplayRole
                else "The user turn's id; the last row is the session's task completion"
            )
        if section <= len(names):
            name = names[section - 1]
            if role == Role.DisplayRole:
                return f"{letter(section - 1)}: {name}"
            return f"{name}'s transcription and concepts; Alt+{letter(section - 1)} takes them into the log"
        if section == self.adjudicated_column():
            return "Adjudicated" if role == Role.DisplayRole else "What the log holds now (Ctrl+Z undoes a take)"
        return (
            "Source"
            if role == Role.DisplayRole
            else "agreed, take:NAME, edited, or left (a disagreement not yet resolved)"
        )

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Role.DisplayRole) -> object:
        comparison = self.comparison
        if not index.isValid() or comparison is None:
            return None
        row, column = self.rows[index.row()], index.column()
        if role == Role.DisplayRole:
            return self._html(row, column)
        if role == Role.BackgroundRole and self.disagrees(index.row()):
            return QBrush(theme_colour("compare_disagreement"))
        if role == Role.ToolTipRole and column == self.source_column():
            return "; ".join(
                f"{field}: {comparison.source(key)}"
                for key in row.keys()
                if key in comparison.decisions
                for field in (key[2],)
            )
        return None

    def _html(self, row: Row, column: int) -> str:
        comparison = self._shown()
        if column == TURN_COLUMN:
            return html.escape(TASK_ROW_TEXT if row.turn is None else row.turn.id)
        keys = [key for key in row.keys() if key in comparison.decisions]
        if column == self.source_column():
            return html.escape(", ".join(self._source_text(key) for key in keys))
        if column == self.adjudicated_column():
            return "<br>".join(
                _value_html(key[2], current_value(comparison.document, key))
                for key in row.keys()
                if key[2] != CONCEPTS or current_value(comparison.document, key) is not None
            )
        return self._annotator_html(row, column - 1)

    def _source_text(self, key: FieldKey) -> str:
        comparison = self._shown()
        source = comparison.source(key)
        shown = "disagree" if source == LEFT else source
        if source == AGREED and not same_value(
            key[2], current_value(comparison.document, key), comparison.decisions[key].value
        ):
            shown = "agreed (taken on saving)"
        return shown if key[2] == TRANSCRIPTION else f"{key[2].replace('_', ' ')} {shown}"

    def _annotator_html(self, row: Row, annotator: int) -> str:
        comparison, name = self._shown(), self.names[annotator]
        colour = theme_colour("compare_word_differs").name()
        ink = QGuiApplication.palette().color(QPalette.ColorRole.Text).name()  # the pair the theme table checks
        parts = []
        for key in row.keys():
            given = comparison.given(key)
            if key[2] == TRANSCRIPTION:
                texts = [cast("str | None", given.get(other)) for other in self.names]  # a transcription's are texts
                words = differing_words(texts)[annotator]
                parts.append("<i>(none)</i>" if words is None else words_html(words, colour, ink))
            elif name in given:
                differs = comparison.disagrees(key)
                text = html.escape(value_text(given[name]))
                parts.append(marked(text, colour, ink) if differs else text)
        return "<br>".join(parts)


def _value_html(field: str, value: Value | None) -> str:
    if value is None:
        return "<i>(none)</i>"
    text = html.escape(value_text(value))
    return f"<small>{text}</small>" if field == CONCEPTS else text
