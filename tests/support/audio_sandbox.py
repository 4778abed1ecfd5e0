"""Running a playback script in a fresh interpreter whose ALSA output is a test's own.

PortAudio reads the ALSA configuration once, when sounddevice is imported, so
every playback test needs a new process; the script reports back through
audio_drive.report(), one JSON line on its standard output.

Playback is tested for real, through PortAudio and ALSA, with no mock: an ALSA
configuration makes the default output a `file` plugin in front of the `null`
device, so whatever the player sends lands in a WAV file that the test reads
back (the fixtures audio_sink in tests/conftest.py and no_audio_output in tests/audio/conftest.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.repository import REPO
from tests.support.sounds import Played, read_played

SYSTEM_ALSA_CONF = Path("/usr/share/alsa/alsa.conf")
CHILD_TIME_LIMIT_SECONDS = 180


@dataclass
class AudioSandbox:
    """A fresh-process runner whose ALSA default output is `config` (see the module docstring)."""

    config: Path
    played: Path

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env["ALSA_CONFIG_PATH"] = str(self.config)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
        return env

    def run(self, script: str) -> dict:
        """Run `script` in a new interpreter; it reports by calling report(**values) once."""
        prelude = "from tests.support.audio_drive import *\n"
        done = subprocess.run(
            [sys.executable, "-c", prelude + textwrap.dedent(script)],
            env=self.environment(),
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=CHILD_TIME_LIMIT_SECONDS,
            check=False,
        )
        assert done.returncode == 0, f"child exited with {done.returncode}:\n{done.stdout}\n{done.stderr}"
        reports = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")]
        assert reports, f"child reported nothing:\n{done.stdout}\n{done.stderr}"
        return json.loads(reports[-1][len("REPORT ") :])

    def read_played(self) -> Played:
        return read_played(self.played)


def needs_alsa() -> None:
    if not SYSTEM_ALSA_CONF.exists():
        pytest.skip("ALSA's configuration (libasound2-data) is not installed")


def has_sound_card() -> bool:
    """Whether ALSA sees a real sound card: it lists one whatever its configuration says."""
    snd = Path("/dev/snd")
    return snd.is_dir() and any(entry.name.startswith("pcm") for entry in snd.iterdir())
