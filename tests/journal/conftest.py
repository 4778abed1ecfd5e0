"""Fixtures of the recovery journal's tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch) -> Path:
    """The user's data folder (where journals live) at tmp_path/data: the recovery journal's tests name it."""
    folder = tmp_path / "data"
    monkeypatch.setenv("ANNOTATOR_DATA_DIR", str(folder))
    return folder
