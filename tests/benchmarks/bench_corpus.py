"""Corpus-wide commands on 2 processes against the serial run, on a corpus of small logs.

    python tests/benchmarks/bench_corpus.py                      # 2,000 logs of about 50 kB
    python tests/benchmarks/bench_corpus.py --files 200 --kb 20  # quicker

The corpus (cached under tests/benchmarks/.cache/) holds FILES logs made by big_log.make_big_log at
four sizes around KB kilobytes, copied round-robin. Each command runs as the real `annotator`
command in a fresh process, first with --jobs 1, then with --jobs 2, and the line prints both
wall-clock times and their ratio (target <= 0.6, i.e. the second core pays off). The outputs of
the two runs are compared byte for byte as well. With --repeat N each pair runs N times and the
fastest of each is compared: on a machine shared with other work, the fastest run is the one
that other work disturbed least.
"""

from __future__ import annotations

import argparse
import filecmp
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.big_log import CACHE, VERSION, make_big_log  # noqa: E402
from tests.support.cli import run_annotator  # noqa: E402
from tests.support.corpus_commands import WRITERS  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
TARGET = 0.6

# name: argv after `annotator`, from (corpus, output folder)
COMMANDS = {
    "info": lambda c, out: ["info", c],
    "validate": lambda c, out: ["validate", "--hide-quirks", c],
    **{name: argv for name, argv in WRITERS.items() if name != "extract-xml"},
}


def corpus(files: int, kb: float) -> Path:
    folder = CACHE / f"corpus-v{VERSION}-{files}x{kb:g}kb"
    if folder.is_dir():
        return folder
    partial = folder.with_name(folder.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    sizes = [kb * factor / 1000 for factor in (0.5, 0.8, 1.2, 1.5)]
    models = [make_big_log(partial / f"model-{n}.xml", size) for n, size in enumerate(sizes)]
    for number in range(files):
        target = partial / f"site-{number // 100:02d}" / f"log-{number:05d}-hublog.xml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(models[number % len(models)], target)
    for model in models:
        model.unlink()
    partial.rename(folder)
    return folder


def run(argv: list, jobs: int) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = run_annotator(*argv, "--jobs", str(jobs), cwd=REPO, timeout=None, text=False)
    return time.perf_counter() - start, done


def same_outputs(left: Path, right: Path) -> bool:
    compared = filecmp.dircmp(left, right)
    if compared.left_only or compared.right_only or compared.diff_files or compared.funny_files:
        return False
    return all(same_outputs(left / sub, right / sub) for sub in compared.common_dirs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--kb", type=float, default=50, help="about how big each log is")
    parser.add_argument("--only", nargs="*", choices=list(COMMANDS), help="run these commands only")
    parser.add_argument("--repeat", type=int, default=1, help="run each pair N times; compare the fastest of each")
    args = parser.parse_args()
    folder = corpus(args.files, args.kb)
    size = sum(path.stat().st_size for path in folder.rglob("*.xml"))
    print(
        f"corpus: {args.files} logs, {size / 1e6:.1f} MB; cores this process may use: "
        f"{len(os.sched_getaffinity(0))}; Python {sys.version.split()[0]}",
        flush=True,
    )
    misses = 0
    for name in args.only or COMMANDS:
        with tempfile.TemporaryDirectory(prefix="bench-corpus-") as scratch:
            outs = [Path(scratch) / "serial", Path(scratch) / "parallel"]
            times: list[list[float]] = [[], []]
            for _attempt in range(args.repeat):
                runs = []
                for out, jobs in zip(outs, (1, 2)):
                    shutil.rmtree(out, ignore_errors=True)
                    out.mkdir()
                    # the same output path for both runs (ConvLab's preprocess.py names it): move each aside after
                    work = Path(scratch) / "out"
                    work.mkdir()
                    seconds, done = run(COMMANDS[name](folder, work), jobs)
                    work.rename(out / "files")
                    runs.append((seconds, done))
                (serial_done, parallel_done) = (done for _, done in runs)
                for kept, (seconds, _) in zip(times, runs):
                    kept.append(seconds)
            serial, parallel = min(times[0]), min(times[1])
            same = (
                serial_done.returncode == parallel_done.returncode
                and serial_done.stdout == parallel_done.stdout
                and same_outputs(outs[0] / "files", outs[1] / "files")
            )
        ratio = parallel / serial
        ok = same and ratio <= TARGET and serial_done.returncode in (0, 1)
        misses += not ok
        print(
            f"{name}: --jobs 1 {serial:.2f} s, --jobs 2 {parallel:.2f} s = ratio {ratio:.2f} "
            f"(target <= {TARGET}) {'PASS' if ok else 'MISS'}; outputs {'identical' if same else 'DIFFER'}"
            f"{'' if args.repeat == 1 else f'; fastest of {args.repeat}: ' + ', '.join(f'{t:.1f}' for t in times[0] + times[1])}"
            f"{'' if serial_done.returncode in (0, 1) else f'; exit {serial_done.returncode}: ' + serial_done.stderr.decode()[:200]}",
            flush=True,
        )
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
