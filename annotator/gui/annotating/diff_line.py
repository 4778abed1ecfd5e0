"""The live word diff under the transcription editor: at most DIFF_LINES lines high, whatever its length.

A word-wrapped label asks for the height of all its text: a diff of a few thousand characters asked for some
500 pixels, which the editor took from the text box (or the window from the screen) and drew over the hint
below it. Here the label is always its lines high; a diff that needs more is cut there, ends in an
ellipsis, and shows whole in its tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

DIFF_LINES = 2
ELLIPSIS = " …"


class DiffLine(QLabel):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("word_diff")
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._fit_lines()

    def setText(self, text: str) -> None:  # the same call, with the tooltip kept true
        super().setText(text)
        self._show_whole_if_cut()

    def is_cut(self) -> bool:
        """The text needs more than DIFF_LINES lines at the label's width."""
        return bool(self.text()) and self.heightForWidth(self.width()) > self.height()

    def _fit_lines(self) -> None:
        margins = self.contentsMargins()
        # Always its lines, a short diff too: the text box above keeps its height as the diff grows while typing.
        self.setFixedHeight(self.fontMetrics().lineSpacing() * DIFF_LINES + margins.top() + margins.bottom())

    def _show_whole_if_cut(self) -> None:
        self.setToolTip(self.text() if self.is_cut() else "")

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit_lines()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._show_whole_if_cut()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self.is_cut():
            return
        # The ellipsis over the end of the last line shown, on the label's background, says the text goes on.
        painter = QPainter(self)
        width = self.fontMetrics().horizontalAdvance(ELLIPSIS) + 2
        line = self.fontMetrics().lineSpacing()
        contents = self.contentsRect()
        bottom = contents.top() + (contents.height() // line) * line
        place = QRect(contents.right() - width, bottom - line, width, line)
        painter.fillRect(place, self.palette().window())
        painter.setPen(self.palette().windowText().color())
        painter.drawText(place, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), ELLIPSIS)
