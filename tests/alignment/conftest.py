from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.spoken_sentences import Spoken, spoken


@pytest.fixture(scope="session")
def say(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, int], Spoken]:
    """TEXT said by espeak-ng at RATE Hz, with each word's true start; made once per text and rate."""
    folder: Path = tmp_path_factory.mktemp("speech")
    made: dict[tuple[str, int], Spoken] = {}

    def said(text: str, rate: int) -> Spoken:
        if (text, rate) not in made:
            made[(text, rate)] = spoken(folder, text, rate, f"s{len(made)}")
        return made[(text, rate)]

    return said
