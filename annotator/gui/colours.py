"""The colours several views share, by what they mean (from the theme table, annotator.gui.theme), and the dot
icon they draw with them."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPixmap

from annotator.analysis.doubt import doubt_step
from annotator.analysis.validation import Severity
from annotator.gui.theme import DOUBT_COLOURS, theme_colour

ICON_SIZE = 12
SEVERITY_COLOURS = {severity: f"severity_{severity.name.lower()}" for severity in Severity}  # theme table names
_dots: dict[tuple[str, int], QIcon] = {}


def dot_icon(colour: QColor, diameter: int) -> QIcon:
    """A filled dot of COLOUR, DIAMETER pixels wide, centred in a 12-pixel icon (drawn, so no font can
    lack it; drawn once per colour and size, after the QApplication exists), sharp at 1x, 2x and the
    screen's own device pixel ratio."""
    key = (colour.name(QColor.NameFormat.HexArgb), diameter)
    if key not in _dots:
        icon = QIcon()
        app = QGuiApplication.instance()
        assert isinstance(app, QGuiApplication), "dots are drawn once the QApplication exists"
        for ratio in sorted({1, 2, math.ceil(app.devicePixelRatio())}):
            icon.addPixmap(_dot_pixmap(colour, diameter, ratio))
        _dots[key] = icon
    return _dots[key]


def _dot_pixmap(colour: QColor, diameter: int, ratio: int) -> QPixmap:
    pixmap = QPixmap(ICON_SIZE * ratio, ICON_SIZE * ratio)
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(colour)
    # Whole pixels: drawEllipse's overload for ints truncates a fractional margin, as PySide6 did when given one.
    margin = int((ICON_SIZE - diameter) / 2)
    painter.drawEllipse(margin, margin, diameter, diameter)
    painter.end()
    return pixmap


def doubt_ramp() -> tuple[QColor, ...]:
    """The doubt strips of the turn table and the timeline (docs/metrics.md, "Doubt"), in the scheme shown:
    five steps from little doubt to much, distinct in hue and in lightness, so they read on any screen and in grey."""
    return tuple(theme_colour(name) for name in DOUBT_COLOURS)


def doubt_colour(score: float) -> QColor:
    """The ramp's colour for a doubt score in [0, 1]."""
    return theme_colour(DOUBT_COLOURS[doubt_step(score)])


def severity_icon(severity: Severity) -> QIcon:
    """A filled dot in the severity's colour."""
    return dot_icon(theme_colour(SEVERITY_COLOURS[severity]), 10)
