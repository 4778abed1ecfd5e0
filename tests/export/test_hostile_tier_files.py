"""Hostile TextGrids and ELAN files folded into a log: each is folded (exit 0) or refused in one line naming the
file and what is wrong (exit 2, nothing written), never a traceback or exit 70. Two tiers of a name the fold reads
are refused, naming both; an ELAN time slot without a time is placed between its aligned neighbours, as ELAN
places it, or the annotation that cannot be placed is named."""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given

from annotator.annotation_files.fold import extract
from annotator.cli.main import main
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.fuzzing import fuzz_settings
from tests.support.hostile_tier_files import TYPED, tier_file_cases, tier_file_mutants
from tests.support.repository import SAMPLE_LOGS

LOG = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
CASES = tier_file_cases(LOG)


def transcriptions(log: Path) -> dict[str, str]:
    annotations = extract(LogDocument.load(log))
    return {annotations.turn_id(ref): text for ref, text in annotations.transcriptions.items()}


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_hostile_tier_file_is_folded_or_refused_in_one_line(tmp_path: Path, case):
    path = tmp_path / case.name
    path.write_bytes(case.content)
    out = tmp_path / "out.xml"
    done = run_annotator("fold", LOG, path, "-o", out)
    assert done.returncode == case.code, done.stderr
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    if case.code == 2:
        assert done.stderr.startswith(f"annotator: {path}: ") and case.said in done.stderr, done.stderr
        assert not out.exists()
        return
    assert done.stderr == f"folded {case.folded} annotation(s) into 1 log(s)\n"
    if case.said:
        assert transcriptions(out) == {**transcriptions(LOG), case.said: TYPED}


@pytest.mark.parametrize("suffix", [".TextGrid", ".eaf"])
def test_a_tier_file_that_is_a_fifo_is_named_and_never_opened(tmp_path: Path, suffix: str):
    fifo = tmp_path / f"typed{suffix}"
    os.mkfifo(fifo)
    done = run_annotator("fold", LOG, fifo, "-o", tmp_path / "out.xml", timeout=60)  # opened, it blocks
    assert (done.returncode, done.stderr) == (
        2,
        f"annotator: {fifo}: is a named pipe (FIFO), not a regular file; not opened\n",
    )


@pytest.mark.slow
@fuzz_settings(examples=150)
@given(tier_file_mutants(CASES))
def test_mutated_tier_files_exit_0_or_2_in_one_line(mutant):
    name, content = mutant
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(content)
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            code = main(["fold", str(LOG), str(path), "-o", str(Path(folder) / "out.xml")])
    lines = said.getvalue().splitlines()
    assert code in (0, 2), said.getvalue()
    assert len(lines) == 1 and "Traceback" not in said.getvalue(), said.getvalue()
    assert lines[0].startswith("folded " if code == 0 else "annotator: "), said.getvalue()
