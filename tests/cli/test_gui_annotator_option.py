"""`annotator gui --annotator NAME`: a name outside the file-name-safe subset is one line and exit 2,
before any window starts."""

from __future__ import annotations

from tests.support.cli import run_annotator


def test_a_bad_annotator_name_is_refused_in_one_line():
    done = run_annotator("gui", "--annotator", "../alice", "nowhere.xml", timeout=120)
    assert done.returncode == 2
    assert done.stderr.startswith("annotator: --annotator '../alice': use 1 to 40 letters")
    assert done.stderr.count("\n") == 1


def test_the_option_is_on_the_help_of_both_gui_commands():
    for command in (["gui", "--help"],):
        done = run_annotator(*command, timeout=120)
        assert done.returncode == 0, done.stderr
        assert "--annotator NAME" in done.stdout
