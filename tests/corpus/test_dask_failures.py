"""What goes wrong on a Dask cluster reaches the user as one line, exit status 2, never a traceback and
never a hang: a bug raised on a worker (named with its file), a scheduler that dies mid-run, an address
of an unsupported kind, a port nobody listens on (said within 5 s).

Real `dask scheduler` and `dask worker` processes on 127.0.0.1, the real command in a subprocess.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.hostile_shapes import LOADER_DEPTH_LIMIT, deep_frame_log
from tests.support.repository import REPO, SAMPLE_LOGS, command_environment

pytest.importorskip("dask.distributed")

FAULTY_WORKER = REPO / "tests" / "support" / "faulty_worker.py"


class Scheduler:
    """A `dask scheduler` on 127.0.0.1 (a free port) with one `dask worker` of one thread, PRELOAD given to it."""

    def __init__(self, folder: Path, preload: Path | None = None):
        self.log = folder / "scheduler.log"
        self.process = self._start(
            ["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard"], self.log
        )
        found = _wait_for(self.log, re.compile(r"Scheduler at:\s+(tcp://127\.0\.0\.1:\d+)"))
        self.address = found.group(1)
        extra = ["--preload", str(preload)] if preload else []
        self.worker = self._start(
            [
                "distributed.cli.dask_worker",
                self.address,
                "--nthreads",
                "1",
                "--nworkers",
                "1",
                "--no-dashboard",
                *extra,
            ],
            folder / "worker.log",
        )
        _wait_for(self.log, re.compile("Register worker"))

    @staticmethod
    def _start(arguments: list[str], log: Path) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, "-m", *arguments],
            stdout=log.open("wb"),
            stderr=subprocess.STDOUT,
            cwd=REPO,
            env=command_environment(),
            start_new_session=True,
        )

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        for process in (self.worker, self.process):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in (self.worker, self.process):
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


def _wait_for(log: Path, pattern: re.Pattern[str], limit: float = 120) -> re.Match[str]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        found = pattern.search(log.read_text(errors="replace"))
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"{pattern.pattern!r} never appeared in {log}:\n{log.read_text(errors='replace')[-2000:]}")


@pytest.fixture(scope="module")
def faulty_cluster(tmp_path_factory):
    scheduler = Scheduler(tmp_path_factory.mktemp("faulty-cluster"), preload=FAULTY_WORKER)
    try:
        yield scheduler.address
    finally:
        scheduler.stop()


_annotator = partial(run_annotator, cwd=REPO, timeout=180)


def _assert_one_line(done: subprocess.CompletedProcess, *fragments: str) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    return lines[0]


@pytest.mark.slow
def test_a_bug_raised_on_a_worker_is_one_line_naming_its_file(faulty_cluster: str, tmp_path: Path):
    """The worker's RecursionError, a thousand frames of traceback, used to hang the command."""
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLE_LOGS / "travel-20261121-001", corpus)
    good = next(corpus.glob("*-hublog.xml"))
    faulty = corpus / "travel-faulty-hublog.xml"
    shutil.copy(good, faulty)
    done = _annotator("info", corpus, "--scheduler", faulty_cluster)
    _assert_one_line(done, f"annotator: {faulty}: ", "failed on a Dask worker", "RecursionError")
    assert "session " in done.stdout, "the other log is summarised"


@pytest.mark.slow
def test_a_frame_at_the_loaders_limit_exports_on_a_cluster(faulty_cluster: str, tmp_path: Path):
    deep = tmp_path / "deep" / "deep-hublog.xml"
    deep.parent.mkdir()
    deep.write_text(deep_frame_log(LOADER_DEPTH_LIMIT), encoding="utf-8")
    for kind, out in (("convlab", tmp_path / "convlab"), ("lmc", tmp_path / "deep.jsonl")):
        done = _annotator("export", deep.parent, "--to", kind, "-o", out, "--scheduler", faulty_cluster)
        assert done.returncode == 0 and done.stderr.startswith("exported 1 session"), done.stderr


@pytest.mark.slow
def test_a_scheduler_dying_mid_run_is_one_line(tmp_path: Path):
    corpus = tmp_path / "corpus"
    for copy in range(30):
        shutil.copytree(SAMPLE_LOGS, corpus / f"site-{copy}", ignore=shutil.ignore_patterns("*.wav", "*.md"))
    scheduler = Scheduler(tmp_path)
    try:
        command = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "annotator",
                "export",
                corpus,
                "--to",
                "sclite",
                "-o",
                tmp_path / "out",
                "--scheduler",
                scheduler.address,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env=command_environment(),
        )
        _wait_for(scheduler.log, re.compile("Receive client connection"))
        scheduler.kill()
        stdout, stderr = command.communicate(timeout=120)
    finally:
        scheduler.stop()
    line = _assert_one_line(
        subprocess.CompletedProcess(command.args, command.returncode, stdout, stderr),
        f"--scheduler {scheduler.address}: ",
    )
    assert "lost the connection to the Dask scheduler" in line or "cannot reach" in line
    assert not (tmp_path / "out").exists()
    assert not list(tmp_path.glob(".out.*")), "no staging folder left"


@pytest.mark.parametrize(
    "address, fragment",
    [
        ("tls://127.0.0.1:8786", "tls:// addresses are not supported"),
        ("ucx://127.0.0.1:8786", "ucx:// addresses are not supported"),
        ("127.0.0.1", "not a scheduler address; expected tcp://HOST:PORT"),
        ("tcp://127.0.0.1:99999", "not a scheduler address"),
    ],
)
def test_an_unsupported_address_is_one_line(address: str, fragment: str):
    _assert_one_line(_annotator("info", SAMPLE_LOGS, "--scheduler", address), f"--scheduler {address}: ", fragment)


def test_a_closed_port_is_said_within_five_seconds():
    with socket.socket() as holder:  # a port surely closed: bound, never listening
        holder.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{holder.getsockname()[1]}"
        started = time.monotonic()
        done = _annotator("info", SAMPLE_LOGS, "--scheduler", address)
        elapsed = time.monotonic() - started
    _assert_one_line(done, "cannot reach the Dask scheduler", "connection refused")
    assert elapsed < 5, f"{elapsed:.1f} s"
