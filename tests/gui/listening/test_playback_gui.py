"""Playback from the real window, for real: Ctrl+Space in the transcription editor plays the turn's
audio through PortAudio into an ALSA file device, and the samples that arrive are the turn's file.

PortAudio reads the ALSA configuration once, when sounddevice is imported, so the window runs in
a fresh interpreter (tests/support/audio_sandbox.py) with its own isolated settings.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from annotator.audio import load_audio, stretch_available
from tests.support.audio_sandbox import AudioSandbox
from tests.support.sounds import assert_played_exactly, dominant_frequency
from tests.support.window_script import UNTIL_STOPPED, WINDOW_PRELUDE

WINDOW_SCRIPT = (
    WINDOW_PRELUDE
    + UNTIL_STOPPED
    + """for action in window.menus.speeds.actions():
    if action.data() == {speed}:
        action.trigger()
focus = QApplication.focusWidget()
QTest.keyClick(focus, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
states = until_stopped()
report(turn=parts_of(window).navigator.current_turn().id, focus=type(focus).__name__, states=sorted(states),
       clip=str(parts_of(window).playback.clip.path), message=window.statusBar().currentMessage())
parts_of(window).playback.close()
parts_of(window).controller.undo_stack.setClean()
window.close()
"""
)


def _play(audio_sink: AudioSandbox, log: Path, tmp_path: Path, speed: float = 1.0) -> dict:
    settings = tmp_path / "settings"
    settings.mkdir(exist_ok=True)
    return audio_sink.run(WINDOW_SCRIPT.format(settings=str(settings), log=str(log), speed=speed))


@pytest.mark.slow
def test_ctrl_space_in_the_editor_plays_the_turns_own_audio(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    result = _play(audio_sink, annotated_log, tmp_path)
    assert result["turn"] == "2" and result["states"] == ["PLAYING", "STOPPED"]
    assert "Editor" in result["focus"] or "Edit" in result["focus"], "the key was pressed while typing"
    source = annotated_log.parent / "travel-20261121-001-turn02-user.wav"
    assert Path(result["clip"]) == source.resolve()
    assert_played_exactly(load_audio(source).samples, audio_sink.read_played())


@pytest.mark.skipif(not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh)")
@pytest.mark.slow
def test_double_speed_plays_about_half_as_long(audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path):
    result = _play(audio_sink, annotated_log, tmp_path, speed=2.0)
    assert result["states"] == ["PLAYING", "STOPPED"]
    source = load_audio(annotated_log.parent / "travel-20261121-001-turn02-user.wav")
    played = audio_sink.read_played()
    sounding = played.samples[abs(played.samples[:, 0]) > 1e-4]
    assert abs(len(sounding) / played.rate - source.duration / 2) < 0.15 * source.duration / 2


@pytest.mark.skipif(not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh)")
@pytest.mark.slow
def test_quarter_speed_plays_about_four_times_as_long_at_the_same_pitch(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    result = _play(audio_sink, annotated_log, tmp_path, speed=0.25)
    assert result["states"] == ["PLAYING", "STOPPED"] and "not 0.25" not in result["message"]
    source = load_audio(annotated_log.parent / "travel-20261121-001-turn02-user.wav")
    played = audio_sink.read_played()
    sounding = np.flatnonzero(np.abs(played.samples[:, 0]) > 1e-4)
    heard = (sounding[-1] - sounding[0] + 1) / played.rate
    assert abs(heard - source.duration * 4) < 0.15 * source.duration * 4
    assert dominant_frequency(played.samples[sounding[0] : sounding[-1]], played.rate) == pytest.approx(
        dominant_frequency(source.samples, source.samplerate), rel=0.05
    )
