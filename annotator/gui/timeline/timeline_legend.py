"""How the timeline draws each kind, and its legend: a swatch drawn with that very style, its name, and a tooltip."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from annotator.gui.theme import theme_colour
from annotator.gui.timeline import timeline_style as style
from annotator.gui.timeline.timeline_lane_item import KindStyle
from annotator.timeline import data

SWATCH_WIDTH, SWATCH_HEIGHT = 14, 11


def turn_styles() -> dict[int, KindStyle]:
    """The turn band's bars in the scheme shown: turns still to transcribe hatched."""
    hatch = theme_colour("turn_hatch")
    return {
        kind: KindStyle(fill, style.outline_of(fill), hatch=hatch if kind == data.USER_UNTRANSCRIBED else None)
        for kind, fill in style.colours(style.TURN_FILL).items()
    }


def audio_styles() -> dict[int, KindStyle]:
    """The audio lane's bars in the scheme shown: missing audio outlined and hatched."""
    styles = {kind: KindStyle.solid(fill) for kind, fill in style.colours(style.AUDIO_FILL).items()}
    mark = theme_colour("missing_audio_mark")
    styles[data.AUDIO_MISSING] = KindStyle(styles[data.AUDIO_MISSING].fill, mark, hatch=mark)
    return styles


def server_styles(lane_number: int) -> dict[int, KindStyle]:
    """The bars of the LANE_NUMBER-th server lane: its own colour, virtual operations dashed."""
    fill = style.lane_fill(lane_number)
    return {
        data.OPERATION: KindStyle.solid(fill),
        data.VIRTUAL_OPERATION: KindStyle(fill.lighter(130), style.outline_of(fill), dashed=True),
    }


@dataclass(frozen=True)
class LegendEntry:
    name: str
    tooltip: str
    bar: KindStyle | None = None  # a bar drawn with this style...
    tick: QColor | None = None  # ...or a tick of this colour


def legend_entries() -> list[LegendEntry]:
    """What the lanes draw, with the very styles they draw it with."""
    ticks = style.colours(style.TICK_COLOURS)
    turns, audio, virtual_style = turn_styles(), audio_styles(), server_styles(0)[data.VIRTUAL_OPERATION]
    return [
        LegendEntry("system", "A system turn, and the system's audio in the audio lane", turns[data.SYSTEM_TURN]),
        LegendEntry(
            "user", "A transcribed user turn, and the user's audio in the audio lane", turns[data.USER_TRANSCRIBED]
        ),
        LegendEntry("not transcribed", "A user turn still to transcribe", turns[data.USER_UNTRANSCRIBED]),
        LegendEntry(
            "audio missing",
            "Audio the log names but that cannot be played: the file is missing, "
            "or its path is refused (a folder, outside the log's folder). Hover or click it for the path",
            audio[data.AUDIO_MISSING],
        ),
        LegendEntry(
            "virtual operation",
            "Dashed, in its server's colour: an operation of type "
            + " or ".join(data.VIRTUAL_TYPES)
            + ", a duration the log records, not a call to the server",
            virtual_style,
        ),
        LegendEntry("message", "A GC_MESSAGE: a tick on its server's lane", tick=ticks[data.MESSAGE]),
        LegendEntry("event", "A GC_EVENT: a tick on its server's lane", tick=ticks[data.EVENT]),
        LegendEntry("marker", "A marker's hit (Markers menu): a tick on the marker's lane", tick=ticks[data.MARKER]),
    ]


def swatch(entry: LegendEntry, ratio: float = 1.0) -> QPixmap:
    pixmap = QPixmap(round(SWATCH_WIDTH * ratio), round(SWATCH_HEIGHT * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    rect = QRectF(1, 1, SWATCH_WIDTH - 2, SWATCH_HEIGHT - 2)
    if entry.bar is not None:
        bar = entry.bar
        pen = QPen(bar.outline or bar.fill, 1)
        if bar.dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush if bar.dashed else QBrush(bar.fill))
        painter.drawRect(rect)
        if bar.hatch is not None:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QBrush(bar.hatch, Qt.BrushStyle.BDiagPattern))
            painter.drawRect(rect)
    elif entry.tick is not None:
        painter.setPen(QPen(entry.tick, 2))
        middle = SWATCH_WIDTH / 2
        painter.drawLine(QPointF(middle, 0), QPointF(middle, SWATCH_HEIGHT))
    painter.end()
    return pixmap


class TimelineLegend(QWidget):
    """One swatch and name per entry, in a row."""

    def __init__(self, entries: list[LegendEntry], parent: QWidget | None = None):
        super().__init__(parent)
        self.entries = entries
        self.swatches: list[QLabel] = []
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.setSpacing(3)
        for entry in entries:
            icon = QLabel(self)
            text = QLabel(entry.name, self)
            for label in (icon, text):
                label.setToolTip(entry.tooltip)
            layout.addWidget(icon)
            layout.addWidget(text)
            layout.addSpacing(5)
            self.swatches.append(icon)
        self.show_entries(entries)

    def show_entries(self, entries: list[LegendEntry]) -> None:
        """Draw the swatches again with ENTRIES' styles (the same names, e.g. in another scheme)."""
        self.entries = entries
        ratio = self.devicePixelRatioF()
        for icon, entry in zip(self.swatches, entries, strict=True):
            icon.setPixmap(swatch(entry, ratio))
