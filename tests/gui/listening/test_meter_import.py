"""The loudness meter (pyloudnorm, over scipy) is imported once a clip is loaded, not while the window opens.

Importing it takes a second of CPU holding the GIL in long stretches; run beside the window's first opening
(a corpus's first log, with the scan starting), it doubled that opening's GUI-thread stalls. A fresh
interpreter, since a test process has imported scipy long before.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.repository import REPO
from tests.support.window_script import WINDOW_PRELUDE

SCRIPT = (
    WINDOW_PRELUDE
    + """
import json, sys
from annotator.audio.loudness import meter_loaded
from annotator.gui.app import parts_of

def until(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        app.processEvents()
        time.sleep(0.005)

def imported():
    return sorted(name for name in ("pyloudnorm", "scipy") if name in sys.modules)

browser = parts_of(window).browser
until(lambda: parts_of(window).controller.document is not None and not browser.is_scanning)
for _ in range(50):  # whatever the opening started in the background has time to run
    app.processEvents()
    time.sleep(0.01)
print(json.dumps({{"opened_without_audio": imported()}}), flush=True)
assert parts_of(window).navigator.open_path({with_audio!r})
until(meter_loaded)
print(json.dumps({{"opened_with_audio": imported()}}), flush=True)
parts_of(window).controller.undo_stack.setClean()
window.close()
"""
)


@pytest.mark.slow
def test_the_meter_is_imported_with_the_first_clip_not_at_the_start(tmp_path: Path, annotated_log: Path):
    without_audio = tmp_path / "without-audio"
    without_audio.mkdir()
    shutil.copy(annotated_log, without_audio)  # the log alone: its turns' recordings are not beside it
    shutil.copy(annotated_log, without_audio / "second-hublog.xml")
    script = SCRIPT.format(settings=str(tmp_path / "settings"), log=str(without_audio), with_audio=str(annotated_log))
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr[-4000:]
    seen = {
        key: value
        for line in result.stdout.splitlines()
        if line.startswith("{")
        for key, value in json.loads(line).items()
    }
    assert seen["opened_without_audio"] == [], "the window imported the meter for a corpus without audio"
    assert "pyloudnorm" in seen["opened_with_audio"]
