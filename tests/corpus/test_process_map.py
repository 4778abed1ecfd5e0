"""ProcessMap hands out chunks of consecutive small files (a big one alone) with the same outcomes as
a serial run; it can work on the first file in this process (the session browser's first rows),
stops when its cancel check says so without starting the files left, and its workers end with the
process that started them however it ends, SIGKILL included."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from pathlib import Path

import pytest

from annotator.analysis.result_files import FOLDER_PREFIX
from annotator.corpus.chunks import CHUNK_BYTES, chunks_of
from annotator.corpus.parallel import ProcessMap, serial_map
from annotator.corpus.scan import summarise_log
from tests.support.repository import REPO, SAMPLE_LOGS


def sized_files(folder: Path, sizes: list[int]) -> list[Path]:
    folder.mkdir(exist_ok=True)
    paths = []
    for number, size in enumerate(sizes):
        path = folder / f"{number:03d}.xml"
        path.write_bytes(b"x" * size)
        paths.append(path)
    return paths


def test_small_files_go_together_and_a_big_one_alone(tmp_path: Path):
    small = CHUNK_BYTES // 10
    paths = sized_files(tmp_path, [small] * 25 + [CHUNK_BYTES * 3] + [small] * 5)
    paths.insert(3, tmp_path / "missing.xml")
    chunks = chunks_of(paths, workers=1)
    assert [index for chunk in chunks for index in chunk] == list(range(len(paths))), "every file once, in order"
    assert range(3, 4) in chunks, "a file whose size cannot be read is alone (its work says why)"
    assert range(26, 27) in chunks, "a file over CHUNK_BYTES is alone"
    assert max(len(chunk) for chunk in chunks) == len(paths) // 8, "at most 1/8 of the files per worker in a chunk"
    assert len(chunks_of(paths[4:14], workers=1)) == 10, "a few files: one each, so that both cores get work"
    assert max(len(chunk) for chunk in chunks_of(sized_files(tmp_path / "many", [small] * 200), 1)) == 10, (
        "up to CHUNK_BYTES"
    )


def pid_and_rows(path: Path) -> tuple[int, list]:
    return os.getpid(), summarise_log(path)


@pytest.mark.slow
def test_chunks_give_the_serial_outcomes_and_the_first_file_can_be_read_here(tmp_path: Path):
    for copy in range(12):
        shutil.copytree(SAMPLE_LOGS, tmp_path / f"site-{copy:02d}")
    (tmp_path / "site-05" / "truncated-hublog.xml").write_text('<?xml version="1.0"?>\n<GC_LOG>\n')
    paths = sorted(tmp_path.rglob("*.xml"))
    assert max(len(chunk) for chunk in chunks_of(paths, 2)) > 1, "the corpus is cut into chunks of several files"
    serial = [(path, str(outcome)) for path, outcome in serial_map(summarise_log, paths)]
    assert [(path, str(rows)) for path, (_, rows) in ProcessMap(2)(pid_and_rows, paths)] == serial

    outcomes = list(ProcessMap(2, first_here=True)(pid_and_rows, paths))
    assert [(path, str(rows)) for path, (_, rows) in outcomes] == serial
    pids = [pid for _, (pid, _) in outcomes]
    assert pids[0] == os.getpid() and os.getpid() not in pids[1:]


def started_then_wait(folder: Path, path: Path) -> str:
    (folder / f"started-{path.name}").touch()
    time.sleep(0.2)
    return path.name


@pytest.mark.slow
def test_the_cancel_check_stops_the_map_and_drops_the_files_not_started(tmp_path: Path):
    cancelled = []
    outcomes = ProcessMap(2, cancelled=lambda: bool(cancelled))(
        partial(started_then_wait, tmp_path), [Path(str(n)) for n in range(60)]
    )
    received = [next(outcomes)]
    cancelled.append(True)
    received += list(outcomes)
    started = len(list(tmp_path.glob("started-*")))
    assert len(received) < 60 and started < 20, f"{len(received)} outcomes, {started} files started"
    time.sleep(0.5)
    assert len(list(tmp_path.glob("started-*"))) == started, "no file started after the map stopped"


def first_quick_then_long(folder: Path, path: Path) -> str:
    if path.name != "0":
        (folder / f"started-{path.name}").touch()
        time.sleep(30)
        (folder / f"finished-{path.name}").touch()
    return path.name


def test_cancelling_ends_the_files_running_too(tmp_path: Path):
    cancelled = []
    outcomes = ProcessMap(2, cancelled=lambda: bool(cancelled))(
        partial(first_quick_then_long, tmp_path), [Path(str(n)) for n in range(6)]
    )
    assert next(outcomes)[1] == "0"
    while not list(tmp_path.glob("started-*")):
        time.sleep(0.05)
    cancelled.append(True)
    assert list(outcomes) == []
    assert not list(tmp_path.glob("finished-*")), "the map waited for the running files instead of ending them"


def big_answer(path: Path) -> bytes:
    return b"x" * 30_000_000


def _cancel_after_the_first(received: list) -> None:
    cancelled: list[bool] = []
    outcomes = ProcessMap(2, cancelled=lambda: bool(cancelled))(big_answer, [Path(str(n)) for n in range(40)])
    received.append(next(outcomes))
    cancelled.append(True)
    received.extend(outcomes)


@pytest.mark.slow
def test_cancelling_while_workers_send_big_answers_ends_the_map_and_leaves_no_files(tmp_path: Path, monkeypatch):
    """A worker terminated half-way through writing a big answer to the pool's pipe used to leave the
    pool's manager thread waiting for the rest for ever: the map, and the interpreter's exit, hung.
    Answers of 30 MB keep a worker writing most of the time, so the cancel lands mid-send (it did at
    the first try before answers went through files)."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # this run's folders only, not other programs'
    for attempt in range(5):
        received: list = []
        runner = threading.Thread(target=_cancel_after_the_first, args=(received,), daemon=True)
        runner.start()
        runner.join(60)
        assert not runner.is_alive(), f"attempt {attempt}: the cancelled map never ended"
        assert received[0][1] == big_answer(Path("0")), "the answer came back whole"
    assert not list(tmp_path.glob(f"{FOLDER_PREFIX}*")), "a run's answer files were left"


KILLED = """
import sys
from functools import partial
from pathlib import Path
from annotator.corpus.parallel import ProcessMap
from tests.support.parallel_work import record_and_wait
folder = Path(sys.argv[1])
for _ in ProcessMap(2)(partial(record_and_wait, folder), [Path(str(n)) for n in range(20)]):
    pass
"""


def test_the_workers_end_when_their_parent_is_killed(tmp_path: Path):
    child = subprocess.Popen([sys.executable, "-c", KILLED, str(tmp_path)], cwd=REPO, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(list(tmp_path.glob("pid-*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = [int(path.name.removeprefix("pid-")) for path in tmp_path.glob("pid-*")]
    assert len(workers) == 2
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=60)
    try:
        for pid in workers:
            assert _ends(pid), f"worker {pid} outlived its killed parent"
    finally:
        for pid in workers:
            _kill(pid)


def _ends(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in ("Z", "X"):  # ended, waiting for whoever inherited it to reap it
            return True
        time.sleep(0.05)
    return False


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def niceness(path: Path) -> int:
    return os.nice(0)


@pytest.mark.slow
def test_workers_can_run_at_a_lower_priority(tmp_path: Path):
    """The session browser's scan: the window gets the cores whenever it needs them."""
    here = os.nice(0)
    paths = sized_files(tmp_path, [10] * 6)
    assert {outcome for _, outcome in ProcessMap(2)(niceness, paths)} == {here}
    assert {outcome for _, outcome in ProcessMap(2, niceness=5)(niceness, paths)} == {min(19, here + 5)}
