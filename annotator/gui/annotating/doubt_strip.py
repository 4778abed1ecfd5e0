"""The turn table's doubt strip: its row header, a narrow bar per row in the colour of the turn's doubt.

The model answers the vertical header's BackgroundRole (the colour, None for a turn without a doubt score)
and ToolTipRole (the score and its reasons); this header paints the colour itself, so every style shows it
the same, and leaves the tooltips to QHeaderView.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QHeaderView, QWidget

STRIP_PIXELS = 10


class DoubtStripHeader(QHeaderView):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("doubt_strip")
        self.setFixedWidth(STRIP_PIXELS)
        self.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.setHighlightSections(False)

    def paintSection(self, painter: QPainter, rect: QRect, logical_index: int) -> None:
        model = self.model()
        colour = (
            model.headerData(logical_index, Qt.Orientation.Vertical, Qt.ItemDataRole.BackgroundRole)
            if model is not None
            else None
        )
        painter.fillRect(rect, colour if isinstance(colour, QColor) else self.palette().base())
        painter.fillRect(QRect(rect.right(), rect.top(), 1, rect.height()), self.palette().mid())
