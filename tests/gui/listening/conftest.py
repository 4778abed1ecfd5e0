"""Real speech for the tests of the words placed on a turn's audio (tests/support/spoken_log.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from annotator.gui.settings import AppSettings
from tests.support.spoken_log import say_all, write_spoken_log
from tests.support.spoken_sentences import Spoken


@pytest.fixture(scope="module")
def speech(tmp_path_factory) -> list[Spoken]:
    """The sentences said once for the module (espeak-ng and sox take a second or two)."""
    if not shutil.which("sox"):
        pytest.skip("sox resamples espeak-ng's speech (apt-get install sox)")
    return say_all(tmp_path_factory.mktemp("speech"))


@pytest.fixture
def spoken_log(speech: list[Spoken], tmp_path: Path, isolated_settings: Path) -> Path:
    """A writable log of the spoken turns, with their audio, in a window that places words (the default the GUI
    tests turn off: tests/gui/conftest.py)."""
    AppSettings().place_words = True
    return write_spoken_log(tmp_path / "spoken", speech)
