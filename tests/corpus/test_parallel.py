"""The FileMaps of annotator.corpus.parallel keep one contract: outcomes in input order, a file's
AnnotatorError as its outcome, any other error raised; the process map holds a bounded number of
files in flight and leaves no process behind on Ctrl+C; a real dask.distributed cluster (a
LocalCluster of 2 worker processes started here) gives every command the serial run's output.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from annotator.corpus.parallel import ProcessMap, file_map_for, serial_map
from annotator.errors import AnnotatorError, LogReadError
from tests.support.cli import run_annotator
from tests.support.repository import REPO

WAIT_LIMIT = 2.0  # seconds the first file's work waits for files it must not see started


def slow_first(path: Path) -> str:
    """The first file finishes last, so the others are done before it: order must come from the map."""
    if path.name == "0":
        time.sleep(0.5)
    return f"done {path.name} in {os.getpid()}"


def fail_on_odd(path: Path) -> str:
    if int(path.name) % 2:
        raise LogReadError(path, "odd files cannot be read", 3, 7)
    return path.name


def broken_work(path: Path) -> str:
    raise ValueError("a bug in the work")


def killed_on_three(path: Path) -> str:
    if path.name == "3":
        os.kill(os.getpid(), signal.SIGKILL)  # what the kernel's out-of-memory killer does
    return path.name


def started_files(folder: Path, path: Path) -> int:
    """Marks PATH started; the first file waits (up to WAIT_LIMIT) while more than 8 are started, and
    says how many it saw: a map submitting every file at once lets the others all start meanwhile."""
    (folder / f"started-{path.name}").touch()
    if path.name != "0":
        return 0
    deadline = time.monotonic() + WAIT_LIMIT
    while time.monotonic() < deadline and len(list(folder.glob("started-*"))) <= 8:
        time.sleep(0.05)
    return len(list(folder.glob("started-*")))


def names(count: int) -> list[Path]:
    return [Path(str(number)) for number in range(count)]


def test_outcomes_come_in_input_order_and_progress_counts_every_file():
    ticks = []

    def progress(items, total=None):
        for item in items:
            ticks.append(total)
            yield item

    outcomes = list(ProcessMap(2)(slow_first, names(6), progress))
    assert [path for path, _ in outcomes] == names(6)
    assert [text.split(" in ")[0] for _, text in outcomes] == [f"done {n}" for n in range(6)]
    assert len({text.split(" in ")[1] for _, text in outcomes}) == 2, "two worker processes did the work"
    assert ticks == [6] * 6


def test_a_files_error_is_its_outcome_and_the_others_go_on():
    serial = list(serial_map(fail_on_odd, names(7)))
    parallel = list(ProcessMap(3)(fail_on_odd, names(7)))
    assert [(p, str(o)) for p, o in parallel] == [(p, str(o)) for p, o in serial]
    assert [o for _, o in parallel if not isinstance(o, AnnotatorError)] == ["0", "2", "4", "6"]
    error = parallel[1][1]
    assert isinstance(error, LogReadError) and (error.line, error.column) == (3, 7)
    assert str(error) == "1:3:7: odd files cannot be read"


def test_another_error_is_raised():
    with pytest.raises(ValueError, match="a bug in the work"):
        list(ProcessMap(2)(broken_work, names(4)))


def test_a_worker_that_dies_stops_the_run_with_one_line():
    with pytest.raises(AnnotatorError, match="a worker process ended abruptly") as caught:
        list(ProcessMap(2)(killed_on_three, names(40)))  # the death is met by a result or a submission
    assert "\n" not in str(caught.value)


@pytest.mark.slow
def test_files_in_flight_are_bounded(tmp_path: Path):
    outcomes = ProcessMap(2)(partial(started_files, tmp_path), names(40))
    _, seen = next(outcomes)
    outcomes.close()
    assert seen <= 2 * 2, "the first file saw at most the files in flight started"


def test_jobs_one_is_serial_and_jobs_must_be_positive():
    assert file_map_for(1) is serial_map
    assert isinstance(file_map_for(None), ProcessMap) or os.sched_getaffinity(0) == {0}
    with pytest.raises(AnnotatorError, match="--jobs 0"):
        file_map_for(0)


INTERRUPTED = """
import sys
from functools import partial
from pathlib import Path
from annotator.corpus.parallel import ProcessMap
from tests.support.parallel_work import record_and_wait
folder = Path(sys.argv[1])
for _ in ProcessMap(2)(partial(record_and_wait, folder), [Path(str(n)) for n in range(20)]):
    pass
"""


@pytest.mark.slow
def test_ctrl_c_stops_every_worker(tmp_path: Path):
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED, str(tmp_path)],
        cwd=REPO,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("pid-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [int(path.name.removeprefix("pid-")) for path in tmp_path.glob("pid-*")]
    assert len(workers) == 2
    os.killpg(child.pid, signal.SIGINT)  # what Ctrl+C does: the whole foreground process group
    _, err = child.communicate(timeout=60)
    assert child.returncode != 0 and "KeyboardInterrupt" in err
    for pid in workers:
        assert not _alive(pid), f"worker {pid} was left running"


def _alive(pid: int) -> bool:
    deadline = time.monotonic() + 10  # a terminated worker may take a moment to be reaped
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


CLUSTER_COMMANDS = {
    "info": lambda c, out: ["info", c],
    "validate": lambda c, out: ["validate", c],
    "markers": lambda c, out: [
        "markers",
        "--config",
        REPO / "resources" / "markers" / "communicator-kpis.yml",
        c / "site-0",
        c / "site-2",
        "-o",
        out / "m.csv",
        "--stats-file-prefix",
        out / "stats",
    ],
    "extract": lambda c, out: ["extract", c / "site-0", c / "site-2", "-o", out / "annotations.csv"],
    "export-sclite": lambda c, out: ["export", c / "site-0", c / "site-2", "--to", "sclite", "-o", out],
    "export-csv": lambda c, out: ["export", c / "site-0", c / "site-2", "--to", "csv", "-o", out],
    "export-parquet": lambda c, out: ["export", c / "site-0", c / "site-2", "--to", "parquet", "-o", out],
    "export-lmc-bad": lambda c, out: ["export", c, "--to", "lmc", "-o", out / "corpus.jsonl"],
}


@pytest.mark.parametrize("command", CLUSTER_COMMANDS)
@pytest.mark.slow
def test_a_dask_cluster_gives_the_serial_output(cluster: str, small_corpus: Path, tmp_path: Path, command: str):
    out = tmp_path / "out"
    results = []
    for where in (["--jobs", "1"], ["--scheduler", cluster]):
        out.mkdir()
        # A cache of its own for each run: info and validate would otherwise answer the second from the first's index.
        cache = {"ANNOTATOR_CACHE_DIR": str(tmp_path / f"cache-{where[0]}")}
        done = run_annotator(*CLUSTER_COMMANDS[command](small_corpus, out), *where, cwd=REPO, env=cache)

        written = {p.name: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
        results.append((done.returncode, done.stdout, done.stderr, written))
        shutil.rmtree(out)
    assert results[1] == results[0]
    status, stdout, stderr, written = results[0]
    if command in ("info", "validate", "export-lmc-bad"):  # the corpus with its unreadable log
        assert status == 2 and "a-truncated-hublog.xml:3:1:" in stdout + stderr
    else:
        assert status == 0 and written
