"""Benchmark: reading a corpus whose logs name audio that is nowhere grows linearly with the logs.

    python tests/benchmarks/bench_missing_audio.py [--logs 1000,4000]

Writes that many one-turn logs into ONE folder (tests.support.hostile_shapes.missing_audio_corpus), each naming
a missing recording, and times `annotator info`'s per-log work on all of them in this process, printing
the time per 1,000 logs and its ratio to the smallest run. Each log used to walk the whole folder to look
for its audio by name (3,000 logs 18 s, 6,000 logs 58 s): the ratio grew with the corpus. One index per
folder and run keeps it near 1.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the repository, when run as a script


def main() -> None:
    from annotator.analysis.summary import describe_log
    from tests.support.hostile_shapes import missing_audio_corpus

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", default="1000,4000", help="comma-separated numbers of logs")
    counts = [int(part) for part in parser.parse_args().logs.split(",")]
    first = None
    for count in counts:
        with tempfile.TemporaryDirectory() as folder:
            paths = missing_audio_corpus(Path(folder), count, per_folder=count)
            start = time.perf_counter()
            for path in paths:
                describe_log(path)
            rate = (time.perf_counter() - start) / count * 1000
            first = first or rate
            print(
                f"{count:,} logs in one folder: {rate:.2f} s per 1,000 logs (ratio {rate / first:.2f} to the smallest)",
                flush=True,
            )


if __name__ == "__main__":
    main()
