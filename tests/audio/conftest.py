"""Fixtures for the audio tests: generated sound files and a real, silent ALSA output.

Playback is tested for real, through PortAudio and ALSA, with no mock: an ALSA
configuration makes the default output a `file` plugin in front of the `null`
device, so whatever the player sends lands in a WAV file that the test reads
back. PortAudio reads the ALSA configuration once, when sounddevice is
imported, so each playback test runs its script in a fresh Python process
whose environment points ALSA_CONFIG_PATH at that configuration (sandbox.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.audio.sandbox import REPO, AudioSandbox

SYSTEM_ALSA_CONF = Path("/usr/share/alsa/alsa.conf")


def _needs_alsa() -> None:
    if not SYSTEM_ALSA_CONF.exists():
        pytest.skip("ALSA's configuration (libasound2-data) is not installed")


@pytest.fixture
def audio_sink(tmp_path: Path) -> AudioSandbox:
    """The default ALSA output writes to tmp_path/played.wav instead of a sound card."""
    _needs_alsa()
    played = tmp_path / "played.wav"
    config = tmp_path / "asound.conf"
    config.write_text(
        f'<{SYSTEM_ALSA_CONF}>\npcm.!default {{ type file; slave.pcm "null"; file "{played}"; format "wav" }}\n',
        encoding="utf-8",
    )
    return AudioSandbox(config, played)


def _has_sound_card() -> bool:
    snd = Path("/dev/snd")
    return snd.is_dir() and any(entry.name.startswith("pcm") for entry in snd.iterdir())


@pytest.fixture(params=["empty-config", "no-default-pcm"])
def no_audio_output(request: pytest.FixtureRequest, tmp_path: Path) -> AudioSandbox:
    """An ALSA set-up with nothing to play on: an empty configuration, or one whose default PCM is no device."""
    _needs_alsa()
    if _has_sound_card():
        pytest.skip("this machine has a sound card, which ALSA lists whatever its configuration says")
    config = tmp_path / "asound.conf"
    if request.param == "empty-config":
        config.write_text("", encoding="utf-8")
    else:
        config.write_text(f"<{SYSTEM_ALSA_CONF}>\npcm.!default {{ type hw; card 99 }}\n", encoding="utf-8")
    return AudioSandbox(config, tmp_path / "played.wav")


@pytest.fixture
def sample_wavs() -> list[Path]:
    """Real speech from the bundled sample logs (8 kHz 16-bit WAV)."""
    paths = sorted((REPO / "sample_logs").glob("travel-20261121-001/*-turn0[12]-*.wav"))
    if len(paths) < 2:
        pytest.skip("sample_logs/ is not there")
    return paths
