"""The player's bookkeeping without a device: position, seek, back, speed, and the callback's arithmetic.

Nothing here opens a stream, so nothing imports sounddevice; playback through
a real PortAudio stream is in test_playback.py.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from annotator.audio import Clip, Player, PlayerState, stretch_available
from annotator.errors import AudioError
from tests.support.sounds import noise, tone

needs_rubberband = pytest.mark.skipif(
    not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh installs it)"
)


def test_a_new_player_is_stopped_at_zero_without_audio() -> None:
    player = Player()
    assert (player.state, player.position, player.duration, player.loop, player.speed) == (
        PlayerState.STOPPED,
        0.0,
        0.0,
        False,
        1.0,
    )
    with pytest.raises(AudioError, match="no audio is loaded"):
        player.play()


def test_back_moves_two_seconds_and_stops_at_the_start() -> None:
    player = Player()
    player.load(Clip(noise(5.0, 8000), 8000))
    player.seek(3.5)
    assert player.position == pytest.approx(3.5)
    player.back()
    assert player.position == pytest.approx(1.5)
    player.back(2.0)
    assert player.position == 0.0
    player.seek(99)
    assert player.position == pytest.approx(5.0)
    player.seek(-1)
    assert player.position == 0.0


def test_loading_another_clip_starts_it_from_zero() -> None:
    player = Player()
    player.load(Clip(noise(5.0, 8000), 8000))
    player.seek(4.0)
    player.load(Clip(noise(1.0, 8000), 8000))
    assert (player.position, player.duration, player.state) == (0.0, 1.0, PlayerState.STOPPED)


@needs_rubberband
def test_speed_keeps_the_position_in_the_clips_own_seconds() -> None:
    player = Player()
    player.load(Clip(tone(4.0, 8000), 8000))
    player.seek(2.0)
    player.speed = 2.0
    assert player.position == pytest.approx(2.0, abs=0.05)
    assert player.duration == pytest.approx(4.0)
    player.speed = 0.5
    assert player.position == pytest.approx(2.0, abs=0.05)
    player.speed = 1.0
    assert player.position == pytest.approx(2.0, abs=0.05)
    with pytest.raises(ValueError):
        player.speed = 3.0


def test_speed_without_the_tool_is_an_error_and_stays_at_1x(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    player = Player()
    player.load(Clip(tone(1.0, 8000), 8000))
    with pytest.raises(AudioError, match="rubberband-cli"):
        player.speed = 1.5
    assert player.speed == 1.0


def test_the_callback_copies_seeks_loops_and_stops() -> None:
    """Drive the audio callback by hand, as PortAudio's thread would, to pin down its arithmetic."""
    ramp = np.arange(1000, dtype=np.float32)[:, None] / 1000
    player = Player()
    player.load(Clip(ramp.copy(), 1000))
    player._state = PlayerState.PLAYING  # as if a stream ran; nothing here opens one
    out = np.full((100, 1), np.nan, dtype=np.float32)

    player._callback(out, 100, None, None)
    assert np.array_equal(out, ramp[:100]) and player.position == pytest.approx(0.1)

    player.seek(0.5)  # a request the next callback applies
    assert player.position == pytest.approx(0.5)
    player._callback(out, 100, None, None)
    assert np.array_equal(out, ramp[500:600]) and player.position == pytest.approx(0.6)

    player.loop = True
    player.seek(0.95)
    player._callback(out, 100, None, None)
    assert np.array_equal(out, np.concatenate([ramp[950:], ramp[:50]]))

    class Finished(Exception):
        pass  # stands in for sounddevice.CallbackStop, which needs PortAudio

    player._callback_stop = Finished
    player.loop = False
    player.seek(0.97)
    with pytest.raises(Finished):
        player._callback(out, 100, None, None)
    assert np.array_equal(out[:30], ramp[970:]) and not out[30:].any()
    assert player.position == pytest.approx(1.0)
    assert player.frames_delivered == 100 + 100 + 100 + 30
