"""Kill -9 a process running `annotator replace` over five logs, again and again; every log must survive every kill.

    python -m tests.support.replace_kill_loop run [COUNT]     # prints the figures
    python -m tests.support.replace_kill_loop child CORPUS    # what the parent starts

The child replaces "boston" by "austin" in the corpus, then back, forever, through the command's entry point.
The parent waits until it runs, kills it with SIGKILL after a random, seeded delay, and checks that each log is
exactly one of the versions the replaces make (never a mix, never torn) and each NAME.orig.xml absent or the
log as it first was. The temporary files a kill leaves beside a log are counted; at the end, once they are older
than the stale-file age, one replace each way (so that every log is saved) must leave none.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.replace_corpus import make_corpus

REPO = Path(__file__).resolve().parents[2]
DEFAULT_COUNT = 30
MAX_DELAY_SECONDS = 0.5  # after the child started replacing: a few runs fit in it
STALE_AFTER_SECONDS = 2.0  # annotator.reading.disk_changes: younger temporary files are left alone
ONE_WAY = (["--find", "boston", "--replace", "austin", "--case-sensitive"],)
BOTH_WAYS = ONE_WAY + (["--find", "austin", "--replace", "boston", "--case-sensitive"],)


@dataclass
class ReplaceKillReport:
    kills: int = 0
    mixed: int = 0  # kills after which the logs held different versions (a kill inside the putting in place)
    leftovers_seen: int = 0  # kills that left temporary files beside the logs
    most_leftovers: int = 0
    leftovers_at_end: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.kills} SIGKILLs in {self.seconds:.1f} s: every log whole after each, the logs in different "
            f"versions after {self.mixed}; {self.leftovers_seen} kills left temporary files (at most "
            f"{self.most_leftovers} at once, {self.leftovers_at_end} after a last replace each way); "
            f"{len(self.failures)} failures"
        )


def child(corpus: Path) -> None:
    from annotator.cli.main import main

    print("started", flush=True)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)  # the changes it prints go nowhere: a full pipe would hold the child still
    os.dup2(null, 2)
    while True:
        for way in BOTH_WAYS:
            main(["replace", str(corpus), *way])


def _replace(corpus: Path, way: list[str]) -> None:
    subprocess.run(
        [sys.executable, "-m", "annotator", "replace", str(corpus), *way],
        capture_output=True,
        check=True,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )


def versions(root: Path) -> set[bytes]:
    """The versions of the sample log the replaces make, each way in turn from the first."""
    log = make_corpus(root, count=1)[0]
    seen = {log.read_bytes()}
    for way in BOTH_WAYS + BOTH_WAYS:
        _replace(root, way)
        seen.add(log.read_bytes())
    return seen


def leftovers(logs: list[Path]) -> list[Path]:
    return [path for log in logs for path in log.parent.glob(".*.tmp")]


def run(work: Path, count: int = DEFAULT_COUNT, seed: int = 36) -> ReplaceKillReport:
    report = ReplaceKillReport()
    started = time.monotonic()
    allowed = versions(work / "versions")
    logs = make_corpus(work / "corpus")
    first = logs[0].read_bytes()
    randomness = random.Random(seed)
    for _ in range(count):
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.replace_kill_loop", "child", str(work / "corpus")],
            stdout=subprocess.PIPE,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        assert process.stdout is not None
        process.stdout.readline()
        time.sleep(randomness.uniform(0, MAX_DELAY_SECONDS))
        process.send_signal(signal.SIGKILL)
        process.wait()
        process.stdout.close()
        report.kills += 1
        contents = [log.read_bytes() for log in logs]
        report.failures += [f"{log}: neither version" for log, content in zip(logs, contents) if content not in allowed]
        report.mixed += len(set(contents)) > 1
        for log in logs:
            original = log.with_name(log.name.replace(".xml", ".orig.xml"))
            if original.exists() and original.read_bytes() != first:
                report.failures.append(f"{original}: not the log as it first was")
        left = len(leftovers(logs))
        report.leftovers_seen += left > 0
        report.most_leftovers = max(report.most_leftovers, left)
    time.sleep(STALE_AFTER_SECONDS + 0.5)
    for way in BOTH_WAYS:
        _replace(work / "corpus", way)
    report.leftovers_at_end = len(leftovers(logs))
    report.seconds = time.monotonic() - started
    return report


if __name__ == "__main__":
    if sys.argv[1] == "child":
        child(Path(sys.argv[2]))
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            print(run(Path(folder), int(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_COUNT))
