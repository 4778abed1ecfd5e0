"""Running a playback script in a fresh interpreter whose ALSA output is a test's own.

PortAudio reads the ALSA configuration once, when sounddevice is imported, so
every playback test needs a new process; the script reports back through
drive.report(), one JSON line on its standard output.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

from tests.audio.sounds import Played, read_played

REPO = Path(__file__).resolve().parents[2]
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
        prelude = "from tests.audio.drive import *\n"
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
