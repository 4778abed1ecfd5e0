"""The real Praat, headless (`praat --run SCRIPT ARGS`), and the export it reads, for the Praat and ELAN tests."""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.repository import REPO

PRAAT = shutil.which("praat")
SCRIPTS = REPO / "tests" / "export" / "praat"
needs_praat = pytest.mark.skipif(
    PRAAT is None, reason="Praat is not installed: apt-get install praat (scripts/system-deps.sh)"
)


def praat(script: str, *args) -> str:
    """What the script in tests/export/praat/ prints, run by the real Praat."""
    done = subprocess.run(
        [PRAAT, "--run", str(SCRIPTS / script), *map(str, args)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def exported(paths: list[Path], kind: str, out: Path, *options: str) -> list[dict[str, str]]:
    """Export PATHS --to KIND into OUT through the command; index.csv's rows."""
    done = run_annotator("export", *paths, "--to", kind, "-o", out, *options)
    assert done.returncode == 0, done.stderr
    with open(out / "index.csv", encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))
