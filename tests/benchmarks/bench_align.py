"""The aligner's accuracy and speed on speech whose word times are known (docs/performance.md, docs/words.md).

    .venv/bin/python tests/benchmarks/bench_align.py [--sentences 40]

Sentences like a caller's (some with words no dictionary holds) are said by espeak-ng, whose word events
give each word's true start, written at 16 kHz and resampled to 8 kHz by sox. Each is aligned with its
text; printed per rate: the median word-boundary error (each word's start, and its end where the next
word starts at once; words espeak-ng said run together with the next are left out, their start unknown),
the share of word starts within 50 and 100 ms, the turns that failed, and the CPU
time per second of audio. Then `annotator align` runs twice over a corpus of the same sentences as user
turns, and the second run's time is given as a share of the first's (every turn already in the cache).
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY))

from annotator.alignment import NotAligned, align_turn  # noqa: E402
from tests.support.alignment_corpus import write_corpus  # noqa: E402
from tests.support.spoken_sentences import Spoken, sentences, spoken  # noqa: E402


def accuracy(folder: Path, texts: list[str], rate: int) -> list[Spoken]:
    """The figures of TEXTS said at RATE; returns what was said."""
    errors, start_errors, failed, made = [], [], 0, []
    cpu = audio = 0.0
    for index, text in enumerate(texts):
        said = spoken(folder, text, rate, f"s{index}-{rate}")
        made.append(said)
        began = time.process_time()
        try:
            words = align_turn(said.path, text)
        except NotAligned as error:
            failed += 1
            print(f"  failed: {text!r}: {error}")
            continue
        finally:
            cpu += time.process_time() - began
            audio += said.end
        for at, word in enumerate(words):
            if not math.isnan(said.starts[at]):
                start_errors.append(abs(word.start - said.starts[at]))
                errors.append(start_errors[-1])
            if at + 1 < len(words) and not math.isnan(said.starts[at + 1]):
                errors.append(abs(word.end - said.starts[at + 1]))
    within = lambda limit: 100 * sum(error <= limit for error in start_errors) / max(1, len(start_errors))  # noqa: E731
    print(
        f"{rate} Hz: {len(texts)} sentences, {failed} failed; median boundary error "
        f"{1000 * statistics.median(errors):.0f} ms; starts within 50 ms {within(0.05):.0f} %, within 100 ms "
        f"{within(0.1):.0f} %; CPU {cpu / audio:.3f} s per second of audio"
    )
    return made


def second_run(folder: Path, said: list[Spoken]) -> None:
    corpus = write_corpus(folder / "corpus", said)
    environment = {**os.environ, "ANNOTATOR_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(REPOSITORY)}
    times = []
    for _ in range(2):
        began = time.monotonic()
        subprocess.run(
            [sys.executable, "-m", "annotator", "align", str(corpus), "--jobs", "1"],
            env=environment,
            check=True,
            capture_output=True,
        )
        times.append(time.monotonic() - began)
    print(
        f"annotator align over {len(said)} turns: first run {times[0]:.2f} s, second {times[1]:.2f} s ({100 * times[1] / times[0]:.1f} %)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sentences", type=int, default=40)
    parser.add_argument("--no-corpus", action="store_true", help="leave out the two runs of annotator align")
    args = parser.parse_args()
    texts = sentences(args.sentences)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        accuracy(folder, texts, 16000)
        telephone = accuracy(folder, texts, 8000)
        if not args.no_corpus:
            second_run(folder, telephone)


if __name__ == "__main__":
    main()
