"""The hostile corpus, tests/hostile: hostile and broken logs, and what the annotator must say about each
(tests/hostile/expected.yaml).

    for path, fragment, refused in hostile_cases():
        ...  # refused: loading raises LogReadError whose str() holds FRAGMENT;
             # else the log loads and one of its findings holds FRAGMENT

The CLI test (tests/safety/test_hostile_cli.py), the GUI loader test (tests/gui/test_hostile_gui.py) and the
validation of the DTD's pieces share this list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import yaml

from tests.support.repository import REPO

HOSTILE = REPO / "tests" / "hostile"


class HostileCase(NamedTuple):
    path: Path
    fragment: str
    refused: bool


@dataclass(frozen=True)
class Expectation:
    """Everything expected.yaml says about one file."""

    path: Path
    fragment: str
    refused: bool
    validate: int  # exit status of `annotator validate`
    info: int  # exit status of `annotator info`
    where: str | None  # "line:column" named after the file, for refusals that have one

    @property
    def name(self) -> str:
        return self.path.name


def expectations() -> list[Expectation]:
    table = yaml.safe_load((HOSTILE / "expected.yaml").read_text(encoding="utf-8"))
    return [
        Expectation(
            HOSTILE / name,
            str(entry["fragment"]),
            bool(entry["refused"]),
            int(entry["validate"]),
            int(entry["info"]),
            entry.get("where"),
        )
        for name, entry in table.items()
    ]


def hostile_cases() -> list[HostileCase]:
    """(path, expected fragment, refused) for every file of the corpus."""
    return [HostileCase(entry.path, entry.fragment, entry.refused) for entry in expectations()]
