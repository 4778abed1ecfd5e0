"""Writers of one log racing each other, as real processes: the annotator command started in the background, and
another writer that holds the save lock between its check and its rename (what a racing save does, made slow on
purpose so that a test can act inside the gap)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HOLD_AND_CHANGE = """
import sys, time
from pathlib import Path
from annotator.log.annotations import set_task_completion
from annotator.log.document import LogDocument
from annotator.writes.save_lock import holding_save_lock

log, seconds, session = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
doc = LogDocument.load(log)
set_task_completion(doc.sessions[session], "0")
with holding_save_lock(log):
    if doc.changed_on_disk():
        sys.exit(3)
    print("held", flush=True)
    time.sleep(seconds)  # checked, not yet renamed: the gap two saves at once fall into
    doc.save(overwrite=True)
"""


def hold_and_change(log: Path, seconds: float, session: int) -> subprocess.Popen:
    """A process that takes LOG's save lock, checks the log is unchanged, says "held", waits SECONDS, then
    saves task completion 0 for the session at index SESSION and lets go."""
    process = subprocess.Popen(
        [sys.executable, "-c", HOLD_AND_CHANGE, str(log), str(seconds), str(session)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout.readline() == "held\n", process.stderr.read()
    return process


def start(*args) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "annotator", *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def finish(process: subprocess.Popen) -> tuple[int, str]:
    _out, err = process.communicate(timeout=300)
    return process.returncode, err
