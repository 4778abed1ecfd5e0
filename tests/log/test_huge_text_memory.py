"""Memory of every command that reads a log stays within 3x lxml's bare tree on a log holding one huge text.

The log's user turn holds a text of 1.5 million words four times (the recognizer's string, both alternatives
of its n-best list and the transcription: 23 MB; tests.support.huge_text). Each command runs in a process of
its own; its peak resident memory is compared with that of a process that only parses the same file with
lxml, measured in the same test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run_annotator_measured
from tests.support.huge_text import HUGE_TEXT_COMMANDS, bare_tree_peak, write_annotations_csv, write_huge_text_log

BOUND = 3


@pytest.fixture(scope="module")
def huge(tmp_path_factory) -> tuple[Path, Path, int]:
    """The log (alone in its folder, which `assign` takes), fold's annotations CSV and the bare tree's peak."""
    root = tmp_path_factory.mktemp("huge")
    log = root / "corpus" / "huge-hublog.xml"
    log.parent.mkdir()
    write_huge_text_log(log)
    write_annotations_csv(root / "annotations.csv")
    return log, root / "annotations.csv", bare_tree_peak(log)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HUGE_TEXT_COMMANDS))
def test_a_huge_text_costs_at_most_three_bare_trees(huge: tuple[Path, Path, int], tmp_path: Path, name: str):
    log, annotations, bare = huge
    done, peak = run_annotator_measured(*HUGE_TEXT_COMMANDS[name](log, annotations, tmp_path))
    assert done.returncode == 0, done.stderr
    assert peak <= BOUND * bare, f"{name}: {peak / 1e6:.0f} MB = {peak / bare:.1f} x a bare tree of {bare / 1e6:.0f} MB"
