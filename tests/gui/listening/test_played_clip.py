"""A long turn's loudness is measured on a worker, heard for real (tests/support/audio_sandbox.py): the window's
thread never measures it, the play asked meanwhile waits and is heard at the measured gain, and a
measurement the annotator has moved away from is never loaded.

The user turn 2 of the sample session gets a quiet clip longer than SPOT_SECONDS in the test's copy.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyloudnorm
import pytest

from annotator.audio import load_audio, stretch_available
from annotator.audio.loudness import normalise
from annotator.gui.listening.played_clip import SPOT_SECONDS
from tests.support.audio_sandbox import AudioSandbox
from tests.support.sounds import noise, write_sound
from tests.support.window_script import PLAY_HELPERS, UNTIL_STOPPED, WINDOW_PRELUDE, opening_on_the_greeting

RATE = 8000
LONG_SECONDS = 3 * SPOT_SECONDS
LONG_TURN, SHORT_TURN = "travel-20261121-001-turn02-user.wav", "travel-20261121-001-turn04-user.wav"

SPY = """
import threading
import annotator.gui.listening.played_clip as played_clip_module
measured = []  # (on the window's thread, seconds) of each clip measured, once measured
real_played_clip = played_clip_module.played_clip

def spy(clip, target):
    made = real_played_clip(clip, target)
    measured.append((threading.current_thread() is threading.main_thread(), round(clip.duration)))
    return made

played_clip_module.played_clip = spy
until_ready()  # the turn shown at open: the first measure of the process loads the meter on the worker
"""
SCRIPT_END = """
playback.close()
parts_of(window).controller.undo_stack.setClean()
window.close()
"""


def _run(audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path, body: str) -> dict:
    script = opening_on_the_greeting(WINDOW_PRELUDE) + UNTIL_STOPPED + PLAY_HELPERS + SPY + body + SCRIPT_END
    return audio_sink.run(script.format(settings=str(tmp_path / "settings"), log=str(annotated_log)))


@pytest.fixture
def quiet_long_turn(annotated_log: Path) -> np.ndarray:
    samples = (noise(LONG_SECONDS, RATE, level=0.3) * np.float32(0.05)).astype(np.float32)  # about -44 LUFS
    path = write_sound(annotated_log.parent / LONG_TURN, samples, RATE, subtype="FLOAT")
    return load_audio(path).samples


@pytest.mark.slow
def test_a_long_turn_is_measured_off_the_window_thread_and_played_at_its_gain_once_measured(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path, quiet_long_turn: np.ndarray
):
    result = _run(
        audio_sink,
        annotated_log,
        tmp_path,
        """
from annotator.audio.loudness import meter_loaded
from annotator.gui.app import parts_of
loaded = meter_loaded()
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # the first user turn, 2: the long one
preparing, held = playback.preparing, player.clip is None
key(Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # asked before the gain is known
state_when_asked = player.state.name
states = until_stopped()
report(loaded=loaded, preparing=preparing, held=held, state_when_asked=state_when_asked, states=sorted(states),
       measured=measured, turn=parts_of(window).navigator.current_turn().id)
""",
    )
    assert result["loaded"] is True, "the meter was loaded: the clip goes to the worker for its length alone"
    assert result["turn"] == "2" and result["preparing"] is True and result["held"] is True
    assert result["state_when_asked"] == "STOPPED" and result["states"] == ["PLAYING", "STOPPED"]
    long_measures = [on_window_thread for on_window_thread, seconds in result["measured"] if seconds == LONG_SECONDS]
    assert long_measures == [False]
    played, expected = audio_sink.read_played().samples, normalise(quiet_long_turn, RATE).samples
    assert _heard(played, expected)
    meter = pyloudnorm.Meter(RATE)
    assert meter.integrated_loudness(played[:, 0].astype(np.float64)) == pytest.approx(-23.0, abs=1.0)


@pytest.mark.slow
def test_a_measurement_the_annotator_moved_away_from_is_never_loaded(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path, quiet_long_turn: np.ndarray
):
    result = _run(
        audio_sink,
        annotated_log,
        tmp_path,
        """
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # turn 2: its measure starts on the worker
preparing = playback.preparing
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # turn 4 before it is back: measured on the spot
key(Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
state_when_asked = player.state.name
until_stopped()
playback.clip_maker.wait()  # the long measure has ended: its result is queued for the window, or dropped
for _ in range(20):
    app.processEvents()
report(preparing=preparing, state_when_asked=state_when_asked, measured=measured,
       loaded=player.clip.path.name, turn=parts_of(window).navigator.current_turn().id)
""",
    )
    assert result["preparing"] is True and result["turn"] == "4" and result["loaded"] == SHORT_TURN
    assert result["state_when_asked"] == "PLAYING", "a short turn plays at once, as before"
    short = load_audio(annotated_log.parent / SHORT_TURN).samples
    assert _heard(audio_sink.read_played().samples, normalise(short, RATE).samples)


def _heard(played: np.ndarray, expected: np.ndarray) -> bool:
    """PLAYED is EXPECTED sample for sample, between the device's silence before and after it."""
    offset = int(np.flatnonzero(played[:, 0])[0] - np.flatnonzero(expected[:, 0])[0])
    heard = played[offset : offset + expected.shape[0]]
    rest = np.concatenate([played[:offset], played[offset + expected.shape[0] :]])
    return heard.shape == expected.shape and np.abs(heard - expected).max() < 1e-6 and not np.any(rest)


@pytest.mark.slow
def test_turning_normalising_off_while_a_long_turn_is_measured_plays_it_as_recorded(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path, quiet_long_turn: np.ndarray
):
    result = _run(
        audio_sink,
        annotated_log,
        tmp_path,
        """
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # turn 2: its measure starts on the worker
preparing = playback.preparing
key(Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # waits for the measure
window.action_table.normalise_loudness.trigger()  # off: the play asked carries over to the clip as recorded
state_after_off = player.state.name
until_stopped()
report(preparing=preparing, state_after_off=state_after_off, checked=window.action_table.normalise_loudness.isChecked())
""",
    )
    assert result == {"preparing": True, "state_after_off": "PLAYING", "checked": False}
    assert _heard(audio_sink.read_played().samples, quiet_long_turn)


@pytest.mark.skipif(not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh)")
@pytest.mark.slow
def test_at_another_speed_each_turn_is_stretched_off_the_window_thread_once(
    audio_sink: AudioSandbox, annotated_log: Path, tmp_path: Path
):
    result = _run(
        audio_sink,
        annotated_log,
        tmp_path,
        """
import annotator.audio.player as player_module
for action in window.menus.speeds.actions():
    if action.data() == 1.5:
        action.trigger()
until_ready()
stretched = []  # on the window's thread, for each stretch from here on
real_change_speed = played_clip_module.change_speed

def stretch_spy(samples, rate, speed):
    stretched.append([threading.current_thread() is threading.main_thread(), len(samples)])
    return real_change_speed(samples, rate, speed)

played_clip_module.change_speed = player_module.change_speed = stretch_spy
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # turn 2
key(Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # turn 4
key(Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)
until_stopped()
report(stretched=stretched, speed=player.speed, turn=parts_of(window).navigator.current_turn().id)
""",
    )
    assert result["turn"] == "4" and result["speed"] == 1.5
    # Turn 4 is stretched once, on the worker, not again at play; turn 2 too, unless the second Ctrl+Down came
    # before the worker reached it (a loaded machine): a turn moved past need not be stretched.
    on_window_thread, lengths = zip(*result["stretched"]) if result["stretched"] else ((), ())
    assert 1 <= len(lengths) <= 2 and not any(on_window_thread), result["stretched"]
    assert len(set(lengths)) == len(lengths), f"a turn stretched twice: {result['stretched']}"
    short = load_audio(annotated_log.parent / SHORT_TURN).samples
    assert _sounding_frames(audio_sink.read_played().samples) == pytest.approx(_sounding_frames(short) / 1.5, rel=0.1)


def _sounding_frames(samples: np.ndarray) -> int:
    sounding = np.flatnonzero(np.abs(samples[:, 0]) > 1e-3)
    return int(sounding[-1] - sounding[0])
