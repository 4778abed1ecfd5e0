"""Benchmark: memory of every command that reads a log, on a log holding one huge text, against the bare tree.

    python tests/benchmarks/bench_huge_text.py [--shape n-best|two texts] [COMMAND ...]

Writes a log of one of tests.support.huge_text's SHAPES (a 10 MB text as the recognizer's string and the
transcription; a text of 1.5 million words as those and both n-best alternatives), then prints the peak resident memory of each command of
HUGE_TEXT_COMMANDS (or those named) on it, each in a process of its own, and its ratio to a process that only
parses the same file with lxml (the bare tree), measured in the same run. tests/log/test_huge_text_memory.py
holds every command to 3 times the bare tree.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # the repository, when run as a script


def main() -> None:
    from tests.support.cli import run_annotator_measured
    from tests.support.huge_text import (
        HUGE_TEXT_COMMANDS,
        SHAPES,
        bare_tree_peak,
        write_annotations_csv,
    )

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", choices=list(SHAPES), default="two texts")
    parser.add_argument("commands", nargs="*", choices=[[], *HUGE_TEXT_COMMANDS], metavar="COMMAND")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        log, annotations = Path(folder) / "corpus" / "huge-hublog.xml", Path(folder) / "annotations.csv"
        log.parent.mkdir()
        SHAPES[arguments.shape](log)
        write_annotations_csv(annotations)
        bare = bare_tree_peak(log)
        print(f"log {log.stat().st_size / 1e6:.1f} MB; bare tree: {bare / 1e6:.0f} MB", flush=True)
        for name in arguments.commands or HUGE_TEXT_COMMANDS:
            out = Path(tempfile.mkdtemp(dir=folder))
            started = time.perf_counter()
            done, peak = run_annotator_measured(*HUGE_TEXT_COMMANDS[name](log, annotations, out))
            said = "" if done.returncode == 0 else f" (exit {done.returncode}: {done.stderr.strip()[-200:]})"
            print(
                f"{name}: {peak / 1e6:.0f} MB = {peak / bare:.1f} x the bare tree, "
                f"{time.perf_counter() - started:.1f} s{said}",
                flush=True,
            )


if __name__ == "__main__":
    main()
