"""A pane at which its contents' requests for a new layout stop, unless the window's layout would place it anew.

Qt passes a widget's request for a new layout (QLabel.setText, show and hide call updateGeometry) up to the
window: each layout, once it has laid out its own widget, asks that widget's parent again, whether the sizes it
reports changed or not, and the climb stops only at a widget of fixed size. A pane that follows the selected
turn would have its dock, the other docks and the main window laid out again at every move.

A LayoutBoundary holds the pane's contents in `body`, with the layout, and places the body itself. A request
from the body has the body laid out (its own layout does that) and reaches the boundary, which passes it on
only when what the splitter and the dock layout hold the pane to changed: the body's minimum and maximum size
and its size policy. Its preferred size (the text shown changes it at every turn) is read whenever the window is
laid out for another reason, as a first show or a resize.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent, QShowEvent
from PySide6.QtWidgets import QSizePolicy, QWidget, QWidgetItem

WidgetT = TypeVar("WidgetT", bound=QWidget)
# The minimum and maximum size, the horizontal and vertical policy and stretch.
Limits = tuple[QSize, QSize, QSizePolicy.Policy, QSizePolicy.Policy, int, int]


class LayoutBoundary(QWidget):
    """Subclasses give `body` their layout."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.body = QWidget(self)
        self._limits: Limits | None = None  # what the window's layout last read of the body

    def _body_limits(self) -> Limits:
        """The pane's minimum size as its parent's layout reads it (a minimum set on the pane prevails over the
        body's), the body's maximum and size policy."""
        policy = self.body.sizePolicy()
        return (
            QWidgetItem(self).minimumSize(),
            QWidgetItem(self.body).maximumSize(),
            policy.horizontalPolicy(),
            policy.verticalPolicy(),
            policy.horizontalStretch(),
            policy.verticalStretch(),
        )

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self._pass_on_if_changed()
            return True
        return super().event(event)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._pass_on_if_changed()  # Qt posts no request to a hidden pane: what changed meanwhile is passed on here

    def _pass_on_if_changed(self) -> None:
        limits = self._body_limits()
        if limits != self._limits:
            self._limits = limits
            self.setMaximumSize(limits[1])
            self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.body.setGeometry(self.rect())

    def sizeHint(self) -> QSize:
        return self.body.sizeHint()

    def minimumSizeHint(self) -> QSize:
        return QWidgetItem(self.body).minimumSize()

    def hasHeightForWidth(self) -> bool:
        return self.body.hasHeightForWidth()

    def heightForWidth(self, width: int) -> int:
        return self.body.heightForWidth(width)


def text_width_free(widget: WidgetT) -> WidgetT:
    """WIDGET (a label whose text follows the turn) with a minimum width of its own instead of its text's: a new
    text no longer changes the pane's minimum width. Where the pane is narrower than the text, the text is cut."""
    widget.setMinimumWidth(1)
    return widget
