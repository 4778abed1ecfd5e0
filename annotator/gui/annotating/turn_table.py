"""The turn table: one row per GC_TURN of a session, read from each turn's cached facts.

Columns: turn id, speaker, start (seconds from the session's start), duration,
recognizer text, system text, transcription (editable: setData pushes an
undoable TranscribeTurn), the turn's WER once it is transcribed and its concept accuracy once it
has reference concepts, and its flags and comment (annotator.log.flags) as letters beside a drawn icon.
The row header is the doubt strip: the colour of a user turn's doubt score,
its reasons in the tooltip. A cell reads the
document's facts cache (annotator.log.facts_cache): painting never walks the tree or aligns
words, and the next turn to transcribe and the progress come from the cache's index of
untranscribed turns. Connected to DocumentController.annotation_changed, the model turns
each change of a turn it shows into dataChanged (docs/events.md).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import cast

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QUndoStack

from annotator.analysis.concept_metrics import cached_turn_concept_counts
from annotator.analysis.doubt import most_doubtful_to_transcribe, turn_doubt
from annotator.analysis.metrics_wer import cached_turn_wer_counts
from annotator.gui.annotating.flag_icons import flags_tooltip
from annotator.gui.annotating.turn_table_cells import (
    DISPLAY,
    PAINTED_ROLES,
    UNTRANSCRIBED_PLACEHOLDER,
    Column,
    RowPainter,
    cell_seconds,
    cell_text,
    holds_a_rate,
    needs_transcription,
    shown_text,
)
from annotator.gui.annotating.undo_commands import TranscribeTurn, push_if_changed, removed_characters_note
from annotator.gui.colours import doubt_colour
from annotator.gui.theme import theme_changes
from annotator.gui.widgets.plain_text import plain_tooltip
from annotator.gui.widgets.roles import (
    NEEDS_TRANSCRIPTION_ROLE,
    SEARCH_HIT_ROLE,
    SECONDS_ROLE,
    SPEAKER_ROLE,
    TURN_ROLE,
)
from annotator.log.document import AnnotationChange
from annotator.log.elements import Session, Turn
from annotator.log.flags import turn_comment, turn_flags

__all__ = ["UNTRANSCRIBED_PLACEHOLDER", "Column", "TurnTableModel", "is_transcribable", "needs_transcription"]

Role = Qt.ItemDataRole

HEADERS = {
    Column.TURN: ("Turn", "The GC_TURN id; a dot marks a user turn still to transcribe"),
    Column.SPEAKER: ("Speaker", "user or system (type_new_turn, type_start_utt, or the data the turn carries)"),
    Column.START: ("Start (s)", "Seconds from the start of the session"),
    Column.DURATION: ("Dur. (s)", "Duration of the turn in seconds"),
    Column.RECOGNIZER: ("Recognizer heard", 'The recognizer\'s text (type_utt_text="asr", else type="text_input")'),
    Column.SYSTEM: ("System said", 'What the system said (type_utt_text="system", else type="text_output")'),
    Column.TRANSCRIPTION: ("Transcription", "What the user really said; edit in place (F2) or in the editor below"),
    Column.WER: ("WER", "Word error rate of the recognizer against the transcription"),
    Column.CONCEPTS: ("Concepts", "Concept accuracy of the parse against the reference concepts (Concepts panel)"),
    Column.FLAGS: (
        "Flags",
        "The turn's flags (Alt+Shift+I inaudible, X cross-talk, T truncated, N non-native, "
        "Z noise) and C for a comment (Alt+Shift+C)",
    ),
}

# Every role data() answers; a view asks of others (size hints, check states...) for every cell it paints.
ANSWERED_ROLES = PAINTED_ROLES | frozenset(
    int(role)
    for role in (
        Role.EditRole,
        Role.ToolTipRole,
        TURN_ROLE,
        NEEDS_TRANSCRIPTION_ROLE,
        SPEAKER_ROLE,
        SECONDS_ROLE,
        SEARCH_HIT_ROLE,
    )
)
DOUBT_STRIP_ROLES = frozenset((int(Role.BackgroundRole), int(Role.ToolTipRole)))
CELL_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
EDITABLE_CELL_FLAGS = CELL_FLAGS | Qt.ItemFlag.ItemIsEditable
KEPT_ROWS = 2000  # rows whose cells are kept (a few screens of them); past that the memo starts again
_TOP = QModelIndex()  # the table's rows have no parent


def is_transcribable(turn: Turn) -> bool:
    """System turns have nothing to transcribe; turns of unknown side may hold user speech."""
    return turn.speaker != "system"


def _is_user(turn: Turn) -> bool:
    return turn.speaker == "user"


class TurnTableModel(QAbstractTableModel):
    note_reported = Signal(str)  # a line for the status bar about an edit made in a cell

    def __init__(self, undo_stack: QUndoStack, parent: QObject | None = None):
        super().__init__(parent)
        self.undo_stack = undo_stack
        self._session: Session | None = None
        self.painter = RowPainter()
        self._painted: dict[int, dict[tuple[int, int], object]] = {}  # row -> (column, role) -> value
        theme_changes().changed.connect(self.restyle)
        self._hits: dict[int, set[int]] = {}  # row -> columns holding a hit of the find bar
        self._current_hit: tuple[int, int] | None = None  # (row, column) of the hit the find bar is on
        self.doubts_pending = False  # while a worker makes the session's doubts (gui/panes/session_panes.py)

    # --- the session shown -------------------------------------------------
    @property
    def session(self) -> Session | None:
        return self._session

    def set_session(self, session: Session | None) -> None:
        self.beginResetModel()
        self._session = session
        self._painted.clear()
        self._hits, self._current_hit = {}, None
        self.endResetModel()

    def restyle(self) -> None:
        """The theme changed: every kept colour is stale; the view repaints with the new ones."""
        self.painter.restyle()
        self._painted.clear()
        if self.rowCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, len(Column) - 1))

    def set_search_hits(self, hits: dict[int, set[int]], current: tuple[int, int] | None) -> None:
        """Highlight the cells holding a hit (row -> columns), CURRENT (row, column) the most."""
        changed = set(self._hits) | set(hits) | {cell[0] for cell in (self._current_hit, current) if cell}
        self._hits, self._current_hit = hits, current
        for row in changed:
            self._painted.pop(row, None)
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(Column) - 1))

    def _search_hit(self, row: int, column: int) -> str | None:
        if self._current_hit == (row, column):
            return "current"
        return "hit" if column in self._hits.get(row, ()) else None

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        if change.turn is None or change.session != self._session:
            return
        # Turns sharing the changed turn's id read the same session-level transcription.
        for turn in self._session.document.facts_cache.turns_sharing_key(change.turn):
            row = turn.index
            self._painted.pop(row, None)
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(Column) - 1))

    # --- rows and turns ----------------------------------------------------
    def turn_at(self, row: int) -> Turn | None:
        turns = self._session.turns if self._session is not None else []
        return turns[row] if 0 <= row < len(turns) else None

    def find_row(
        self, start: int, step: int, accept: Callable[[Turn], bool] | None = None, wrap: bool = False
    ) -> int | None:
        """The first row after START in direction STEP (+1/-1) whose turn ACCEPT likes; with WRAP,
        search on from the other end (START itself last)."""
        count = self.rowCount()
        rows: Sequence[int]
        if wrap and count:
            rows = [(start + step * k) % count for k in range(1, count + 1)]  # START itself comes last
        else:
            rows = range(start + step, count if step > 0 else -1, step)
        for row in rows:
            turn = self.turn_at(row)
            if turn is not None and (accept is None or accept(turn)):
                return row
        return None

    def next_to_transcribe(self, row: int) -> int | None:
        """The row of the first user turn still to transcribe after ROW, searching on from the top
        (ROW itself last); None when every one is transcribed. A bisection in the cache's index."""
        if self._session is None:
            return None
        untranscribed = self._session.document.facts_cache.untranscribed(self._session)
        if not untranscribed:
            return None
        at = bisect_right(untranscribed, row)
        return untranscribed[at] if at < len(untranscribed) else untranscribed[0]

    def most_doubtful_to_transcribe(self, row: int) -> int | None:
        """The row of the most doubtful user turn still to transcribe other than ROW (ROW when it is the last)."""
        return None if self._session is None else most_doubtful_to_transcribe(self._session, row)

    def user_row_to_type(self, row: int, doubtful_first: bool, counting: bool) -> int | None:
        """The row of the user turn Ctrl+Enter on ROW chooses next, in the order set; None when none is left to
        transcribe. While a long session's facts are COUNTING (not known yet), the next user turn after ROW."""
        if counting:
            return self.find_row(row, +1, _is_user)
        return self.most_doubtful_to_transcribe(row) if doubtful_first else self.next_to_transcribe(row)

    def first_row_to_type(self, counting: bool) -> int:
        """Where typing begins in the session: its first user turn to transcribe (its first user turn when every
        one is transcribed or while its facts are COUNTING), its first turn when it has no user turn."""
        row = None if counting else self.next_to_transcribe(-1)
        row = row if row is not None else self.find_row(-1, +1, _is_user)
        return row if row is not None else 0

    def transcription_progress(self) -> tuple[int, int]:
        """(transcribed user turns, user turns) of the session."""
        if self._session is None:
            return 0, 0
        cache = self._session.document.facts_cache
        users = cache.user_turn_count(self._session)
        return users - len(cache.untranscribed(self._session)), users

    # --- QAbstractTableModel -----------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = _TOP) -> int:
        return 0 if parent.isValid() or self._session is None else len(self._session.turns)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = _TOP) -> int:
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Role.DisplayRole) -> object:
        if orientation == Qt.Orientation.Vertical:
            # The header asks each row for a dozen roles at every paint; two are answered.
            return self._doubt_strip(section, role) if role in DOUBT_STRIP_ROLES else None
        if section not in HEADERS:
            return None
        title, tip = HEADERS[Column(section)]
        if role == Role.DisplayRole:
            return title
        if role == Role.ToolTipRole:
            return tip
        return None

    def _doubt_strip(self, row: int, role: int) -> object:
        """The row header is the doubt strip (views.doubt_strip): its colour and its tooltip."""
        turn = self.turn_at(row)
        if turn is None or self.doubts_pending:
            return None
        doubt = turn_doubt(turn)
        if doubt is None:
            return None
        return doubt_colour(doubt.score) if role == Role.BackgroundRole else plain_tooltip(doubt.describe())

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        # Asked for every cell of every paint: constants, not QAbstractTableModel.flags (a call back into Qt).
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if index.column() == Column.TRANSCRIPTION:
            turn = self.turn_at(index.row())
            if turn is not None and is_transcribable(turn):
                return EDITABLE_CELL_FLAGS
        return CELL_FLAGS

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Role.DisplayRole) -> object:
        if role not in PAINTED_ROLES or not index.isValid():
            return self._data(index, role) if role in ANSWERED_ROLES else None
        return self._row_cells(index.row()).get((index.column(), role))

    def multiData(self, index: QModelIndex | QPersistentModelIndex, roles: QModelRoleDataSpan | QModelRoleData) -> None:
        """Every role a cell's paint asks for, in one call: the view's delegate asks seven per cell, and one
        call from Qt into Python costs more than reading a kept value."""
        if not index.isValid():
            return
        cells = self._row_cells(index.row())
        column = index.column()
        # Qt passes a span, which PySide6 makes iterable over its QModelRoleData (its stub leaves that out).
        for item in cast("Iterable[QModelRoleData]", roles):
            role = item.role()
            if role in PAINTED_ROLES:
                value = cells.get((column, role))
            else:
                value = self._data(index, role) if role in ANSWERED_ROLES else None
            if value is None:
                item.clearData()
            else:
                item.setData(value)

    def shown_text(self, row: int, column: int) -> str:
        """What the cell at ROW, COLUMN shows, made alone when its row's cells are not made yet: measuring a
        column's width (TurnTableView.fit_short_columns) then costs no WER alignment of rows never painted."""
        cells = self._painted.get(row)
        if cells is not None:
            text = cells.get((column, DISPLAY))
            return text if isinstance(text, str) else ""  # a str, or None for no text
        turn = self.turn_at(row)
        return "" if turn is None else shown_text(turn, Column(column))

    def holds_a_rate(self, row: int, column: int) -> bool:
        """Whether the WER, Concepts or Flags cell at ROW, COLUMN shows anything, known without making it."""
        turn = self.turn_at(row)
        return turn is not None and holds_a_rate(turn, Column(column))

    def prepare_rows(self, rows: range) -> None:
        """Make the painted values of ROWS ahead of their paint (views.rows_ahead), kept like those painted."""
        for row in rows:
            self._row_cells(row)

    def _row_cells(self, row: int) -> dict[tuple[int, int], object]:
        """ROW's painted values, made for the whole row the first time one is asked for, kept until its turn changes."""
        cells = self._painted.get(row)
        if cells is None:
            if len(self._painted) >= KEPT_ROWS:
                self._painted.clear()
            turn = self.turn_at(row)
            cells = {} if turn is None else self.painter.paint(turn, lambda column: self._search_hit(row, column))
            self._painted[row] = cells
        return cells

    def _data(self, index: QModelIndex | QPersistentModelIndex, role: int) -> object:
        turn = self.turn_at(index.row()) if index.isValid() else None
        if turn is None:
            return None
        column = Column(index.column())
        if role == Role.EditRole:
            return (turn.transcription or "") if column == Column.TRANSCRIPTION else cell_text(turn, column)
        if role == Role.ToolTipRole:
            return plain_tooltip(self._tooltip(turn, column))
        if role == TURN_ROLE:
            return turn
        if role == NEEDS_TRANSCRIPTION_ROLE:
            return needs_transcription(turn)
        if role == SPEAKER_ROLE:
            return turn.speaker
        if role == SECONDS_ROLE:
            return cell_seconds(turn, column)
        if role == SEARCH_HIT_ROLE:
            return self._search_hit(turn.index, column)
        return None

    def setData(self, index: QModelIndex | QPersistentModelIndex, value: object, role: int = Role.EditRole) -> bool:
        turn = self.turn_at(index.row()) if index.isValid() else None
        if (
            turn is None
            or role != Role.EditRole
            or index.column() != Column.TRANSCRIPTION
            or not is_transcribable(turn)
        ):
            return False
        command = TranscribeTurn(turn, str(value) if value is not None else None)
        push_if_changed(self.undo_stack, command)
        if command.removed_characters:
            self.note_reported.emit(removed_characters_note(command.removed_characters))
        return True

    # --- cells -------------------------------------------------------------
    def _tooltip(self, turn: Turn, column: Column) -> str | None:
        if column == Column.WER:
            counts, reason = cached_turn_wer_counts(turn)
            if counts is None or counts.rate is None:
                return reason
            return (
                f"{counts.substitutions} substituted, {counts.deletions} deleted, {counts.insertions} inserted "
                f"of {counts.reference_words} words"
            )
        if column == Column.CONCEPTS:
            concepts = cached_turn_concept_counts(turn)
            if concepts is None:
                return None
            return (
                f"{concepts.substitutions} substituted, {concepts.deletions} deleted, {concepts.insertions} "
                f"inserted of {concepts.reference_pairs} pairs (the frame name is one)"
            )
        if column == Column.TURN and needs_transcription(turn):
            return "User turn still to transcribe"
        if column == Column.FLAGS:
            return flags_tooltip(turn_flags(turn.facts()), turn_comment(turn.facts()))
        if column in (Column.RECOGNIZER, Column.SYSTEM, Column.TRANSCRIPTION):
            return cell_text(turn, column) or None
        return None
