"""Generated team corpora: copies of the sample logs, several sessions each named apart by file."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import sample_log_paths


def make_corpus(folder: Path, logs: int) -> Path:
    """FOLDER holding LOGS copies of the sample logs, in sub-folders of a few each (as corpora come)."""
    samples = sample_log_paths()
    for number in range(logs):
        target = folder / f"day{number % 3}" / f"travel-{number:03d}-hublog.xml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(samples[number % len(samples)], target)
    return folder


@pytest.fixture
def team_corpus(tmp_path: Path) -> Path:
    return make_corpus(tmp_path / "team-corpus", 14)
