"""Themes: View > Theme (System / Light / Dark) kept in the settings; no hard-coded colour left in annotator/gui;
every colour of the theme table readable (WCAG 2.x contrast) in both schemes; the views take the new colours."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QPalette
from PySide6.QtWidgets import QApplication, QMenu

import annotator.gui
from annotator.gui.app import parts_of
from annotator.gui.settings import AppSettings
from annotator.gui.theme import MARK, THEME_COLOURS, apply_theme, dark_palette, light_palette, theme_colour
from annotator.gui.timeline.timeline_style import TURN_FILL
from annotator.timeline import data
from tests.support.gui_keys import close_window

GUI = Path(annotator.gui.__file__).parent
Role = QPalette.ColorRole
ROLES = {"base": Role.Base, "alternate_base": Role.AlternateBase, "window": Role.Window, "text": Role.Text}
GLOBAL_COLOURS = (
    "white",
    "black",
    "red",
    "darkRed",
    "green",
    "darkGreen",
    "blue",
    "darkBlue",
    "cyan",
    "darkCyan",
    "magenta",
    "darkMagenta",
    "yellow",
    "darkYellow",
    "gray",
    "darkGray",
    "lightGray",
    "color0",
    "color1",
)
# QColor("...") or QColor(1, 2, 3), a "#rrggbb" in any string (a style sheet, rich text), a CSS colour, a Qt colour
HARD_CODED = re.compile(
    r"""QColor\(\s*["'\d]|["']#[0-9a-fA-F]{3,8}["']|(?<!&)#[0-9a-fA-F]{6}(?:[0-9a-fA-F]{2})?\b"""
    r"""|\bcolor:\s*[a-z]|Qt\.(?:GlobalColor\.)?(?:""" + "|".join(GLOBAL_COLOURS) + r")\b"
)


def luminance(colour: QColor) -> float:
    def channel(value: int) -> float:
        value /= 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def contrast(first: QColor, second: QColor) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def opaque(colour: QColor, background: QColor) -> QColor:
    """COLOUR as it shows over BACKGROUND (a translucent colour mixed with it)."""
    alpha = colour.alphaF()
    return QColor(
        *(
            round(a * alpha + b * (1 - alpha))
            for a, b in zip(
                (colour.red(), colour.green(), colour.blue()),
                (background.red(), background.green(), background.blue()),
                strict=True,
            )
        )
    )


def scheme_colour(name: str, dark: bool, palette: QPalette) -> QColor:
    if name in ROLES:
        return palette.color(ROLES[name])
    return opaque(theme_colour(name, dark), palette.color(Role.Base))


def test_no_colour_is_hard_coded_outside_the_theme_table():
    found = [
        f"{path.relative_to(GUI)}:{number}: {line.strip()}"
        for path in sorted(GUI.rglob("*.py"))
        if path.name != "theme.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if HARD_CODED.search(line.replace("Qt.GlobalColor.transparent", ""))
    ]
    assert found == []
    assert all(
        HARD_CODED.search(line)
        for line in (
            'WAVE = QColor("#3f6fa8")',
            "pen = Qt.GlobalColor.black",
            'STYLE = "QLabel { color: white; background: #b3261e; }"',
        )
    )
    assert not HARD_CODED.search('f"<b>&#8239;{word}</b>"')


def test_every_colour_the_views_ask_for_is_in_the_table_and_every_pair_names_real_colours():
    asked = {
        name
        for path in GUI.rglob("*.py")
        for name in re.findall(r"""theme_colour\(["'](\w+)["']""", path.read_text(encoding="utf-8"))
    }
    assert asked and asked <= set(THEME_COLOURS)
    for name, pair in THEME_COLOURS.items():
        assert set(pair.against) <= set(THEME_COLOURS) | set(ROLES), name
        assert QColor(pair.light).isValid() and QColor(pair.dark).isValid(), name


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_colour_of_the_table_stands_out_against_what_it_is_drawn_on(qapp, dark):
    palette = dark_palette() if dark else qapp.style().standardPalette()
    too_low = []
    for name, pair in THEME_COLOURS.items():
        for other in pair.against:
            # text reads at 4.5:1 (a fill: the text drawn on it), marks such as dots, ticks and strips at 3:1
            other_kind = THEME_COLOURS[other].kind if other in THEME_COLOURS else "background"
            needed = 3.0 if MARK in (pair.kind, other_kind) else 4.5
            ratio = contrast(scheme_colour(name, dark, palette), scheme_colour(other, dark, palette))
            if ratio < needed:
                too_low.append(f"{name} on {other}: {ratio:.2f} < {needed}")
    assert too_low == []


def test_the_dark_palette_reads_at_wcag_aa():
    palette = dark_palette()
    pairs = [
        (Role.Text, Role.Base),
        (Role.Text, Role.AlternateBase),
        (Role.WindowText, Role.Window),
        (Role.HighlightedText, Role.Highlight),
        (Role.ButtonText, Role.Button),
        (Role.ToolTipText, Role.ToolTipBase),
        (Role.PlaceholderText, Role.Base),
    ]
    assert [(a.name, b.name) for a, b in pairs if contrast(palette.color(a), palette.color(b)) < 4.5] == []
    assert palette.color(Role.Window).lightness() < 128 and palette.color(Role.Base).lightness() < 128


@pytest.mark.slow
def test_view_theme_dark_darkens_the_window_and_its_views_and_is_kept(qtbot, make_window, raw_log):
    window = make_window(raw_log)
    app = QApplication.instance()
    theme_menu = window.findChild(QMenu, "theme_menu")
    assert [action.text() for action in theme_menu.actions()] == ["&System", "&Light", "&Dark"]
    assert parts_of(window).appearance.themes.checkedAction().data() == "system"
    theme_menu.findChild(QAction, "theme_dark").trigger()  # what clicking View > Theme > Dark does
    assert AppSettings().theme == "dark"
    assert app.style().name().lower() == "fusion"
    assert app.palette().color(Role.Window) == dark_palette().color(Role.Window)

    model = parts_of(window).navigator.model
    untranscribed = next(
        row for row in range(model.rowCount()) if model.index(row, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
    )
    assert model.index(untranscribed, 0).data(Qt.ItemDataRole.BackgroundRole).color() == QColor(
        THEME_COLOURS["untranscribed_background"].dark
    )

    timeline = parts_of(window).timeline
    assert timeline.plot.backgroundBrush().color() == dark_palette().color(Role.Base)
    timeline.plot.viewport().repaint()
    image = timeline.plot.grab().toImage()
    user = QColor(THEME_COLOURS[TURN_FILL[data.USER_TRANSCRIBED]].dark).name()
    system = QColor(THEME_COLOURS[TURN_FILL[data.SYSTEM_TURN]].dark).name()
    colours = {image.pixelColor(x, y).name() for x in range(0, image.width(), 3) for y in range(0, image.height(), 3)}
    assert {user, system} <= colours
    assert timeline.cursor_line.pen.color() == QColor(THEME_COLOURS["playback_cursor"].dark)
    waveform = parts_of(window).waveform
    assert waveform.plot.backgroundBrush().color() == dark_palette().color(Role.Base)
    assert all(curve.opts["pen"].color() == QColor(THEME_COLOURS["waveform"].dark) for curve in waveform.curves)

    close_window(window)
    second = make_window(raw_log)
    assert parts_of(second).appearance.themes.checkedAction().data() == "dark"
    assert app.palette().color(Role.Window).lightness() < 128


def test_light_forces_the_standard_palette_and_system_gives_back_the_desktops(qtbot, main_window):
    app = QApplication.instance()
    desktop = QPalette(app.palette())
    parts_of(main_window).appearance.set_theme("dark")
    parts_of(main_window).appearance.set_theme("light")
    assert AppSettings().theme == "light"
    assert app.palette().color(Role.Window) == app.style().standardPalette().color(Role.Window)
    assert app.palette().color(Role.Window).lightness() >= 128
    parts_of(main_window).appearance.set_theme("dark")
    parts_of(main_window).appearance.set_theme("system")
    assert app.palette().color(Role.Window) == desktop.color(Role.Window)
    assert parts_of(main_window).appearance.themes.checkedAction().data() == "system"


def test_system_follows_a_change_of_the_desktops_scheme_and_a_forced_theme_does_not(qapp):
    apply_theme(qapp, "system")
    desktop = qapp.palette().color(Role.Window)
    qapp.setPalette(dark_palette())  # what the application showed before the desktop changed its scheme
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert qapp.palette().color(Role.Window) == desktop
    apply_theme(qapp, "dark")
    qapp.styleHints().colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert qapp.palette().color(Role.Window).lightness() < 128


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_selected_and_hovered_rows_read_at_wcag_aa(qapp, dark):
    """A selected row: the selection's text on the selection (the light theme darkens a style's pale selection);
    a hovered one: the text on the base tinted with the selection."""
    palette = dark_palette() if dark else light_palette(qapp)
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        text, selection = palette.color(group, Role.HighlightedText), palette.color(group, Role.Highlight)
        assert contrast(text, selection) >= 4.5, f"{group.name}: {text.name()} on {selection.name()}"
    tint = QColor(palette.color(Role.Highlight))
    tint.setAlphaF(0.25)
    assert contrast(palette.color(Role.Text), opaque(tint, palette.color(Role.Base))) >= 4.5


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_compare_s_differing_words_read_in_a_selected_row(qtbot, make_window, tmp_path, theme):
    """The marks keep their own ink: dark on the pale mark in the light theme, not the selection's white."""
    from tests.support.compare_logs import make_team_log

    window = make_window(make_team_log(tmp_path / "team"))
    parts_of(window).appearance.set_theme(theme)
    assert parts_of(window).compare.show_compare()
    view = parts_of(window).compare.view
    model = view.model
    marked = [
        model.index(row, column)
        for row in range(model.rowCount())
        for column in range(model.columnCount())
        if "background-color" in (model.index(row, column).data() or "")
    ]
    assert marked, "planted disagreements are marked"
    for index in marked:
        for fill, ink in re.findall(r"background-color:(#\w{6}); color:(#\w{6})", index.data()):
            assert contrast(QColor(fill), QColor(ink)) >= 4.5, f"{ink} on {fill} in {index.data()}"
        assert index.data().count("background-color") == len(re.findall(r"; color:#", index.data())), index.data()
    parts_of(window).appearance.set_theme("light")
    close_window(window)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_hovered_row_is_drawn_as_it_is_unhovered(qtbot, make_window, annotated_log, theme):
    """The tables draw no hover state (no WA_Hover, no style for it): a hovered row reads as the rows whose
    contrast the tests above measure, which this grab of the real turn table shows."""
    window = make_window(annotated_log)
    parts_of(window).appearance.set_theme(theme)
    table = window.table
    viewport = table.viewport()
    rect = table.visualRect(table.model().index(3, 4)).united(table.visualRect(table.model().index(3, 6)))
    qtbot.mouseMove(viewport, table.visualRect(table.model().index(0, 0)).center())
    before = viewport.grab(rect).toImage()
    qtbot.mouseMove(viewport, rect.center())
    qtbot.wait(100)
    assert viewport.grab(rect).toImage() == before
    parts_of(window).appearance.set_theme("light")
    close_window(window)
