"""`annotator gui --annotator NAME`: a name outside the file-name-safe subset is one line and exit 2,
before any window starts."""

from __future__ import annotations

import subprocess
import sys


def test_a_bad_annotator_name_is_refused_in_one_line():
    done = subprocess.run(
        [sys.executable, "-m", "annotator", "gui", "--annotator", "../alice", "nowhere.xml"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("annotator: --annotator '../alice': use 1 to 40 letters")
    assert done.stderr.count("\n") == 1


def test_the_option_is_on_the_help_of_both_gui_commands():
    for command in (["-m", "annotator", "gui", "--help"],):
        done = subprocess.run([sys.executable, *command], capture_output=True, text=True, timeout=120, check=True)
        assert "--annotator NAME" in done.stdout
