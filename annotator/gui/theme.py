"""The one table of colours the views draw with that the palette has no role for, each a light and a dark value.

A view asks for a colour by what it means, `theme_colour("untranscribed_background")`, and gets the value for
the scheme the application shows now (dark when the palette's window colour is dark). Colours the palette
already names (text, base, highlight...) come from the palette itself, never from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QColor, QGuiApplication, QPalette


@dataclass(frozen=True)
class ColourPair:
    light: str
    dark: str
    doc: str


THEME_COLOURS: dict[str, ColourPair] = {}
# The listening kit's voice-activity strip under the waveform (gui/views/voice_activity_strip.py).
THEME_COLOURS["voice_activity"] = ColourPair("#2e7d32", "#81c784", "speech found by the voice-activity detector")


def is_dark() -> bool:
    """Whether the application shows a dark scheme now: its palette's window colour is dark."""
    app = QGuiApplication.instance()
    if app is None:
        return False
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def theme_colour(name: str, dark: bool | None = None) -> QColor:
    """The colour NAME means in the dark or light scheme (the one shown now when DARK is None)."""
    pair = THEME_COLOURS[name]
    return QColor(pair.dark if (is_dark() if dark is None else dark) else pair.light)
