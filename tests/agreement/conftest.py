"""The report and figures of one `annotator agree` run over the planted team corpus, shared by the tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import planted_team
from tests.support.cli import run_annotator


@pytest.fixture(scope="session")
def team_run(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("agree")
    corpus = planted_team.make_team_corpus(folder / "corpus")
    done = run_annotator(
        "agree", corpus, "-o", folder / "report.html", "--csv", folder / "figures", "--top", "3", "--jobs", "1"
    )
    assert done.returncode == 0, done.stderr
    return folder / "report.html", folder / "figures"
