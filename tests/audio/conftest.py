"""Fixtures of the audio tests: an ALSA set-up with nothing to play on, and real speech. The set-up that plays into
a file, audio_sink, is in tests/conftest.py: the GUI's playback tests use it too (tests/support/audio_sandbox.py
says how it works)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.audio_sandbox import SYSTEM_ALSA_CONF, AudioSandbox, has_sound_card, needs_alsa
from tests.support.repository import REPO


@pytest.fixture(params=["empty-config", "no-default-pcm"])
def no_audio_output(request: pytest.FixtureRequest, tmp_path: Path) -> AudioSandbox:
    """An ALSA set-up with nothing to play on: an empty configuration, or one whose default PCM is no device."""
    needs_alsa()
    if has_sound_card():
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
