"""Kill -9 a process that saves a log in a loop, again and again; the log on disk must survive every kill.

    python -m tests.support.kill_loop run [COUNT]      # prints the figures
    python -m pytest tests/stress -q                  # KILL_LOOP_COUNT (default 200) kills

The child loads a copy of a sample log and, forever, toggles one turn's
transcription between two texts and saves in place (atomic write + fsync).
The parent waits until it is saving, kills it with SIGKILL after a random,
seeded delay, and checks that the file is exactly the old or the new version,
that it parses, and that it validates without errors. Temporary files a kill
leaves behind are removed by a later save once no live writer holds them
(annotator.reading.disk_changes); the loop counts them and checks that they do
not accumulate.

With hardlinked=True the log has a second name (a hard link), so every save
writes it in place (annotator.writes.inplace): a kill can then leave the file torn,
and the next load must finish or roll back that save. After each kill the log is
loaded first, and then it must be exactly the old or the new version, keep its
inode, and read the same under both names.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "sample_logs" / "travel-20261121-001"
TEXTS = ("i want to fly to boston", "i want to fly to austin texas on friday")
DEFAULT_COUNT = 200
MAX_DELAY_SECONDS = 0.06  # after the child's first save: many saves fit in it
HARD_LINK_PADDING = 1 << 18  # 2 MB of comment in the hard-linked log


@dataclass
class KillLoopReport:
    kills: int = 0
    version_a: int = 0  # kills after which the file was exactly version A...
    version_b: int = 0  # ...or exactly version B (never anything else)
    interrupted_writes: int = 0  # kills that left a temporary file (killed inside write_atomic)
    most_leftovers: int = 0  # the most temporary files present at once
    leftovers_at_end: int = 0
    saves_seen: int = 0  # saves the children reported before being killed
    recoveries: int = 0  # loads that finished or rolled back an interrupted in-place save (hard links)
    rollbacks: int = 0  # ...of which found the file torn and copied the backup back
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.kills} SIGKILLs in {self.seconds:.1f} s, {self.saves_seen}+ saves: the log was version A "
            f"{self.version_a} times and version B {self.version_b} times, never anything else; "
            f"{self.interrupted_writes} kills interrupted a write and left a temporary file "
            f"(at most {self.most_leftovers} at once, {self.leftovers_at_end} after a final save); "
            f"{self.recoveries} loads put an interrupted in-place save right ({self.rollbacks} of them "
            "rolled a torn file back); "
            f"{len(self.failures)} failures"
        )


def child(log: Path) -> None:
    """Toggle the first user turn's transcription and save, forever; one line on stdout per save."""
    from annotator.log.annotations import set_transcription
    from annotator.log.document import LogDocument

    doc = LogDocument.load(log)
    turn = doc.sessions[0].user_turns[0]
    while True:
        set_transcription(turn, TEXTS[1] if turn.transcription == TEXTS[0] else TEXTS[0])
        doc.save()
        sys.stdout.write("saved\n")
        sys.stdout.flush()


def prepare(folder: Path, hardlinked: bool = False) -> tuple[Path, bytes, bytes]:
    """A copy of the sample session in FOLDER holding version A (with a second name if HARDLINKED);
    the bytes of versions A and B."""
    from annotator.log.annotations import set_transcription
    from annotator.log.document import LogDocument

    shutil.copytree(SAMPLE, folder, dirs_exist_ok=True)
    log = folder / f"{SAMPLE.name}-hublog.xml"
    if hardlinked:  # a bigger file makes the in-place copy, where a kill tears it, a bigger target
        log.write_bytes(
            log.read_bytes().replace(b"</GC_LOG>", b"<!--" + b" padding" * HARD_LINK_PADDING + b" -->\n</GC_LOG>")
        )
    doc = LogDocument.load(log)
    turn = doc.sessions[0].user_turns[0]
    versions = []
    for text in (*TEXTS, TEXTS[0]):
        set_transcription(turn, text)
        versions.append(doc.serialize())
    assert versions[0] == versions[2], "toggling must give back the same bytes"
    doc.save()
    assert log.read_bytes() == versions[0]
    if hardlinked:
        os.link(log, other_name(log))
    return log, versions[0], versions[1]


def other_name(log: Path) -> Path:
    return log.with_name("hard-link-to-the-log.xml")


def run(folder: Path, count: int, seed: int = 20261121, hardlinked: bool = False) -> KillLoopReport:
    from annotator.analysis.validation import Severity, validate_document
    from annotator.log.document import LogDocument
    from annotator.reading.disk_changes import STALE_AFTER_SECONDS, stale_temp_files

    log, version_a, version_b = prepare(folder, hardlinked)
    inode = os.stat(log).st_ino
    rng = random.Random(seed)
    report = KillLoopReport()
    started = time.monotonic()
    env = os.environ | {"PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    for number in range(count):
        leftovers_before = set(stale_temp_files(log))
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.kill_loop", "child", str(log)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=REPO,
        )
        try:
            first = process.stdout.readline()  # the first save is done: the loop is running
            if first != b"saved\n":
                report.failures.append(f"kill {number}: the child did not save: {process.stderr.read()[-500:]!r}")
                continue
            time.sleep(rng.uniform(0, MAX_DELAY_SECONDS))
        finally:
            process.send_signal(signal.SIGKILL)
            out, _ = process.communicate()
        report.kills += 1
        report.saves_seen += 1 + out.count(b"saved\n")
        if hardlinked:
            failure = _recover_hard_linked(log, inode, report)
            if failure:
                report.failures.append(f"kill {number}: {failure}")
                continue
        data = log.read_bytes()
        if data == version_a:
            report.version_a += 1
        elif data == version_b:
            report.version_b += 1
        else:
            report.failures.append(f"kill {number}: the log is neither version ({len(data)} bytes)")
            continue
        try:
            findings = validate_document(LogDocument.load(log))
        except Exception as error:  # noqa: BLE001 - any failure to load is what this test looks for
            report.failures.append(f"kill {number}: {type(error).__name__}: {error}")
            continue
        errors = [str(finding) for finding in findings if finding.severity is Severity.ERROR]
        if errors:
            report.failures.append(f"kill {number}: {errors[0]}")
        leftovers = set(stale_temp_files(log))
        report.interrupted_writes += len(leftovers - leftovers_before)
        report.most_leftovers = max(report.most_leftovers, len(leftovers))
    # One last ordinary save, once every leftover is old enough to be known dead, clears them all.
    time.sleep(STALE_AFTER_SECONDS + 0.1)
    LogDocument.load(log).save()
    report.leftovers_at_end = len(stale_temp_files(log))
    report.seconds = time.monotonic() - started
    return report


def _recover_hard_linked(log: Path, inode: int, report: KillLoopReport) -> str | None:
    """Load the log (which puts an interrupted in-place save right); what is wrong, or None."""
    from annotator.log.document import LogDocument

    try:
        doc = LogDocument.load(log)
    except Exception as error:  # noqa: BLE001 - any failure to load is what this test looks for
        return f"{type(error).__name__}: {error}"
    report.recoveries += any("interrupted" in note for note in doc.notes)
    report.rollbacks += any("rolled back" in note for note in doc.notes)
    if os.stat(log).st_ino != inode:
        return "the log is a new file: its other name was detached"
    if other_name(log).read_bytes() != log.read_bytes():
        return "the two names of the log differ"
    if [p.name for p in log.parent.iterdir() if p.name.startswith(".inplace-")]:
        return "a backup or new-content file was left after the load"
    return None


def count_from_environment() -> int:
    return int(os.environ.get("KILL_LOOP_COUNT", DEFAULT_COUNT))


if __name__ == "__main__":
    if sys.argv[1] == "child":
        child(Path(sys.argv[2]))
    else:
        import tempfile

        with tempfile.TemporaryDirectory() as name:
            print(run(Path(name), int(sys.argv[2]) if len(sys.argv) > 2 else count_from_environment()))
