"""The one table of colours the views draw with that the palette has no role for, each a light and a dark value,
and the schemes themselves: the dark palette, and applying a theme ("system", "light" or "dark") to the application.

A view asks for a colour by what it means, `theme_colour("untranscribed_background")`, when it draws, and gets the
value for the scheme the application shows now (dark when the palette's window colour is dark). Colours the palette
already names (text, base, highlight...) come from the palette itself, never from here. A view that keeps colours
(a pen, an icon, a graphics item) takes them again when apply_theme shows another scheme, from theme_changes().changed.

Each entry says what it must stand out against (`against`): the backgrounds a text or a mark is drawn on, or the text
drawn on a fill; tests/gui/test_theme.py checks the WCAG 2.x contrast of every such pair in both schemes (4.5:1 for
text, 3:1 for marks such as strips, ticks and dots).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

THEMES = ("system", "light", "dark")
TEXT, MARK, FILL = "text", "mark", "fill"  # what an entry is: read, seen, or drawn under text
ROWS = ("base", "alternate_base")  # the two backgrounds of a table's rows


@dataclass(frozen=True)
class ColourPair:
    light: str
    dark: str
    doc: str
    kind: str = TEXT
    against: tuple[str, ...] = ROWS  # palette roles (base, alternate_base, window, text) or entries of the table


_LANES = ("turn_unknown", "turn_system", "turn_user", "turn_untranscribed", *(f"lane_{n}" for n in range(8)))
_DOUBT = tuple(f"doubt_{step}" for step in range(5))

THEME_COLOURS: dict[str, ColourPair] = {
    # tables and lists
    "warning_text": ColourPair(
        "#a35200",
        "#ffb870",
        "a value shown as it is but probably wrong (a negative duration)",
        against=(*ROWS, "untranscribed_background"),
    ),
    "greyed_text": ColourPair(
        "#696969", "#a6a6a6", "a row or value that matters less (a quirk, an unknown, a metric that cannot be computed)"
    ),
    "untranscribed_background": ColourPair(
        "#fff1cc",
        "#3b3320",
        "a user turn (or a session) still to transcribe",
        FILL,
        ("untranscribed_text", "placeholder_text", "text"),
    ),
    "untranscribed_text": ColourPair(
        "#3a3000", "#f3e4b5", "the text of a row still to transcribe", against=("untranscribed_background",)
    ),
    "placeholder_text": ColourPair(
        "#6e5f35",
        "#cdbd8f",
        "the transcription cell of a turn still to transcribe",
        against=("untranscribed_background",),
    ),
    "untranscribed_marker": ColourPair(
        "#a86400", "#f0a030", "the dot of a user turn still to transcribe", MARK, ("untranscribed_background",)
    ),
    "unreadable_text": ColourPair("#b02420", "#ff8f85", "a log of the session list that could not be read"),
    "alert_text": ColourPair(
        "#ffffff", "#ffffff", "a warning banner's text (the journal cannot be written)", against=("alert_background",)
    ),
    "alert_background": ColourPair(
        "#b3261e", "#b3261e", "a warning banner, alike in both schemes", FILL, ("alert_text",)
    ),
    "attribute_text": ColourPair("#5f6368", "#a9aeb4", "an attribute's name in the element tree", against=("base",)),
    "severity_error": ColourPair("#d0312d", "#ff6b63", "the dot of an error finding", MARK),
    "severity_warning": ColourPair("#b86e00", "#f0a030", "the dot of a warning finding", MARK),
    "severity_quirk": ColourPair("#8a8a8a", "#8c8c8c", "the dot of a finding that is only the DTD's own mistake", MARK),
    "severity_info": ColourPair("#3b7dd8", "#6fa8f0", "the dot of an informative finding", MARK),
    # the transcription editor's word diff, on the window's background
    "heard_text": ColourPair("#b3261e", "#ff8f85", "recognizer words that are wrong", against=("window",)),
    "said_text": ColourPair(
        "#1d7a35", "#7fd890", "transcription words the recognizer got wrong or missed", against=("window",)
    ),
    # the doubt ramp (docs/metrics.md, "Doubt"): little doubt to much, distinct in hue and in lightness; the session
    # list writes the score on it in the palette's text colour
    "doubt_0": ColourPair("#cfe8c4", "#2c4a2a", "doubt: little", FILL, ("text",)),
    "doubt_1": ColourPair("#f2e08a", "#4f4a1c", "doubt: some", FILL, ("text",)),
    "doubt_2": ColourPair("#f5b04d", "#6b4712", "doubt: middling", FILL, ("text",)),
    "doubt_3": ColourPair("#ec8a5e", "#7c3419", "doubt: much", FILL, ("text",)),
    "doubt_4": ColourPair("#e0605a", "#8f1d26", "doubt: most", FILL, ("text",)),
    # the timeline: bars (labelled in label_text), ticks, the selection; the waveform; the playback cursor
    "turn_unknown": ColourPair("#b9bec6", "#5a5f66", "a turn of no known speaker", FILL, ("label_text",)),
    "turn_system": ColourPair("#8c9db5", "#44546b", "a system turn, and the system's audio", FILL, ("label_text",)),
    "turn_user": ColourPair(
        "#6fb06f", "#2f6a35", "a transcribed user turn, and the user's audio", FILL, ("label_text",)
    ),
    "turn_untranscribed": ColourPair(
        "#e7a93b", "#7a5410", "a user turn still to transcribe (hatched)", FILL, ("label_text",)
    ),
    "turn_hatch": ColourPair("#6e784600", "#8cffd080", "the hatching of a turn still to transcribe", FILL, ()),
    "audio_missing": ColourPair(
        "#fbe3e0", "#4a2522", "audio the log names that cannot be played", FILL, ("missing_audio_mark",)
    ),
    "missing_audio_mark": ColourPair(
        "#c0392b", "#ff7b6b", "the outline and hatching of missing audio", MARK, ("base", "audio_missing")
    ),
    **{
        f"lane_{n}": ColourPair(
            light, dark, f"the bars of the {n + 1}th server lane (then again from the first)", FILL, ("label_text",)
        )
        for n, (light, dark) in enumerate(
            (
                ("#5b8fc7", "#2f5784"),
                ("#d08c4c", "#7d4c1c"),
                ("#58a89a", "#236458"),
                ("#a679b8", "#5e3a6e"),
                ("#c9b04a", "#6b5c16"),
                ("#cc6f7b", "#7a3440"),
                ("#7f9a55", "#45592a"),
                ("#9a8f80", "#574e42"),
            )
        )
    },
    "label_text": ColourPair("#16202a", "#eef2f6", "the label of a timeline bar", against=_LANES),
    "selected_outline": ColourPair("#1c2733", "#f2f5f8", "the outline of the selected turn", MARK, ("base", *_LANES)),
    "selection_shade": ColourPair("#1c3c6ec8", "#285a96f0", "the selected turn's span across every lane", FILL, ()),
    "lane_stripe": ColourPair("#0c000000", "#10ffffff", "every other lane", FILL, ()),
    "tick_message": ColourPair("#3d4a5c", "#b4c2d6", "a GC_MESSAGE tick", MARK, ("base", "lane_stripe")),
    "tick_event": ColourPair("#c0392b", "#ff7b6b", "a GC_EVENT tick", MARK, ("base", "lane_stripe")),
    "tick_marker": ColourPair("#8e44ad", "#d09af0", "a marker's tick", MARK, ("base", "lane_stripe")),
    "playback_cursor": ColourPair("#d62728", "#ff5c5c", "the playback position", MARK, ("base",)),
    "waveform": ColourPair("#3f6fa8", "#7fb0ea", "the waveform's trace", MARK, ("base",)),
    # a turn's words on its waveform and spectrogram, and in the editor (gui/listening/word_marks.py)
    "word_boundary": ColourPair(
        "#6b7482", "#9aa3b0", "the boundary between two words on the waveform", MARK, ("base",)
    ),
    "heard_word": ColourPair(
        "#ffe08a", "#5c4a0e", "the word being heard, on the waveform and in the editor", FILL, ("text",)
    ),
    # the find bar's hits in the turn table (gui/search/find_controller.py), under the row's own text
    "search_hit_background": ColourPair(
        "#fff0a0", "#5a4f00", "a turn-table cell holding a hit of the find bar", FILL, ("text",)
    ),
    "search_current_hit_background": ColourPair(
        "#ffc266", "#8a4a00", "the cell of the hit the find bar is on", FILL, ("text",)
    ),
    # Compare (gui/compare): the annotators' differing words, and the rows where they disagree
    "compare_word_differs": ColourPair(
        "#ffcf8a",
        "#8a5200",
        "a word of one annotator's transcription that another annotator did not write there",
        FILL,
        ("text",),
    ),
    "compare_disagreement": ColourPair(
        "#fff4e5", "#3a2c1a", "the background of a Compare row where the annotators disagree", FILL, ("text",)
    ),
    # the turn table's Flags column (gui/annotating/flag_icons.py)
    "flag_mark": ColourPair(
        "#c0392b", "#ff8a7a", "the pennant of a flagged turn", MARK, ("base", "untranscribed_background")
    ),
    "comment_mark": ColourPair(
        "#2c6fb7", "#8cc1ff", "the bubble of a turn with a comment", MARK, ("base", "untranscribed_background")
    ),
    # the listening kit's voice-activity strip under the waveform (gui/listening/voice_activity_strip.py)
    "voice_activity": ColourPair("#2e7d32", "#81c784", "speech found by the voice-activity detector", MARK, ("base",)),
}

DOUBT_COLOURS = _DOUBT  # one entry per analysis.doubt.DOUBT_STEPS
LANE_COLOURS = tuple(f"lane_{n}" for n in range(8))

# The dark scheme, for the Fusion style: every role of the active and inactive groups, and the disabled ones greyed.
DARK_PALETTE = {
    "Window": "#2b2b2b",
    "WindowText": "#e8e8e8",
    "Base": "#1f1f1f",
    "AlternateBase": "#272727",
    "ToolTipBase": "#3a3a3a",
    "ToolTipText": "#e8e8e8",
    "PlaceholderText": "#a0a0a0",
    "Text": "#e8e8e8",
    "Button": "#353535",
    "ButtonText": "#e8e8e8",
    "BrightText": "#ff6b6b",
    "Light": "#4a4a4a",
    "Midlight": "#3e3e3e",
    "Mid": "#2f2f2f",
    "Dark": "#1a1a1a",
    "Shadow": "#0d0d0d",
    "Highlight": "#2f62b8",
    "HighlightedText": "#ffffff",
    "Link": "#80b4ff",
    "LinkVisited": "#c39cf5",
    "Accent": "#2f62b8",
}
LIGHT_SELECTION = "#2f62b8"  # white on it reads at 6:1
DARK_DISABLED = {
    "WindowText": "#808080",
    "Text": "#808080",
    "ButtonText": "#808080",
    "HighlightedText": "#b0b0b0",
    "Highlight": "#3a3a3a",
    "PlaceholderText": "#6a6a6a",
}
_PROPERTY = "annotator_theme"  # the theme the application was asked for, kept on the application
_STYLE_PROPERTY = "annotator_style"  # the style the application had before the dark theme asked for Fusion


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


def dark_palette() -> QPalette:
    palette = QPalette()
    for role, value in DARK_PALETTE.items():
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(value))
    for role, value in DARK_DISABLED.items():
        palette.setColor(QPalette.ColorGroup.Disabled, getattr(QPalette.ColorRole, role), QColor(value))
    return palette


def desktop_is_dark(app: QGuiApplication) -> bool:
    """Whether the desktop asks for a dark scheme (Qt's colour scheme; Unknown counts as light)."""
    return app.styleHints().colorScheme() == Qt.ColorScheme.Dark


def applied_theme(app: QApplication) -> str:
    """The theme last given to apply_theme ("system" before any)."""
    name = app.property(_PROPERTY)
    return name if name in THEMES else "system"


def apply_theme(app: QApplication, name: str) -> None:
    """Show NAME: "dark" is the dark palette with the Fusion style, "light" the style's standard palette, "system"
    the desktop's own palette (the dark one where the desktop asks for dark but gives no dark palette), again
    whenever the desktop changes its colour scheme. Every widget repaints in the new palette; the views that keep
    colours hear theme_changes().changed."""
    if name not in THEMES:
        name = "system"
    if app.property(_PROPERTY) is None:
        app.setProperty(_STYLE_PROPERTY, app.style().name())
        app.styleHints().colorSchemeChanged.connect(lambda _scheme: _follow_desktop(app))
    app.setProperty(_PROPERTY, name)
    if name == "dark":
        _show(app, "Fusion", dark_palette)
        return
    _show(app, app.property(_STYLE_PROPERTY), (lambda: light_palette(app)) if name == "light" else QPalette)
    if name == "system" and desktop_is_dark(app) and not is_dark():
        _show(app, "Fusion", dark_palette)


def light_palette(app: QApplication) -> QPalette:
    """The style's standard palette, its selection dark enough for its highlighted text to read at 4.5:1 (some
    styles' light blue selection reads at 3.5:1 under white text)."""
    palette = app.style().standardPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        palette.setColor(group, QPalette.ColorRole.Highlight, QColor(LIGHT_SELECTION))
        palette.setColor(group, QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    return palette


def _show(app: QApplication, style: str, palette: Callable[[], QPalette]) -> None:
    """STYLE, then the palette PALETTE makes in it (an empty QPalette: the platform's own)."""
    if app.style().name().lower() != style.lower():
        app.setStyle(style)
    app.setPalette(palette())
    theme_changes().changed.emit()


def _follow_desktop(app: QApplication) -> None:
    if applied_theme(app) == "system":
        apply_theme(app, "system")


class ThemeChanges(QObject):
    """Says when apply_theme has shown another scheme: a view that keeps colours takes them again."""

    changed = Signal()


_changes: ThemeChanges | None = None


def theme_changes() -> ThemeChanges:
    """The one ThemeChanges of the application (made on first use, after the QApplication)."""
    global _changes
    if _changes is None:
        _changes = ThemeChanges(QGuiApplication.instance())
    return _changes
