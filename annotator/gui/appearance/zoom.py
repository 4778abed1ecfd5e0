"""Zooming the text of the turn table and the transcription editor (View > Zoom in / out / Actual size).

The zoom is a percentage of each widget's own text size (the table's font, the editor's larger one, or the
editor font size of the settings), one of ZOOM_STEPS; the table's rows grow with their text, its column titles
keep their size, and the short columns are fitted again. settings.zoom keeps it, and a new window starts at it.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QHeaderView, QWidget

from annotator.gui.settings import AppSettings

ZOOM_STEPS = (50, 67, 75, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300)


def rows_kept(percent: int) -> int:
    """The turn table's rows in view at PERCENT, whatever else the window shows (docks, Compare, a long n-best
    list): the table is where the annotator works, and a 1280x720 screen still has room for these beside the
    editor and the docks' least heights. At 300 % four: a row is some 51 px, and with every dock
    shown and a long n-best list a fifth grows the window past 720 px (the layout grid's worst state)."""
    return 8 if percent <= 100 else 5 if percent <= 200 else 4


def clamp_zoom(percent: int) -> int:
    return max(ZOOM_STEPS[0], min(ZOOM_STEPS[-1], int(percent)))


def next_zoom(percent: int, direction: int) -> int:
    """The step after PERCENT upwards (DIRECTION +1) or downwards (-1); the last step stays."""
    if direction > 0:
        return next((step for step in ZOOM_STEPS if step > percent), ZOOM_STEPS[-1])
    return next((step for step in reversed(ZOOM_STEPS) if step < percent), ZOOM_STEPS[0])


def scaled_font(font: QFont, percent: int) -> QFont:
    """FONT at PERCENT of its size (in points, or in pixels for a font sized in pixels)."""
    scaled = QFont(font)
    if font.pointSizeF() > 0:
        scaled.setPointSizeF(font.pointSizeF() * percent / 100)
    else:
        scaled.setPixelSize(max(1, round(font.pixelSize() * percent / 100)))
    return scaled


class ZoomedTable(Protocol):
    """What the zoom asks of the turn table (a TurnTableView)."""

    def font(self) -> QFont: ...
    def setFont(self, font: QFont, /) -> None: ...
    def horizontalHeader(self) -> QHeaderView: ...
    def fit_rows_to_font(self) -> None: ...
    def keep_rows(self, count: int, /) -> None: ...
    def fit_short_columns(self) -> None: ...


class ZoomedEditor(Protocol):
    """What the zoom asks of the transcription editor (a TranscriptionEditor)."""

    @property
    def text(self) -> QWidget: ...  # the text box
    def font(self) -> QFont: ...
    def setFont(self, font: QFont, /) -> None: ...
    def set_text_font(self, font: QFont, /) -> None: ...


class Zoom:
    """The zoom of TABLE (a TurnTableView) and EDITOR (a TranscriptionEditor), applied at once from SETTINGS."""

    def __init__(self, settings: AppSettings, table: ZoomedTable, editor: ZoomedEditor):
        self.settings, self.table, self.editor = settings, table, editor
        self._table_font = QFont(table.font())
        self._editor_font = QFont(editor.font())
        self._text_font = QFont(editor.text.font())
        self.percent = 100
        self.set_zoom(settings.zoom)

    def zoom_in(self) -> None:
        self.set_zoom(next_zoom(self.percent, +1))

    def zoom_out(self) -> None:
        self.set_zoom(next_zoom(self.percent, -1))

    def reset_zoom(self) -> None:
        self.set_zoom(100)

    def set_zoom(self, percent: int) -> None:
        """Show the table's and the editor's text at PERCENT (clamped to the steps) and keep it in the settings."""
        self.percent = clamp_zoom(percent)
        self.settings.zoom = self.percent
        # The column titles stay at the window's size, like the menus and the docks: zoomed, the empty Concepts and
        # Flags columns' titles alone took the room of the text columns they share the table's width with.
        # (at 100 %: its size set, so that the table's zoomed font no longer passes to it).
        self.table.horizontalHeader().setFont(scaled_font(self._table_font, 100))
        self.table.setFont(scaled_font(self._table_font, self.percent))
        self.table.fit_rows_to_font()
        self.table.keep_rows(rows_kept(self.percent))
        self.table.fit_short_columns()
        self.editor.setFont(scaled_font(self._editor_font, self.percent))
        self.editor.set_text_font(scaled_font(self._editor_text_font(), self.percent))

    def _editor_text_font(self) -> QFont:
        """The editor's text at 100%: the size the settings give it, else the editor's own."""
        font = QFont(self._text_font)
        if self.settings.editor_font_size > 0:
            font.setPointSizeF(self.settings.editor_font_size)
        return font
