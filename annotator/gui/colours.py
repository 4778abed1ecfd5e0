"""Colours that several views share, named by what they mean, and the dot icon they draw with them.

WARNING_TEXT marks a value that is shown as it is but is probably wrong (a
negative duration); dark enough on a light background for WCAG AA (5.9:1 on white).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap

from annotator.analysis.doubt import doubt_step

WARNING_TEXT = QColor("#a35200")
GREYED_TEXT = QColor("#8c8c8c")  # a row or value that matters less (a quirk, an unknown)
UNTRANSCRIBED_BACKGROUND = QColor("#fff1cc")  # the turn table and the session list mark untranscribed work alike
UNTRANSCRIBED_TEXT = QColor("#3a3000")

ICON_SIZE = 12
_dots: dict[tuple[str, int], QIcon] = {}


def dot_icon(colour: QColor, diameter: int) -> QIcon:
    """A filled dot of COLOUR, DIAMETER pixels wide, centred in a 12-pixel icon (drawn, so no font can
    lack it; drawn once per colour and size, after the QApplication exists)."""
    key = (colour.name(QColor.NameFormat.HexArgb), diameter)
    if key not in _dots:
        pixmap = QPixmap(ICON_SIZE, ICON_SIZE)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        margin = (ICON_SIZE - diameter) // 2
        painter.drawEllipse(margin, margin, diameter, diameter)
        painter.end()
        _dots[key] = QIcon(pixmap)
    return _dots[key]


# The doubt strips of the turn table and the timeline (docs/metrics.md, "Doubt"): five steps from a pale
# green (little doubt) to a deep red, distinct in hue and in lightness, so they read on any screen and in grey.
DOUBT_RAMP = (  # one colour per analysis.doubt.DOUBT_STEPS
    QColor("#cfe8c4"), QColor("#f2e08a"), QColor("#f5b04d"), QColor("#e56b3c"), QColor("#b3202a"))


def doubt_colour(score: float) -> QColor:
    """The ramp's colour for a doubt score in [0, 1]."""
    return DOUBT_RAMP[doubt_step(score)]
