"""Widgets for a long name in a row of other texts (a session's id beside its review and progress): the name gives
way first. Qt's box layout takes the room a row lacks from every widget alike, from its preferred width down to its
minimum; these widgets prefer the width of a few characters instead of their whole text, so the others keep theirs,
and grow into the room left over (an expanding size policy; the layout should give them its stretch) up to their
whole text, their maximum width. Where they get less, the text is elided in the middle, where ids differ least."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QWidget,
)

FEW_CHARACTERS = 14  # enough to tell "travel:20261121:002" from its neighbours, its middle elided


class GivingWayComboBox(QComboBox):
    """A selector as wide as its longest item where the row has room for it (set_longest), else narrower, down to
    FEW_CHARACTERS, with the item shown elided."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        # Widths in characters: AdjustToContents measures every item on the GUI thread (2,000 sessions in a log).
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setIconSize(QSize(0, 0))  # the items have none: no room kept for one
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_longest(self, characters: int) -> None:
        """CHARACTERS: the length of the longest item."""
        self.setMinimumContentsLength(characters)
        self._fit_maximum()

    def sizeHint(self) -> QSize:
        return self._few(super().sizeHint())

    def minimumSizeHint(self) -> QSize:
        return self._few(super().minimumSizeHint())

    def _few(self, whole: QSize) -> QSize:
        """WHOLE (the size for the longest item) with room for FEW_CHARACTERS only; Qt counts a character as an x."""
        spare = max(0, self.minimumContentsLength() - FEW_CHARACTERS) * self.fontMetrics().horizontalAdvance("x")
        return QSize(whole.width() - spare, whole.height())

    def _fit_maximum(self) -> None:
        self.setMaximumWidth(super().sizeHint().width())

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_maximum()  # a zoom changes the width of the longest item

    def paintEvent(self, event: QPaintEvent) -> None:
        """QComboBox's own painting, with the item shown elided rather than clipped."""
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        option.currentText = self.fontMetrics().elidedText(
            option.currentText,
            Qt.TextElideMode.ElideMiddle,
            field.width() - 2,  # the style's margin of 1 a side
        )
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


class GivingWayLabel(QLabel):
    """A label of one line of plain text, as wide as its text where the row has room for it, else narrower, down
    to FEW_CHARACTERS, with its text elided."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit_maximum()

    def sizeHint(self) -> QSize:
        whole = super().sizeHint()
        return QSize(min(whole.width(), self._few_width()), whole.height())

    def _few_width(self) -> int:
        margins = self.contentsMargins()
        return self.fontMetrics().horizontalAdvance("x" * FEW_CHARACTERS) + margins.left() + margins.right()

    def _fit_maximum(self) -> None:
        self.setMaximumWidth(max(super().sizeHint().width(), 1))

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.StyleChange):
            self._fit_maximum()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        room = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideMiddle, room.width())
        self.style().drawItemText(
            painter, room, int(self.alignment()), self.palette(), self.isEnabled(), shown, self.foregroundRole()
        )
