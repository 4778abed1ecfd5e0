"""The player, for real: PortAudio and ALSA play into a WAV file that the test reads back.

Each test runs a short script in a fresh interpreter (see conftest.py) and then
compares what reached the "device" with the source.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from annotator.audio import concatenate, load_audio, stretch_available
from tests.support.audio_sandbox import AudioSandbox
from tests.support.sounds import assert_played_exactly, dominant_frequency, noise, tone, write_sound

needs_rubberband = pytest.mark.skipif(
    not stretch_available(), reason="rubberband-cli is not installed (scripts/system-deps.sh installs it)"
)


def test_a_wav_reaches_the_device_sample_for_sample(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn03.wav", noise(1.5, 16000), 16000)
    result = audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(source)!r}))
        play_to_end(player)
        report(state=player.state.name, position=player.position, delivered=player.frames_delivered)
        player.close()
        """
    )
    assert result == {"state": "STOPPED", "position": pytest.approx(1.5), "delivered": 24000}
    played = audio_sink.read_played()
    assert played.rate == 16000 and played.samples.shape[1] == 1
    assert_played_exactly(load_audio(source).samples, played)


@pytest.mark.parametrize(
    ("name", "format", "subtype", "rate", "channels"),
    [
        ("prompt.au", "AU", "ULAW", 8000, 1),
        ("reply.flac", "FLAC", "PCM_16", 16000, 1),
        ("cd.wav", "WAV", "PCM_16", 44100, 2),
        ("half-cd.wav", "WAV", "PCM_16", 22050, 1),
    ],
)
def test_formats_and_rates_play(
    audio_sink: AudioSandbox, tmp_path: Path, name: str, format: str, subtype: str, rate: int, channels: int
) -> None:
    source = write_sound(tmp_path / name, noise(0.6, rate, channels), rate, format=format, subtype=subtype)
    audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(source)!r}))
        play_to_end(player)
        player.close()
        report()
        """
    )
    played = audio_sink.read_played()
    # This device takes these rates as they are; when one is refused, see the 768 kHz test.
    assert (played.rate, played.samples.shape[1]) == (rate, channels)
    assert_played_exactly(load_audio(source).samples, played)


def test_a_rate_the_device_refuses_is_resampled_to_its_default(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    # ALSA's null device takes 1 kHz to 384 kHz; 768 kHz is valid audio it refuses.
    source = write_sound(tmp_path / "studio.wav", tone(0.5, 768000, frequency=1000.0), 768000, subtype="FLOAT")
    result = audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(source)!r}))
        play_to_end(player)
        report(position=player.position)
        player.close()
        """
    )
    assert result["position"] == pytest.approx(0.5)
    played = audio_sink.read_played()
    assert played.rate < 768000
    sound = played.samples[np.flatnonzero(np.abs(played.samples[:, 0]) > 1e-3)]
    assert len(sound) == pytest.approx(0.5 * played.rate, rel=0.02)
    assert dominant_frequency(sound, played.rate) == pytest.approx(1000.0, abs=10)


def test_sample_log_speech_plays(audio_sink: AudioSandbox, sample_wavs: list[Path]) -> None:
    audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(sample_wavs[0])!r}))
        play_to_end(player)
        player.close()
        report()
        """
    )
    assert_played_exactly(load_audio(sample_wavs[0]).samples, audio_sink.read_played())


def test_an_exchange_plays_prompt_gap_and_reply(audio_sink: AudioSandbox, sample_wavs: list[Path]) -> None:
    prompt, reply = (str(path) for path in sample_wavs[:2])
    audio_sink.run(
        f"""
        player = Player()
        player.load(concatenate([load_audio({prompt!r}), load_audio({reply!r})], gap_s=0.3))
        play_to_end(player)
        player.close()
        report()
        """
    )
    expected = concatenate([load_audio(path) for path in sample_wavs[:2]], gap_s=0.3)
    assert_played_exactly(expected.samples, audio_sink.read_played())


@needs_rubberband
def test_double_speed_plays_about_half_as_long(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn05.wav", noise(2.0, 16000), 16000)
    result = audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(source)!r}))
        player.speed = 2.0
        play_to_end(player)
        report(position=player.position, speed=player.speed)
        player.close()
        """
    )
    assert result == {"position": pytest.approx(2.0), "speed": 2.0}
    played = audio_sink.read_played().samples[:, 0]
    sound = np.flatnonzero(np.abs(played) > 1e-4)
    assert (sound[-1] - sound[0] + 1) / 16000 == pytest.approx(1.0, rel=0.15)


def test_loop_plays_past_the_end_until_stopped(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn07.wav", noise(0.25, 8000), 8000)
    result = audio_sink.run(
        f"""
        player = Player()
        clip = load_audio({str(source)!r})
        player.load(clip)
        player.loop = True
        player.play()
        poll_until(player, lambda p: p.frames_delivered >= 2 * clip.frames)
        still = player.state.name
        player.stop()
        report(still=still, delivered=player.frames_delivered, frames=clip.frames,
               state=player.state.name, position=player.position)
        """
    )
    assert result["still"] == "PLAYING"
    assert result["delivered"] >= 2 * result["frames"]
    assert (result["state"], result["position"]) == ("STOPPED", 0.0)
    played = audio_sink.read_played().samples
    source_samples = load_audio(source).samples
    start = np.flatnonzero(played[:, 0])[0]
    twice = np.concatenate([source_samples, source_samples])
    assert np.abs(played[start : start + len(twice)] - twice).max() <= 2e-3


def test_pause_resume_and_back_while_paused(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn09.wav", noise(6.0, 8000), 8000)
    result = audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(source)!r}))
        player.loop = True  # never ends on its own, whatever the device's pace
        player.play()
        poll_until(player, lambda p: p.frames_delivered >= 3 * 8000)
        player.pause()
        paused = (player.state.name, player.position)
        player.back(2.0)
        after_back = player.position
        player.toggle()
        resumed = player.state.name
        player.toggle()
        again = player.state.name
        player.seek(1.0)
        player.back()
        at_start = player.position
        player.close()
        report(paused=paused, after_back=after_back, resumed=resumed, again=again, at_start=at_start)
        """
    )
    state, position = result["paused"]
    assert state == "PAUSED" and 0.0 <= position <= 6.0
    assert result["after_back"] == pytest.approx(max(0.0, position - 2.0), abs=1e-3)
    assert (result["resumed"], result["again"], result["at_start"]) == ("PLAYING", "PAUSED", 0.0)


def test_play_from_a_sought_position_plays_only_the_rest(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn11.wav", noise(4.0, 8000), 8000)
    result = audio_sink.run(
        f"""
        player = Player()
        clip = load_audio({str(source)!r})
        player.load(clip)
        player.seek(3.0)
        play_to_end(player)
        report(delivered=player.frames_delivered, position=player.position)
        player.close()
        """
    )
    assert result == {"delivered": 8000, "position": pytest.approx(4.0)}
    tail = load_audio(source).samples[3 * 8000 :]
    assert_played_exactly(tail, audio_sink.read_played())


def test_replay_after_the_end_plays_it_again(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn02.wav", noise(0.5, 8000), 8000)
    result = audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(source)!r}))
        play_to_end(player)
        first = (player.state.name, player.position)
        player.replay()
        poll_until(player, lambda p: p.state is PlayerState.STOPPED)
        player.play()  # at the end, play starts over too
        poll_until(player, lambda p: p.state is PlayerState.STOPPED)
        report(first=first, delivered=player.frames_delivered)
        player.close()
        """
    )
    assert result == {"first": ["STOPPED", pytest.approx(0.5)], "delivered": 3 * 4000}


def test_switching_clips_stops_the_old_sound_first(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    old = write_sound(tmp_path / "turn01.wav", noise(3.0, 8000, seed=1), 8000)
    new = write_sound(tmp_path / "turn02.wav", noise(0.5, 8000, seed=2), 8000)
    result = audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(old)!r}))
        player.loop = True
        player.play()
        poll_until(player, lambda p: p.frames_delivered >= 8000)
        player.load(load_audio({str(new)!r}))
        switched = (player.state.name, player.position, player.frames_delivered)
        player.loop = False
        play_to_end(player)
        player.close()
        report(switched=switched)
        """
    )
    assert result["switched"] == ["STOPPED", 0.0, 0]
    # ALSA's file plugin starts the file afresh for each stream: only the new clip may be in it.
    assert_played_exactly(load_audio(new).samples, audio_sink.read_played())


def test_no_output_device_is_a_clear_error_not_a_crash(no_audio_output: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn03.wav", noise(0.2, 8000), 8000)
    result = no_audio_output.run(
        f"""
        import os, resource
        os.chdir({str(tmp_path)!r})  # where a core file of the PortAudio probe would land
        resource.setrlimit(resource.RLIMIT_CORE, (resource.getrlimit(resource.RLIMIT_CORE)[1],) * 2)
        player = Player()
        player.load(load_audio({str(source)!r}))
        messages = []
        for attempt in range(2):
            try:
                player.play()
            except AudioError as error:
                messages.append(str(error))
        report(messages=messages, state=player.state.name)
        """
    )
    assert result["state"] == "STOPPED"
    assert len(result["messages"]) == 2 and len(set(result["messages"])) == 1
    message = result["messages"][0]
    assert message.startswith("no audio output device: ") and message.endswith("playback is off")
    assert "\n" not in message
    assert not list(tmp_path.glob("core*")), "the probe's expected abort left a core file"


def test_play_reports_a_missing_portaudio_library(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    # sounddevice finds PortAudio through ctypes.util.find_library; making that
    # fail is the same as a machine without libportaudio2.
    source = write_sound(tmp_path / "turn03.wav", noise(0.2, 8000), 8000)
    result = audio_sink.run(
        f"""
        import ctypes.util
        ctypes.util.find_library = lambda name: None
        player = Player()
        player.load(load_audio({str(source)!r}))
        try:
            player.play()
            message = None
        except AudioError as error:
            message = str(error)
        report(message=message)
        """
    )
    assert result["message"] == "PortAudio is not installed (Debian: apt-get install libportaudio2); playback is off"


def test_importing_the_audio_package_does_not_start_portaudio(audio_sink: AudioSandbox) -> None:
    result = audio_sink.run(
        """
        import sys
        import annotator.audio
        report(loaded="sounddevice" in sys.modules)
        """
    )
    assert result == {"loaded": False}


@needs_rubberband
def test_changing_speed_while_playing_keeps_playing(audio_sink: AudioSandbox, tmp_path: Path) -> None:
    source = write_sound(tmp_path / "turn13.wav", noise(3.0, 8000), 8000)
    result = audio_sink.run(
        f"""
        player = Player()
        player.load(load_audio({str(source)!r}))
        player.loop = True
        player.play()
        poll_until(player, lambda p: p.frames_delivered >= 8000)
        player.speed = 1.5
        during = (player.state.name, player.speed)
        player.loop = False
        poll_until(player, lambda p: p.state is PlayerState.STOPPED)
        report(during=during, position=player.position)
        player.close()
        """
    )
    assert result == {"during": ["PLAYING", 1.5], "position": pytest.approx(3.0)}
