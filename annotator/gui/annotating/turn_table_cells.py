"""What each cell of the turn table shows: its text, its seconds, and everything its paint asks for,
made for a whole row at once.

A page down brings some thirty new rows into view, three hundred cells, each asked for six painted
roles (text, alignment, background, foreground, font, icon). Made cell by cell and role by role, a
row looked its turn up, asked whether it is still to transcribe and built its brushes sixty times;
made here once per row, from brushes made once per theme.
"""

from __future__ import annotations

import enum
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QFont, QIcon

from annotator.analysis.concept_metrics import cached_turn_concept_counts
from annotator.analysis.metrics_wer import cached_turn_wer_counts
from annotator.gui.annotating.flag_icons import flags_cell_text, flags_icon
from annotator.gui.colours import dot_icon
from annotator.gui.theme import theme_colour
from annotator.log.concepts import reference_concepts
from annotator.log.elements import Turn
from annotator.log.flags import turn_comment, turn_flags
from annotator.log.text import shorten

Role = Qt.ItemDataRole
UNTRANSCRIBED_PLACEHOLDER = "to transcribe"


class Column(enum.IntEnum):
    TURN = 0
    SPEAKER = 1
    START = 2
    DURATION = 3
    RECOGNIZER = 4
    SYSTEM = 5
    TRANSCRIPTION = 6
    WER = 7
    CONCEPTS = 8
    FLAGS = 9


NUMBER_COLUMNS = (Column.START, Column.DURATION, Column.WER, Column.CONCEPTS)
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
DISPLAY, ALIGNMENT, BACKGROUND = int(Role.DisplayRole), int(Role.TextAlignmentRole), int(Role.BackgroundRole)
FOREGROUND, FONT, DECORATION = int(Role.ForegroundRole), int(Role.FontRole), int(Role.DecorationRole)
# What a paint asks of every visible cell, several times a second while scrolling.
PAINTED_ROLES = frozenset((DISPLAY, ALIGNMENT, BACKGROUND, FOREGROUND, FONT, DECORATION))
HIT_BACKGROUNDS = {"current": "search_current_hit_background", "hit": "search_hit_background"}


def needs_transcription(turn: Turn) -> bool:
    return turn.speaker == "user" and turn.transcription is None


def cell_seconds(turn: Turn, column: Column) -> float | None:
    if column == Column.START:
        # Subtract the numbers as written: epoch times as float seconds lose the milliseconds.
        return turn.session.since_start(turn.get("stime"))
    if column == Column.DURATION:
        return turn.duration
    return None


def shown_text(turn: Turn, column: Column) -> str:
    """What the cell shows: its text, shortened."""
    return shorten(cell_text(turn, column))


def holds_a_rate(turn: Turn, column: Column) -> bool:
    """Whether TURN's cell in the WER, Concepts or Flags column shows anything, read from its facts alone (no
    word alignment): an empty column of a session is as narrow as its title."""
    facts = turn.facts()
    if column == Column.WER:
        return facts.transcription is not None
    if column == Column.CONCEPTS:
        return reference_concepts(facts) is not None
    return bool(turn_flags(facts) or turn_comment(facts))


def cell_text(turn: Turn, column: Column) -> str:
    """The cell's whole text (the table shows it shortened)."""
    if column == Column.TURN:
        return turn.id
    if column == Column.SPEAKER:
        return turn.speaker or ""
    if column in (Column.START, Column.DURATION):
        seconds = cell_seconds(turn, column)
        return "" if seconds is None else f"{seconds:.2f}"
    if column == Column.RECOGNIZER:
        return turn.asr_text or ""
    if column == Column.SYSTEM:
        return turn.system_text or ""
    if column == Column.TRANSCRIPTION:
        transcription = turn.transcription
        if transcription is None and turn.speaker == "user":
            return UNTRANSCRIBED_PLACEHOLDER
        return transcription or ""
    if column == Column.WER:
        counts, _reason = cached_turn_wer_counts(turn)
        if counts is None:
            return "" if turn.transcription is None else "—"
        return "—" if counts.rate is None else f"{counts.rate * 100:.1f} %"
    if column == Column.CONCEPTS:
        concepts = cached_turn_concept_counts(turn)
        if concepts is None:
            return ""
        accuracy = concepts.accuracy
        assert accuracy is not None, "a turn's reference concepts hold their frame name's pair at least"
        return f"{accuracy * 100:.1f} %"
    if column == Column.FLAGS:
        return flags_cell_text(turn_flags(turn.facts()), turn_comment(turn.facts()))
    return ""


class RowPainter:
    """Makes a row's painted values, {(column, role): value}; a role it leaves out is None."""

    def __init__(self) -> None:
        self.italic = QFont()
        self.italic.setItalic(True)
        self._brushes: dict[str, QBrush] = {}
        self._untranscribed_dot: QIcon | None = None

    def restyle(self) -> None:
        """The theme changed: brushes and icons are made again from its colours."""
        self._brushes.clear()
        self._untranscribed_dot = None

    def brush(self, name: str) -> QBrush:
        brush = self._brushes.get(name)
        if brush is None:
            brush = self._brushes[name] = QBrush(theme_colour(name))
        return brush

    def paint(self, turn: Turn, hit_of: Callable[[Column], str | None]) -> dict[tuple[int, int], object]:
        """TURN's row; HIT_OF(column) says whether the find bar's hit ("hit", "current") is in that cell."""
        untranscribed = needs_transcription(turn)
        background = self.brush("untranscribed_background") if untranscribed else None
        foreground = self.brush("untranscribed_text") if untranscribed else None
        cells: dict[tuple[int, int], object] = {}
        for column in Column:
            hit = hit_of(column)
            cells[column, DISPLAY] = shown_text(turn, column)
            cells[column, BACKGROUND] = self.brush(HIT_BACKGROUNDS[hit]) if hit is not None else background
            cells[column, FOREGROUND] = foreground
        for column in NUMBER_COLUMNS:
            cells[column, ALIGNMENT] = RIGHT_ALIGNED
        if untranscribed:
            cells[Column.TRANSCRIPTION, FOREGROUND] = self.brush("placeholder_text")
            cells[Column.TRANSCRIPTION, FONT] = self.italic
            if self._untranscribed_dot is None:
                self._untranscribed_dot = dot_icon(theme_colour("untranscribed_marker"), 8)
            cells[Column.TURN, DECORATION] = self._untranscribed_dot
        if (turn.duration or 0) < 0:
            cells[Column.DURATION, FOREGROUND] = self.brush("warning_text")
        cells[Column.FLAGS, DECORATION] = flags_icon(turn_flags(turn.facts()), turn_comment(turn.facts()))
        return cells
