"""Benchmark: memory of the commands on a log holding one huge transcription, against the bare tree.

    python tests/benchmarks/bench_huge_text.py [--characters 10000000]

Writes a one-turn log whose recognizer text and transcription are each CHARACTERS long and differ by
one word (tests.support.hostile_shapes.huge_transcription_log), then prints the peak resident memory of
`info`, `export --to lmc`, `extract` and `replace --dry-run` on it, each in a process of its own, and
its ratio to a process that only parses the same file with lxml (the bare tree), measured in the same
run. The word alignment handed both texts whole to jiwer, which holds several copies: a 20 MB log
needed 849 MB; it now aligns only the words between the common start and end.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))  # the repository, when run as a script

_PEAK = """import resource, runpy, sys
sys.argv = {argv!r}
try:
    {body}
finally:
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def peak_kb(body: str, argv: list[str]) -> int:
    done = subprocess.run(
        [sys.executable, "-c", _PEAK.format(argv=argv, body=body)], capture_output=True, text=True, cwd=REPO
    )
    return int(done.stderr.strip().splitlines()[-1])


def main() -> None:
    from tests.support.hostile_shapes import huge_transcription_log

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=10_000_000)
    characters = parser.parse_args().characters
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "huge-hublog.xml"
        log.write_text(huge_transcription_log(characters), encoding="utf-8")
        bare = peak_kb(
            "from lxml import etree; etree.parse(sys.argv[1], etree.XMLParser(huge_tree=True))", ["x", str(log)]
        )
        print(f"log {log.stat().st_size / 1e6:.1f} MB; bare tree: {bare / 1e3:.0f} MB", flush=True)
        run = "runpy.run_module('annotator', run_name='__main__')"
        commands = {
            "info": ["info", str(log), "-j", "1"],
            "export lmc": ["export", str(log), "--to", "lmc", "-o", f"{folder}/out.jsonl", "-j", "1"],
            "extract": ["extract", str(log), "-o", f"{folder}/annotations.csv", "-j", "1"],
            "replace --dry-run": ["replace", "--find", "boston", "--replace", "austin", str(log), "--dry-run"],
        }
        for name, arguments in commands.items():
            try:
                peak = peak_kb(run, ["annotator", *arguments])
            except (ValueError, IndexError):
                print(f"{name}: did not finish", flush=True)
                continue
            print(f"{name}: {peak / 1e3:.0f} MB = {peak / bare:.1f} x the bare tree", flush=True)


if __name__ == "__main__":
    main()
