"""Memory of every command that reads a log stays within 3x lxml's bare tree on a log holding one huge text.

Two logs (tests.support.huge_text.SHAPES): a 10 MB text as the recognizer's string and the transcription (20 MB),
and a text of 1.5 million words as those and as both alternatives of the n-best list (23 MB). Each command runs
in a process of its own; its peak resident memory is compared with that of a process that only parses the same
file with lxml, measured in the same run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli import run_annotator_measured
from tests.support.huge_text import HUGE_TEXT_COMMANDS, SHAPES, bare_tree_peak, write_annotations_csv

BOUND = 3


@pytest.fixture(scope="module", params=list(SHAPES))
def huge(request, tmp_path_factory) -> tuple[Path, Path, int]:
    """A log of each shape (alone in its folder, which `assign` takes), fold's annotations CSV and the bare tree's
    peak."""
    root = tmp_path_factory.mktemp("huge")
    log = root / "corpus" / "huge-hublog.xml"
    log.parent.mkdir()
    SHAPES[request.param](log)
    write_annotations_csv(root / "annotations.csv")
    return log, root / "annotations.csv", bare_tree_peak(log)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(HUGE_TEXT_COMMANDS))
def test_a_huge_text_costs_at_most_three_bare_trees(huge: tuple[Path, Path, int], tmp_path: Path, name: str):
    log, annotations, bare = huge
    done, peak = run_annotator_measured(*HUGE_TEXT_COMMANDS[name](log, annotations, tmp_path))
    assert done.returncode == 0, done.stderr
    assert peak <= BOUND * bare, f"{name}: {peak / 1e6:.0f} MB = {peak / bare:.1f} x a bare tree of {bare / 1e6:.0f} MB"
