"""Smaller defects of the command line: assign's count of the rows it kept, --jobs beyond the cores."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.corpus.parallel import available_cores
from tests.support.cli import run_annotator


def test_assign_counts_only_the_rows_it_kept(corpus: Path, capsys):
    """Rows of the earlier assignment whose sessions left the corpus are dropped, and said so, not counted as kept."""
    assert main(["assign", str(corpus), "--annotators", "a,b", "--seed", "1"]) == 0
    capsys.readouterr()
    shutil.rmtree(corpus / "travel-20261121-002")
    shutil.rmtree(corpus / "travel-20261121-003")
    assert main(["assign", str(corpus), "--annotators", "a,b", "--seed", "1"]) == 0
    err = capsys.readouterr().err
    assert "assigned 1 session(s)" in err and ", 1 row(s) of the earlier assignment kept, 2 dropped " in err, err
    assert len((corpus / "annotator-assignment.csv").read_text(encoding="utf-8").splitlines()) == 2


@pytest.mark.parametrize("jobs", [2, 200])
@pytest.mark.slow
def test_jobs_beyond_the_cores_are_capped_with_a_note(corpus: Path, jobs: int):
    """--jobs 200 started 200 workers on a 2-core machine. Here the process may use one core only."""

    def one_core() -> None:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})

    def info(*extra: str) -> subprocess.CompletedProcess:
        return run_annotator("info", corpus, *extra, preexec_fn=one_core)

    capped, serial = info("--jobs", str(jobs)), info("--jobs", "1")
    assert capped.returncode == 0, capped.stderr
    assert (
        capped.stderr
        == (f"annotator: note: --jobs {jobs} is more than the 1 core(s) available; running 1 process(es)\n")
        + serial.stderr
    )
    assert capped.stdout == serial.stdout


def test_jobs_within_the_cores_say_nothing(corpus: Path, capsys):
    assert main(["info", str(corpus), "--jobs", str(available_cores())]) == 0
    assert "note: --jobs" not in capsys.readouterr().err
