"""What a run killed while moving its files into place left beside them: the output's previous file kept
aside as `.NAME.xxxxxxxx.previous`, the only copy where it had been renamed (annotator.outputs.kept_aside).
The next run writing the same output puts it back or removes it, and leaves a live run's alone."""

from __future__ import annotations

import os
from pathlib import Path

from annotator.outputs import kept_aside
from annotator.outputs.staging import write_together


def test_a_missing_output_gets_its_file_back_and_a_present_one_loses_the_copy(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(kept_aside, "ABANDONED_AFTER_SECONDS", 0.0)  # as if the killed run were a minute ago
    renamed = tmp_path / "a.txt"  # the killed run had renamed it aside (no hard links) and died
    (tmp_path / ".a.txt.0123abcd.previous").write_bytes(b"the user's a")
    linked = tmp_path / "b.txt"  # kept aside as a hard link: both names hold the same file
    linked.write_bytes(b"the user's b")
    os.link(linked, tmp_path / ".b.txt.89abcdef.previous")
    kept_aside.put_back_kept_aside([renamed, linked])
    assert renamed.read_bytes() == b"the user's a" and linked.read_bytes() == b"the user's b"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_the_next_write_of_the_same_outputs_clears_them_and_a_recent_one_is_left_alone(tmp_path: Path, monkeypatch):
    (tmp_path / ".a.txt.0123abcd.previous").write_bytes(b"old a")
    write_together({tmp_path / "a.txt": b"new a"})
    assert (tmp_path / ".a.txt.0123abcd.previous").exists(), "kept aside a moment ago: maybe a live run's"
    monkeypatch.setattr(kept_aside, "ABANDONED_AFTER_SECONDS", 0.0)
    write_together({tmp_path / "a.txt": b"newer a"})
    assert sorted(path.name for path in tmp_path.iterdir()) == ["a.txt"]
    assert (tmp_path / "a.txt").read_bytes() == b"newer a"
