"""The spectrogram in the waveform dock: the real window, the real Ctrl+Shift+G, the sample logs' real audio."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from annotator.audio import load_audio
from annotator.audio.spectrogram import spectrogram
from annotator.gui.app import parts_of
from annotator.gui.listening.audio_panel import STACKED_MIN_HEIGHT, AudioPanel
from annotator.gui.listening.spectrogram import SpectrogramView, colour_map
from annotator.gui.listening.waveform import WaveformView
from annotator.gui.settings import AppSettings
from tests.support.gui_keys import press

# Run again on the floor pins (scripts/test-qt-floor.sh): pyqtgraph's image item and colour maps.
pytestmark = pytest.mark.qt_floor

Key, Mod = Qt.Key, Qt.KeyboardModifier
CTRL_SHIFT = Mod.ControlModifier | Mod.ShiftModifier
# The spectrogram takes milliseconds, but its thread may wait for the CPU for seconds on a busy two-core machine.
COMPUTED_MS = 30000


@pytest.fixture
def user_wav(annotated_log):
    return annotated_log.parent / "travel-20261121-001-turn02-user.wav"


def shown(qtbot, widget, height: int):
    qtbot.addWidget(widget)
    widget.resize(900, height)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


@pytest.fixture
def view(qtbot) -> SpectrogramView:
    return shown(qtbot, SpectrogramView(), 240)


@pytest.fixture
def panel(qtbot) -> AudioPanel:
    return shown(qtbot, AudioPanel(WaveformView()), 2 * STACKED_MIN_HEIGHT)


def toggle(qtbot, window) -> None:
    press(qtbot, window, Key.Key_G, CTRL_SHIFT)


def shown_clip(window):
    return parts_of(window).playback.clip


def test_a_real_turn_fills_the_image_over_its_seconds_and_0_to_4_khz(view, user_wav):
    samples, rate = soundfile.read(user_wav, dtype="float32")
    view.set_spectrogram(spectrogram(samples, rate))
    QApplication.processEvents()
    assert view.image.isVisible() and view.image.image.shape == (129, int((len(samples) - 1) // 80) + 1)
    rect = view.image.mapRectToParent(view.image.boundingRect())
    assert rect.left() == pytest.approx(-0.005) and rect.right() == pytest.approx(view.duration, abs=0.006)
    assert rect.top() == pytest.approx(-15.625) and rect.bottom() == pytest.approx(4015.625)
    assert view.view_box.viewRange()[0] == pytest.approx([0.0, len(samples) / rate])
    assert view.view_box.viewRange()[1] == pytest.approx([0.0, 4000.0])
    view.set_spectrogram(None)
    assert not view.image.isVisible()


def test_the_colour_map_starts_at_the_background_of_each_scheme(view):
    light, dark = colour_map(False).getLookupTable(nPts=3), colour_map(True).getLookupTable(nPts=3)
    assert light[0].min() > 240 and light[-1].max() < 20  # white paper, black ink
    assert dark[0].max() < 20 and dark[-1].min() > 140  # black, up to bright yellow
    assert view.plot.backgroundBrush().color() == view.palette().color(view.palette().ColorRole.Base)


def test_a_switch_to_a_dark_palette_switches_the_colour_map(qtbot, view):
    light = QApplication.palette()
    assert view.image.getColorMap().name == "CET-L1"
    dark = QPalette(light)
    dark.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    dark.setColor(QPalette.ColorRole.Base, QColor("#101010"))
    try:
        QApplication.setPalette(dark)
        qtbot.waitUntil(lambda: view.image.getColorMap().name == "inferno")
        assert view.plot.backgroundBrush().color() == QColor("#101010")
    finally:
        QApplication.setPalette(light)
    qtbot.waitUntil(lambda: view.image.getColorMap().name == "CET-L1")


def test_the_cursor_follows_and_a_click_asks_to_seek_there(qtbot, view, user_wav):
    samples, rate = soundfile.read(user_wav, dtype="float32")
    view.set_position(0.5)
    assert not view.cursor_line.isVisible()  # nothing shown yet
    view.set_spectrogram(spectrogram(samples, rate))
    QApplication.processEvents()
    view.set_position(0.75)
    assert view.cursor_line.isVisible() and view.cursor_line.value() == pytest.approx(0.75)
    point = view.plot.mapFromScene(view.scene_point(1.2))
    with qtbot.waitSignal(view.clicked_at, timeout=2000) as signal:
        qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert signal.args[0] == pytest.approx(1.2, abs=2 * view.view_box.viewPixelSize()[0])


def test_stacked_when_tall_enough_else_instead_of_the_waveform(qtbot, panel, user_wav):
    samples, rate = soundfile.read(user_wav, dtype="float32")
    panel.set_clip(samples, rate)
    assert panel.waveform.isVisible() and not panel.spectrogram.isVisible()  # off by default
    panel.show_spectrogram(True)
    qtbot.waitUntil(lambda: panel.spectrogram.spectrogram is not None, timeout=COMPUTED_MS)
    assert panel.stacked and panel.spectrogram.isVisible() and panel.waveform.isVisible()
    panel.resize(900, STACKED_MIN_HEIGHT - 40)
    qtbot.waitUntil(lambda: not panel.waveform.isVisible())
    assert panel.spectrogram.isVisible() and not panel.stacked
    panel.set_clip(None, 0, "the audio file is missing")
    assert panel.waveform.isVisible() and panel.waveform.message_label.text() == "the audio file is missing"
    assert not panel.spectrogram.isVisible() and not panel.computing


def screen_x(view, seconds: float) -> int:
    return view.plot.viewport().mapToGlobal(view.plot.mapFromScene(view.scene_point(seconds))).x()


def test_stacked_plots_put_each_moment_at_the_same_x(qtbot, panel, user_wav):
    samples, rate = soundfile.read(user_wav, dtype="float32")
    panel.set_clip(samples, rate)
    left_alone = screen_x(panel.waveform, 0.0)
    panel.show_spectrogram(True)
    qtbot.waitUntil(lambda: panel.spectrogram.spectrogram is not None, timeout=COMPUTED_MS)
    QApplication.processEvents()
    assert panel.stacked
    for seconds in (0.0, 0.5, 1.5):
        assert abs(screen_x(panel.waveform, seconds) - screen_x(panel.spectrogram, seconds)) <= 1
    panel.show_spectrogram(False)
    QApplication.processEvents()
    assert screen_x(panel.waveform, 0.0) == left_alone  # alone, the waveform keeps its whole width


def test_zooming_one_plot_zooms_the_other(qtbot, panel, user_wav):
    samples, rate = soundfile.read(user_wav, dtype="float32")
    panel.show_spectrogram(True)
    panel.set_clip(samples, rate)
    qtbot.waitUntil(lambda: panel.spectrogram.spectrogram is not None, timeout=COMPUTED_MS)
    panel.waveform.view_box.setXRange(0.5, 1.0, padding=0)
    assert panel.spectrogram.view_box.viewRange()[0] == pytest.approx([0.5, 1.0])
    panel.spectrogram.view_box.setXRange(0.2, 0.4, padding=0)
    assert panel.waveform.view_box.viewRange()[0] == pytest.approx([0.2, 0.4])


def test_a_newer_clip_supersedes_the_computation_of_an_older_one(qtbot, panel, annotated_log):
    panel.show_spectrogram(True)
    first = load_audio(annotated_log.parent / "travel-20261121-001-turn01-system.wav")
    second = load_audio(annotated_log.parent / "travel-20261121-001-turn02-user.wav")
    panel.set_clip(first.samples, first.samplerate)
    older = panel._task
    panel.set_clip(second.samples, second.samplerate)
    assert older is not panel._task and older.state.value in ("cancelling", "cancelled")
    qtbot.waitUntil(lambda: not panel.computing, timeout=COMPUTED_MS)
    assert panel.spectrogram.duration == pytest.approx(second.frames / second.samplerate)
    QApplication.processEvents()
    assert panel.spectrogram.duration == pytest.approx(second.frames / second.samplerate)  # the older result is dropped


@pytest.mark.slow
def test_ctrl_shift_g_shows_and_hides_the_spectrogram_and_it_persists(qtbot, main_window):
    window = main_window
    panel = parts_of(window).audio_panel
    action = window.findChild(type(window.menuBar().actions()[0]), "action_spectrogram")
    assert not panel.spectrogram.isVisible() and not action.isChecked()
    parts_of(window).navigator.select_row(1, focus_editor=True)  # a user turn, typing in the editor
    toggle(qtbot, window)
    qtbot.waitUntil(lambda: panel.spectrogram.spectrogram is not None, timeout=COMPUTED_MS)
    assert panel.spectrogram.isVisible() and action.isChecked() and AppSettings().show_spectrogram
    clip = shown_clip(window)
    expected = spectrogram(clip.samples, clip.samplerate)
    assert np.array_equal(panel.spectrogram.image.image, expected.levels)
    assert window.editor.text.toPlainText() == ""  # the key did not type
    toggle(qtbot, window)
    assert not panel.spectrogram.isVisible() and panel.waveform.isVisible() and not action.isChecked()
    assert AppSettings().show_spectrogram is False


@pytest.mark.slow
def test_on_at_start_each_turn_s_clip_appears_and_the_cursor_follows_playback(qtbot, make_window, raw_log):
    AppSettings().show_spectrogram = True
    window = make_window(raw_log)
    panel = parts_of(window).audio_panel
    action = window.findChild(type(window.menuBar().actions()[0]), "action_spectrogram")
    assert action.isChecked() and panel.spectrogram_on
    parts_of(window).navigator.select_row(0)
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)  # two turns on, faster than the first is drawn
    clip = shown_clip(window)
    qtbot.waitUntil(lambda: not panel.computing and panel.spectrogram.spectrogram is not None, timeout=COMPUTED_MS)
    assert parts_of(window).navigator.current_turn().index == 2
    assert panel.spectrogram.duration == pytest.approx(clip.frames / clip.samplerate)
    assert np.array_equal(panel.spectrogram.image.image, spectrogram(clip.samples, clip.samplerate).levels)
    parts_of(window).playback.seek(1.0)
    assert panel.spectrogram.cursor_line.isVisible()
    assert panel.spectrogram.cursor_line.value() == pytest.approx(parts_of(window).playback.player.position)
    assert panel.spectrogram.cursor_line.value() == pytest.approx(1.0, abs=0.01)
    with qtbot.waitSignal(parts_of(window).playback.position_changed, timeout=2000):
        point = panel.spectrogram.plot.mapFromScene(panel.spectrogram.scene_point(0.5))
        qtbot.mouseClick(panel.spectrogram.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert parts_of(window).playback.player.position == pytest.approx(0.5, abs=0.05)
    assert panel.waveform.cursor_line.value() == pytest.approx(parts_of(window).playback.player.position)


def test_until_it_is_drawn_the_spectrogram_says_it_is_computing_over_the_clip_s_seconds(qtbot, panel, user_wav):
    samples, rate = soundfile.read(user_wav, dtype="float32")
    panel.show_spectrogram(True)
    panel.set_clip(samples, rate)
    note = panel.spectrogram.findChild(QLabel, "spectrogram_note")
    assert note is not None and note.isVisible() and note.text() == "Computing the spectrogram…"
    assert note.geometry().contains(panel.spectrogram.plot.geometry().center())
    assert panel.spectrogram.view_box.viewRange()[0] == pytest.approx([0.0, len(samples) / rate])  # not 0-0.001
    qtbot.waitUntil(lambda: panel.spectrogram.spectrogram is not None, timeout=COMPUTED_MS)
    assert not note.isVisible()
