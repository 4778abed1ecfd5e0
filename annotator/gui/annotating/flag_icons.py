"""How a turn's flags and comment look in the turn table: a drawn pennant (flags) or speech bubble
(a comment only) beside one letter per flag, the full names and the comment in the tooltip."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QIcon, QPainter, QPixmap, QPolygonF

from annotator.gui.theme import is_dark, theme_colour
from annotator.log.flags import CROSS_TALK, FLAG_DESCRIPTIONS, FLAGS, INAUDIBLE, NOISE, NON_NATIVE, TRUNCATED

# The letter of each flag in the turn table: the one its key (Alt+Shift+letter) uses.
FLAG_LETTERS = {INAUDIBLE: "I", CROSS_TALK: "X", TRUNCATED: "T", NON_NATIVE: "N", NOISE: "Z"}
COMMENT_LETTER = "C"
_SIZE = 12
_icons: dict[tuple[str, bool], QIcon] = {}


def flags_cell_text(flags: tuple[str, ...], comment: str | None) -> str:
    """'I Z C': the letters of FLAGS in order, and C when there is a comment."""
    letters = [FLAG_LETTERS[flag] for flag in FLAGS if flag in flags]
    return " ".join(letters + ([COMMENT_LETTER] if comment else []))


def flags_tooltip(flags: tuple[str, ...], comment: str | None) -> str | None:
    lines = [f"{FLAG_LETTERS[flag]} {flag}: {FLAG_DESCRIPTIONS[flag]}" for flag in FLAGS if flag in flags]
    if comment:
        lines.append(f"{COMMENT_LETTER} comment: {comment}")
    return "\n".join(lines) or None


def flags_icon(flags: tuple[str, ...], comment: str | None) -> QIcon | None:
    """A pennant when the turn is flagged, else a speech bubble when it has a comment, else None."""
    if not flags and not comment:
        return None
    kind = "flag" if flags else "comment"
    key = (kind, is_dark())
    if key not in _icons:
        pixmap = QPixmap(_SIZE, _SIZE)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = theme_colour("flag_mark" if flags else "comment_mark")
        painter.setPen(colour)
        painter.setBrush(colour)
        if flags:
            painter.drawLine(QPointF(2.5, 1), QPointF(2.5, 11))
            painter.drawPolygon(QPolygonF([QPointF(3, 1.5), QPointF(11, 4), QPointF(3, 6.5)]))
        else:
            painter.drawRoundedRect(QRectF(1, 1.5, 10, 7), 2, 2)
            painter.drawPolygon(QPolygonF([QPointF(3, 8), QPointF(3, 11), QPointF(6, 8)]))
        painter.end()
        _icons[key] = QIcon(pixmap)
    return _icons[key]
