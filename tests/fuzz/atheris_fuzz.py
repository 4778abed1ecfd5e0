"""Coverage-guided fuzzing of the log loader and everything after it, with atheris (libFuzzer).

    pip install atheris
    python tests/fuzz/atheris_fuzz.py --seconds 60          # the sample logs and tests/hostile as seeds
    python tests/fuzz/atheris_fuzz.py --seconds 600 -jobs=4  # further arguments go to libFuzzer

Each input is written as a log file and put through tests.support.fuzzing.exercise:
loading either succeeds or raises AnnotatorError, and a log that loads must
validate, measure, export, take an annotation and save/reload to the same bytes.
Anything else is a crash: libFuzzer stops and writes the input to
tests/fuzz/crashes/ (replay: python tests/fuzz/atheris_fuzz.py tests/fuzz/crashes/crash-...).
Not collected by pytest (the file name does not start with test_).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import atheris

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

with atheris.instrument_imports(include=["annotator"]):
    import annotator.analysis.validation  # noqa: F401
    import annotator.export.csv_export  # noqa: F401
    import annotator.log.document  # noqa: F401

from tests.support.fuzzing import exercise  # noqa: E402

OUTCOMES: dict[str, int] = {}
STOP = {"at": float("inf"), "corpus": None}


def test_one_input(data: bytes) -> None:
    if time.monotonic() > STOP["at"]:
        _finish()
    outcome = exercise(data).split(":")[0]
    OUTCOMES[outcome] = OUTCOMES.get(outcome, 0) + 1


def _seed_corpus() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="annotator-atheris-"))
    for path in [*REPO.glob("sample_logs/*/*-hublog.xml"), *REPO.glob("tests/hostile/*.xml")]:
        shutil.copyfile(path, folder / path.name)
    return folder


def main(argv: list[str]) -> None:
    args = list(argv[1:])
    if "--seconds" in args:  # our own clock: libFuzzer's -max_total_time leaves without a summary
        at = args.index("--seconds")
        STOP["at"] = time.monotonic() + float(args[at + 1])
        del args[at : at + 2]
    crashes = REPO / "tests" / "fuzz" / "crashes"
    crashes.mkdir(exist_ok=True)
    args.append(f"-artifact_prefix={crashes}/")
    replaying = any(not arg.startswith("-") for arg in args)
    if not replaying:
        STOP["corpus"] = _seed_corpus()
        args += ["-max_len=131072", str(STOP["corpus"])]
    atheris.Setup([argv[0], *args], test_one_input)
    atheris.Fuzz()


def _finish() -> None:
    total = sum(OUTCOMES.values())
    print(
        f"\natheris: {total} inputs, no crash: " + ", ".join(f"{n} {k}" for k, n in OUTCOMES.items()),
        file=sys.stderr,
        flush=True,
    )
    if STOP["corpus"] is not None:
        shutil.rmtree(STOP["corpus"], ignore_errors=True)
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv)
