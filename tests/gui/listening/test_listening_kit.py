"""The listening kit in the real window, heard for real: what reaches the ALSA file device is read back
(tests/support/audio_sandbox.py) and measured; the pause-while-typing idle time is a QTimer the script fires.

The user turn 2 of the sample session gets the sound each test needs (a quiet turn, seeded noise, a tone)
in the test's own copy of the corpus.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pyloudnorm
import pytest
from PySide6.QtCore import QPointF

from annotator.audio import load_audio, stretch_available
from annotator.gui.app import parts_of
from tests.support.audio_sandbox import AudioSandbox
from tests.support.repository import SAMPLE_LOGS
from tests.support.sounds import dominant_frequency, find_offset, noise, tone, write_sound
from tests.support.speech import needs_tools, words_with_silence
from tests.support.window_script import PLAY_HELPERS, UNTIL_STOPPED, WINDOW_PRELUDE

RATE = 8000
# Long enough that the null device, many times faster than real time, cannot reach the end while the
# script waits for a position: a pause always lands inside the clip.
LONG_SECONDS = 240.0
TURN_AUDIO = "travel-20261121-001-turn02-user.wav"

KIT_HELPERS = """
kit = parts_of(window).listening
parts_of(window).navigator.select_row(0)  # the greeting: the moves below start there
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # the first user turn, 2: the editor has the focus

def until_position(seconds):
    started = False  # a long clip starts once its loudness is measured, on a worker
    for _ in range(200_000):  # the null device is not real time: count passes, not seconds
        app.processEvents()
        if player.position >= seconds:
            return player.position
        playing = player.state.name == "PLAYING"
        assert playing or not started, "the audio ended before " + str(seconds)
        started = started or playing
        time.sleep(0.0005)
    raise AssertionError("playback did not get there")

def ctrl_space():
    key(Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
"""
SCRIPT_START = WINDOW_PRELUDE + UNTIL_STOPPED + PLAY_HELPERS + KIT_HELPERS
SCRIPT_END = """
playback.close()
parts_of(window).controller.undo_stack.setClean()
window.close()
"""


def _turn_audio(annotated_log: Path, samples: np.ndarray) -> Path:
    return write_sound(annotated_log.parent / TURN_AUDIO, samples, RATE, subtype="FLOAT")


def _run(audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path, body: str) -> dict:
    script = SCRIPT_START.format(settings=str(tmp_path / "settings"), log=str(annotated_log)) + body + SCRIPT_END
    return audio_sink.run(script)


def _sounding(samples: np.ndarray) -> np.ndarray:
    loud = np.flatnonzero(np.abs(samples[:, 0]) > 1e-6)
    return samples[loud[0] : loud[-1] + 1] if loud.size else samples[:0]


@pytest.mark.slow
def test_a_quiet_turn_is_played_at_the_target_loudness_and_its_file_is_untouched(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    turn = load_audio(SAMPLE_LOGS / "travel-20261121-001" / TURN_AUDIO)
    path = _turn_audio(annotated_log, turn.samples * np.float32(0.1))  # -20 dB: about -41 LUFS
    meter = pyloudnorm.Meter(RATE)
    assert meter.integrated_loudness(load_audio(path).samples[:, 0].astype(np.float64)) < -38.0
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    result = _run(
        audio_sink,
        annotated_log,
        tmp_path,
        """
ctrl_space()
states = until_stopped()
report(states=sorted(states), checked=window.action_table.normalise_loudness.isChecked())
""",
    )
    assert result == {"states": ["PLAYING", "STOPPED"], "checked": True}
    played = audio_sink.read_played()
    assert played.rate == RATE
    assert np.abs(played.samples).max() < 10 ** (-1 / 20), "the limiter had to act: the loudness is not comparable"
    assert meter.integrated_loudness(played.samples[:, 0].astype(np.float64)) == pytest.approx(-23.0, abs=1.0)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.slow
def test_normalising_off_plays_the_quiet_turn_as_recorded(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    quiet = (noise(1.0, RATE, level=0.3) * np.float32(0.1)).astype(np.float32)
    _turn_audio(annotated_log, quiet)
    _run(
        audio_sink,
        annotated_log,
        tmp_path,
        """
window.action_table.normalise_loudness.trigger()
ctrl_space()
until_stopped()
report(stored=kit.settings.normalise_loudness)
""",
    )
    played = _sounding(audio_sink.read_played().samples)
    assert played.shape == quiet.shape and np.abs(played - quiet).max() < 1e-6


@pytest.mark.parametrize("rewind", [1.0, 0.0])
@pytest.mark.slow
def test_resuming_after_a_pause_starts_the_rewind_earlier(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path, rewind: float
):
    source = noise(LONG_SECONDS, RATE, level=0.3)  # loud enough that normalising leaves it as recorded
    _turn_audio(annotated_log, source)
    result = _run(
        audio_sink,
        annotated_log,
        tmp_path,
        f"""
kit.settings.rewind_on_resume = {rewind}
kit.apply_settings()
ctrl_space()
until_position(3.0)
ctrl_space()
paused = (player.state.name, player.position)
ctrl_space()
resumed = player.state.name
until_stopped()
report(paused=paused, resumed=resumed)
""",
    )
    state, position = result["paused"]
    assert state == "PAUSED" and result["resumed"] == "PLAYING" and 3.0 <= position < LONG_SECONDS - 1
    start = round((position - rewind) * RATE)
    rest = source[start:]  # what the resumed stream must play, whole, from its first sample
    played = audio_sink.read_played().samples
    offset = find_offset(rest, played)
    assert np.abs(played[offset : offset + len(rest)] - rest).max() < 1e-6
    assert np.abs(played[offset + len(rest) :]).max(initial=0.0) == 0.0, "the resumed stream played on to the end"


SLOW_REPLAY = """
window.action_table.loop.trigger()  # never at the end while the script waits: the replay ignores the loop
ctrl_space()
until_position(4.0)
ctrl_space()
paused_at = player.position
delivered = player.frames_delivered
key(Qt.Key.Key_Left, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
states = until_stopped()
report(paused_at=paused_at, slow_frames=player.frames_delivered - delivered, position=player.position,
       speed=player.speed, state=player.state.name, message=window.statusBar().currentMessage())
"""


@pytest.mark.skipif(not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh)")
@pytest.mark.slow
def test_ctrl_shift_left_replays_the_last_2_s_at_three_quarter_speed_pitch_kept(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    _turn_audio(annotated_log, tone(LONG_SECONDS / 2, RATE, frequency=440.0, level=0.3))
    result = _run(audio_sink, annotated_log, tmp_path, SLOW_REPLAY)
    assert result["slow_frames"] == pytest.approx(2.0 / 0.75 * RATE, rel=0.03)
    # It stops where it was, back at the chosen speed: Ctrl+Space carries on from there.
    assert result["position"] == pytest.approx(result["paused_at"], abs=0.01)
    assert (result["state"], result["speed"]) == ("STOPPED", 1.0)
    slow = _sounding(audio_sink.read_played().samples)[-result["slow_frames"] :]
    assert dominant_frequency(slow[RATE // 4 : -RATE // 4], RATE) == pytest.approx(440.0, abs=8.0)  # not 330 Hz


@pytest.mark.slow
def test_without_rubberband_the_slow_replay_says_why_and_plays_at_normal_speed(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    empty = tmp_path / "no-tools"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # the child finds no rubberband
    _turn_audio(annotated_log, tone(LONG_SECONDS / 2, RATE, frequency=440.0, level=0.3))
    result = _run(audio_sink, annotated_log, tmp_path, SLOW_REPLAY)
    assert result["slow_frames"] == pytest.approx(2.0 * RATE, rel=0.01)
    assert result["message"].startswith("Replaying at 1×, not 0.75×") and "rubberband" in result["message"]
    assert result["position"] == pytest.approx(result["paused_at"], abs=0.01)


@pytest.mark.slow
def test_pause_while_typing_pauses_on_a_keystroke_and_resumes_when_idle(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    _turn_audio(annotated_log, noise(LONG_SECONDS, RATE, level=0.3))
    result = _run(
        audio_sink,
        annotated_log,
        tmp_path,
        """
typing = kit.typing_pause
window.action_table.loop.trigger()  # never at the end while the script waits
kit.settings.rewind_on_resume = 60.0  # far more than the fast null device plays before the position is read
kit.apply_settings()
ctrl_space()
until_position(1.0)
key(Qt.Key.Key_A)
off = player.state.name
window.action_table.pause_while_typing.trigger()
until_position(70.0)
key(Qt.Key.Key_B)
paused = (player.state.name, player.position, typing.idle_timer.isActive(), typing.idle_timer.interval())
key(Qt.Key.Key_C)
still = (player.state.name, typing.idle_timer.isActive())
typing.idle_timer.timeout.emit()  # the annotator stopped typing for typing_idle_seconds
resumed = (player.state.name, player.position)
ctrl_space()
report(off=off, paused=paused, still=still, resumed=resumed, text=parts_of(window).navigator.editor.text.toPlainText(),
       stored=kit.settings.pause_while_typing)
window.set_close_guard(lambda: True)  # the typing is the test's, not work to keep
""",
    )
    assert result["off"] == "PLAYING", "off by default: typing does not pause"
    state, position, timer_running, interval = result["paused"]
    assert (state, timer_running, interval) == ("PAUSED", True, 1500)
    assert result["still"] == ["PAUSED", True]
    resumed_state, resumed_at = result["resumed"]
    # Rewound 60 s: the null device races on between the resume and the reading of the position (by how much
    # depends on the load), so only the direction is asserted here; test_resuming_after_a_pause_... checks the
    # rewound samples exactly. One frame of slack: a resume read before the device moved is exactly 60 s back,
    # and frames / rate and position - 60.0 may differ in the last bit (31.209374999999998 against ...01).
    assert resumed_state == "PLAYING" and position - 60.0 - 1 / RATE <= resumed_at < position
    assert result["text"].endswith("abc") and result["stored"] is True


@needs_tools
@pytest.mark.slow
def test_the_voice_activity_strip_marks_the_two_words(make_window, annotated_log: Path, qtbot, tmp_path: Path):
    spoken, gap_start, gap_end = words_with_silence(tmp_path, 1.0)
    os.replace(spoken, annotated_log.parent / "travel-20261121-001-turn01-system.wav")
    window = make_window(annotated_log)
    parts_of(window).navigator.select_row(0)  # turn 1, whose audio is now the two words
    strip = parts_of(window).listening.voice_activity
    qtbot.waitUntil(lambda: len(strip.intervals) == 2, timeout=20000)
    (_, first_end), (second_start, _) = strip.intervals
    assert first_end == pytest.approx(gap_start, abs=0.1) and second_start == pytest.approx(gap_end, abs=0.1)
    assert strip.isVisible() and strip.height() < parts_of(window).waveform.height() / 4
    for seconds in (0.2, first_end, second_start, 1.7):  # the strip and the waveform share the time axis on screen
        assert _screen_x(strip.plot, strip.plot.getViewBox(), seconds) == pytest.approx(
            _screen_x(parts_of(window).waveform.plot, parts_of(window).waveform.view_box, seconds), abs=2
        )


def _screen_x(widget, view_box, seconds: float) -> int:
    return widget.mapToGlobal(widget.mapFromScene(view_box.mapViewToScene(QPointF(seconds, 0.0)))).x()
