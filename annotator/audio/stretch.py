"""Playing speech faster or slower without changing its pitch (0.25x to 2x).

Time-scale modification is done by the Rubber Band library through its
command-line tool, `rubberband` (Debian/Ubuntu: rubberband-cli). Why:
  - Rubber Band is actively maintained and is used by Ardour, Sonic
    Visualiser and others; its R3 ("fine") engine is clean on speech, where phase
    vocoders (librosa) smear consonants and WSOLA packages (audiotsm,
    pytsmod) are unmaintained;
  - running the tool keeps its GPL code in a separate program, so the app's
    own licence is untouched (pedalboard and pylibrb link it into Python);
  - pyrubberband would add a package that does the same call but writes
    16-bit temporary files and hides the tool's error text, so the call is
    made here directly, with 32-bit float files, a time limit, and the tool's
    message in the error.
Without the tool speed stays at 1x and asking for another speed is an
AudioError that says what to install. Speed 1.0 returns the samples untouched.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import soundfile

from annotator.errors import AudioError

MIN_SPEED = 0.25  # a quarter of the speed: one word at a time, for a word said too fast to hear
MAX_SPEED = 2.0
TOOL = "rubberband"
INSTALL_HINT = "speed change needs rubberband-cli; install it (Debian/Ubuntu: apt-get install rubberband-cli)"
# R3 takes about 0.4 s for 30 s of 16 kHz speech on one core; this only stops a hung tool.
TIME_LIMIT_SECONDS = 120.0


def stretch_available() -> bool:
    """Whether speeds other than 1x can be played here."""
    return shutil.which(TOOL) is not None


def change_speed(samples: np.ndarray, samplerate: int, speed: float) -> np.ndarray:
    """`samples` (frames x channels, float32) played `speed` times as fast, at the same pitch.

    The result lasts about duration / speed. At speed 1.0 the very same array
    is returned.
    """
    speed = float(speed)
    if not MIN_SPEED <= speed <= MAX_SPEED:
        raise ValueError(f"speed {speed} is outside {MIN_SPEED}-{MAX_SPEED}")
    if speed == 1.0:
        return samples
    tool = shutil.which(TOOL)
    if tool is None:
        raise AudioError(INSTALL_HINT)
    with tempfile.TemporaryDirectory(prefix="annotator-speed-") as folder:
        source, target = Path(folder) / "in.wav", Path(folder) / "out.wav"
        soundfile.write(source, samples, samplerate, subtype="FLOAT")
        # --fine (R3 engine) needs Rubber Band 3; older tools get the default engine.
        problem = _run(tool, ["--fine"], speed, source, target)
        if problem is not None:
            problem = _run(tool, [], speed, source, target)
        if problem is not None:
            raise AudioError(f"speed change failed: rubberband: {problem}")
        try:
            stretched = soundfile.read(target, dtype="float32", always_2d=True)[0]
        except (soundfile.SoundFileError, RuntimeError) as error:
            raise AudioError(f"speed change failed: rubberband wrote no readable audio ({error})") from error
    if stretched.shape[0] == 0:
        stretched = np.zeros((1, samples.shape[1]), dtype=np.float32)
    return np.ascontiguousarray(stretched)


def _run(tool: str, engine: list[str], speed: float, source: Path, target: Path) -> str | None:
    """Run the tool once; None on success, else its last words."""
    command = [tool, "--quiet", *engine, "--tempo", f"{speed:.6g}", str(source), str(target)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=TIME_LIMIT_SECONDS, check=False)
    except subprocess.TimeoutExpired:
        return f"no result after {TIME_LIMIT_SECONDS:.0f} s"
    except OSError as error:
        return error.strerror or str(error)
    if done.returncode == 0 and target.exists():
        return None
    lines = [line.strip() for line in (done.stderr + done.stdout).splitlines() if line.strip()]
    return lines[-1] if lines else f"exit status {done.returncode}"
