"""The waveform widget with the sample logs' real WAV files: curve, message, position line, click to seek."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.gui.listening.waveform import WaveformView

# Run again on the floor pins (scripts/test-qt-floor.sh): pyqtgraph's plot items.
pytestmark = pytest.mark.qt_floor


@pytest.fixture
def waveform(qtbot) -> WaveformView:
    view = WaveformView()
    qtbot.addWidget(view)
    view.resize(900, 240)
    view.show()
    qtbot.waitExposed(view)
    return view


@pytest.fixture
def user_wav(annotated_log):
    return annotated_log.parent / "travel-20261121-001-turn02-user.wav"


def click_at(qtbot, view: WaveformView, seconds: float) -> None:
    point = view.plot.mapFromScene(view.scene_point(seconds))
    qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)


def test_a_real_wav_is_drawn_over_its_whole_duration(waveform, user_wav):
    samples, rate = soundfile.read(user_wav)
    waveform.set_audio(samples, rate)
    QApplication.processEvents()
    assert not waveform.showing_message and waveform.plot.isVisible()
    assert waveform.duration == pytest.approx(len(samples) / rate)
    x, y = waveform.curves[0].getOriginalDataset()
    assert len(x) == len(samples) and x[-1] == pytest.approx((len(samples) - 1) / rate)
    assert np.max(np.abs(y)) == pytest.approx(1.0)  # scaled to the loudest sample
    assert np.corrcoef(y, samples)[0, 1] == pytest.approx(1.0)
    assert waveform.view_box.viewRange()[0] == pytest.approx([0.0, waveform.duration])
    shown_x, _ = waveform.curves[0].getData()
    assert len(shown_x) < len(samples)  # peak downsampling keeps it to a few points per pixel


def test_several_channels_get_a_band_each(waveform, user_wav):
    samples, rate = soundfile.read(user_wav)
    waveform.set_audio(np.column_stack([samples, samples * 0.5]), rate)
    assert len(waveform.curves) == 2
    _, second = waveform.curves[1].getOriginalDataset()
    assert second.max() < 0  # drawn below the first channel's band


def test_no_audio_shows_the_message_centred(waveform, user_wav):
    waveform.set_audio(None, 0, "no audio for this turn")
    assert waveform.showing_message and waveform.message_label.isVisible()
    assert waveform.message_label.text() == "no audio for this turn"
    assert waveform.message_label.alignment() & Qt.AlignmentFlag.AlignCenter
    waveform.set_position(0.5)
    assert not waveform.cursor_line.isVisible()
    samples, rate = soundfile.read(user_wav)
    waveform.set_audio(samples, rate)
    assert not waveform.showing_message and not waveform.message_label.isVisible()
    waveform.set_audio(np.zeros(0), rate, "")
    assert waveform.showing_message and waveform.message_label.text() == "no audio"


def test_set_position_moves_the_line(waveform, user_wav):
    samples, rate = soundfile.read(user_wav)
    waveform.set_audio(samples, rate)
    waveform.set_position(0.75)
    assert waveform.cursor_line.isVisible() and waveform.cursor_line.value() == pytest.approx(0.75)
    waveform.set_position(1.25)
    assert waveform.cursor_line.value() == pytest.approx(1.25)
    waveform.set_position(None)
    assert not waveform.cursor_line.isVisible()


def test_a_click_asks_to_seek_there(qtbot, waveform, user_wav):
    samples, rate = soundfile.read(user_wav)
    waveform.set_audio(samples, rate)
    QApplication.processEvents()
    with qtbot.waitSignal(waveform.clicked_at, timeout=2000) as signal:
        click_at(qtbot, waveform, 1.2)
    pixel = waveform.view_box.viewPixelSize()[0]
    assert signal.args[0] == pytest.approx(1.2, abs=2 * pixel)


def test_no_seek_while_showing_a_message(qtbot, waveform):
    waveform.set_audio(None, 0, "the audio file is missing")
    with qtbot.assertNotEmitted(waveform.clicked_at):
        qtbot.mouseClick(waveform.message_label, Qt.MouseButton.LeftButton)
