"""SIGTERM and SIGHUP stop a command writing a many-file output as Ctrl+C does: the staging folder is
removed, one line, status 143 / 129. A staging folder left by SIGKILL is removed by the next run into
the same place, and one whose writer still runs is left alone.

Real signals to the real command in a subprocess, sent while its staging folder exists.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.cli import run_annotator
from tests.support.repository import REPO, SAMPLE_LOGS, command_environment


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Enough logs that an export is still staging when the signal comes, on a fast machine too."""
    root = tmp_path_factory.mktemp("signal-corpus")
    for copy in range(120):
        shutil.copytree(SAMPLE_LOGS, root / f"site-{copy:02d}", ignore=shutil.ignore_patterns("*.wav", "*.md"))
    return root


def _export(corpus: Path, out: Path, kind: str) -> subprocess.Popen:
    """The export running, its messages going to a file beside OUT (_messages): a pipe nobody reads until the
    end fills with its warnings and stops the command before its staging folder is made."""
    messages = (out.parent / f"{out.name}-messages.txt").open("w")
    command = subprocess.Popen(
        [sys.executable, "-m", "annotator", "export", str(corpus), "--to", kind, "-o", str(out), "-j", "1"],
        stdout=subprocess.DEVNULL,
        stderr=messages,
        cwd=REPO,
        env=command_environment(),
    )
    messages.close()
    return command


def _last_message(out: Path) -> str:
    """The last line the export into OUT wrote to stderr, with its newline."""
    lines = (out.parent / f"{out.name}-messages.txt").read_text().splitlines(keepends=True)
    return lines[-1] if lines else ""


def _staging_folders(out: Path) -> list[Path]:
    return [path for home in (out.parent, out) if home.is_dir() for path in home.glob(f".{out.name}.*")]


def _when_staging(command: subprocess.Popen, out: Path, limit: float = 120) -> list[Path]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        # Made before the first log is read. A `.new` folder is one being made, renamed to `.tmp` at once.
        found = [path for path in _staging_folders(out) if path.suffix == ".tmp"]
        if found:
            return found
        assert command.poll() is None, "the command ended before its staging folder was made"
        time.sleep(0.01)
    raise AssertionError("no staging folder appeared")


@pytest.mark.parametrize("number, status", [(signal.SIGTERM, 143), (signal.SIGHUP, 129)], ids=["SIGTERM", "SIGHUP"])
# Formats whose staging folder lives while the logs are read; sclite's and convlab's are made and renamed in
# one instant at the end, so no signal can be aimed into them.
@pytest.mark.parametrize("kind, existing", [("csv", False), ("human", True), ("parquet", False)])
@pytest.mark.slow
def test_a_signal_removes_the_staging_folder(
    corpus: Path, tmp_path: Path, number: int, status: int, kind: str, existing: bool
):
    out = tmp_path / "out"
    if existing:
        out.mkdir()
        (out / "keep.txt").write_text("the user's")
    command = _export(corpus, out, kind)
    _when_staging(command, out)
    command.send_signal(number)
    command.wait(timeout=60)
    assert command.returncode == status, _last_message(out)
    assert _last_message(out) == f"annotator: stopped by {signal.Signals(number).name}\n"
    assert _staging_folders(out) == []
    if existing:
        assert [path.name for path in out.iterdir()] == ["keep.txt"]
    else:
        assert not out.exists()


@pytest.mark.slow
def test_a_staging_folder_left_by_sigkill_goes_with_the_next_run(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    killed = _export(corpus, out, "csv")
    left = _when_staging(killed, out)
    killed.kill()
    killed.wait(timeout=60)
    assert all(path.exists() for path in left), "SIGKILL leaves it behind"
    again = run_annotator("export", SAMPLE_LOGS, "--to", "csv", "-o", out, "-j", "1", cwd=REPO)
    assert again.returncode == 0, again.stderr
    assert _staging_folders(out) == [] and (out / "turns.csv").is_file()


@pytest.mark.slow
def test_the_staging_folder_of_a_running_writer_is_left_alone(corpus: Path, tmp_path: Path):
    """A writer stopped (SIGSTOP) mid-run still holds its folder: a second run into the same place keeps it."""
    out = tmp_path / "out"
    paused = _export(corpus, out, "human")
    try:
        held = _when_staging(paused, out)
        paused.send_signal(signal.SIGSTOP)
        other = run_annotator("export", SAMPLE_LOGS, "--to", "human", "-o", out, "-j", "1", cwd=REPO)
        assert other.returncode == 0, other.stderr
        assert all(path.exists() for path in held), "the paused writer's folder was kept"
    finally:
        paused.send_signal(signal.SIGCONT)
        paused.send_signal(signal.SIGTERM)
        paused.wait(timeout=60)
    assert paused.returncode == 143, _last_message(out)
    assert _staging_folders(out) == []
    assert sorted(path.name for path in out.iterdir()) == sorted(
        path.name for path in out.iterdir() if not path.name.startswith(".")
    )


STOPPED_AS_THE_FOLDER_IS_MADE = """
import os, signal, sys
from pathlib import Path
from annotator.cli.termination import Terminated, stopped_like_ctrl_c
from annotator.outputs import stale_staging
from annotator.outputs.staging import StagedFolder

make = stale_staging.StagingFolder.__init__

def made_then_stopped(self, home, name):
    make(self, home, name)
    os.kill(os.getpid(), signal.SIGTERM)  # handled at the next line of Python: before the folder is noted

stale_staging.StagingFolder.__init__ = made_then_stopped
try:
    with stopped_like_ctrl_c(), StagedFolder(Path(sys.argv[1])) as staged:
        staged.write("a.txt", b"written")
        print("wrote", flush=True)
except Terminated as stop:
    print(stop.message)
"""


def test_a_stop_just_after_the_staging_folder_is_made_still_removes_it(tmp_path: Path):
    """SIGTERM handled between the making of the staging folder and its noting left the folder behind
    (a parquet export stopped at its start, once in a CI run)."""
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-c", STOPPED_AS_THE_FOLDER_IS_MADE, str(out)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=command_environment(),
        timeout=60,
    )
    assert done.stdout.splitlines() == ["stopped by SIGTERM"], done.stderr
    assert _staging_folders(out) == [] and not out.exists()


@pytest.mark.slow
def test_temporary_files_a_killed_single_file_export_left_go_with_the_next_run(tmp_path: Path):
    """A single-file output is written beside its target as `.NAME.xxxxxxxx.tmp`; SIGKILL left those for good.
    The next run into the same place removes them, never one whose writer still holds its lock."""
    import fcntl

    out = tmp_path / "utterances.jsonl"
    left, held = tmp_path / f".{out.name}.k1lled00.tmp", tmp_path / f".{out.name}.l1ve0000.tmp"
    for temporary in (left, held):
        temporary.write_bytes(b'{"partial": ')
        os.utime(temporary, (time.time() - 60, time.time() - 60))
    with open(held, "rb") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)  # a writer that still runs
        done = run_annotator("export", SAMPLE_LOGS, "--to", "lmc", "-o", out, cwd=REPO)

    assert done.returncode == 0, done.stderr
    assert out.is_file() and not left.exists() and held.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([out.name, held.name])
