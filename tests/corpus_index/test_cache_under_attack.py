"""The index's cache under attack: a cache that fills up during a build (a file size limit, RLIMIT_FSIZE, at
several sizes: EFBIG is what a full disk does to SQLite's writes), a cache on a read-only file system, and the
index file removed or replaced by another program while an index is built. Every command answers as it does with
a healthy cache (the same output, the same exit status), says in one line that the index is kept in memory and
names the file, never exits 70; `annotator index` closes on where the index really is.

A fuzzer draws the limit, the command and the cache it starts from (none, one lacking a log, one up to date).
The real command in a subprocess; the limit is set in the child before it starts."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.cli import file_size_limit, run_annotator
from tests.support.fuzzing import fuzz_settings
from tests.support.repository import REPO, SAMPLE_LOGS, command_environment
from tests.support.tmpfs import mount_tmpfs, unmount

COMMANDS = {
    "index": ["index"],
    "search": ["search", "flight"],
    "validate": ["validate", "--no-audio"],
    "info": ["info"],
}
LIMITS = (0, 4_096, 40_000, 90_000)  # bytes a file may grow to: none, the header, part of the build
IN_MEMORY = "it is kept in memory for this run"
MANY = 120  # logs in the corpus whose index is removed or replaced during its build


def _command(cache: Path, *args: str | Path, limit: int | None = None) -> subprocess.CompletedProcess:
    return run_annotator(
        *args,
        "--jobs",
        "1",
        cwd=REPO,
        timeout=None,
        env={"ANNOTATOR_CACHE_DIR": str(cache)},
        preexec_fn=None if limit is None else file_size_limit(limit),
    )


@pytest.fixture
def broken_corpus(corpus: Path) -> Path:
    """The sample logs and a truncated one: the answers hold hits, findings and a file's error line."""
    (corpus / "truncated-hublog.xml").write_bytes(b'<?xml version="1.0"?>\n<GC_LOG>\n')
    return corpus


def _index_file(cache: Path, corpus: Path) -> Path:
    return Path(_command(cache, "index", corpus, "--where").stdout.strip())


def _assert_answered(done: subprocess.CompletedProcess, healthy: subprocess.CompletedProcess, file: Path) -> bool:
    """DONE answered as HEALTHY did, and said in at most one line that the index is in memory: whether it did."""
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert (done.returncode, done.stdout) == (healthy.returncode, healthy.stdout), done.stderr
    notes = [line for line in done.stderr.splitlines() if line.startswith("annotator: note:")]
    assert len(notes) <= 1, done.stderr
    if notes:
        assert notes[0].startswith(f"annotator: note: cannot keep the index in {file} (") and notes[0].endswith(
            IN_MEMORY
        )
        assert "log(s) indexed in /" not in done.stderr
    return bool(notes)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.slow
def test_a_cache_that_fills_up_answers_from_memory(broken_corpus: Path, tmp_path: Path, command: str):
    healthy = _command(tmp_path / "healthy", *COMMANDS[command], broken_corpus)
    assert healthy.returncode == 2 and "truncated-hublog.xml" in healthy.stdout + healthy.stderr
    for limit in LIMITS:
        for warm in (False, True):  # an empty cache, and one holding an index of the logs as they were
            cache = tmp_path / f"cache-{limit}-{warm}"
            if warm:
                shutil.copytree(tmp_path / "healthy", cache)
                with (broken_corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml").open("a") as log:
                    log.write("<!-- changed: read and written again -->\n")
            done = _command(cache, *COMMANDS[command], broken_corpus, limit=limit)
            file = _index_file(cache, broken_corpus)
            # A cache with room for what is written keeps it (the limit counts a file's size): info and validate
            # keep only their outputs, and a warm cache only what changed. The schema alone needs 4 kB or more.
            in_memory = _assert_answered(done, healthy, file)
            assert in_memory or not (limit <= 4_096 or command in ("index", "search") and not warm), done.stderr
            if command == "index" and in_memory:
                assert f"4 log(s) indexed in memory only: nothing was kept in {file}" in done.stderr


@pytest.fixture(scope="module")
def fuzzed_corpus(tmp_path_factory) -> tuple[Path, dict[str, Path], dict[str, subprocess.CompletedProcess]]:
    """The sample logs and a truncated one; caches to start from (none, one lacking a log, one up to date);
    each command's answer with a healthy cache."""
    root = tmp_path_factory.mktemp("fuzzed")
    corpus = root / "corpus"
    shutil.copytree(SAMPLE_LOGS, corpus)
    (corpus / "truncated-hublog.xml").write_bytes(b'<?xml version="1.0"?>\n<GC_LOG>\n')
    lacking = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    aside = root / "aside.xml"
    lacking.rename(aside)
    _command(root / "partial", "index", corpus)
    aside.rename(lacking)
    healthy = {name: _command(root / "healthy", *args, corpus) for name, args in COMMANDS.items()}
    return corpus, {"partial": root / "partial", "healthy": root / "healthy"}, healthy


@fuzz_settings(12)
@given(
    limit=st.integers(0, 200_000),
    command=st.sampled_from(sorted(COMMANDS)),
    start=st.sampled_from(["none", "partial", "healthy"]),
)
@pytest.mark.slow
def test_any_file_size_limit_on_any_cache(fuzzed_corpus, tmp_path_factory, limit: int, command: str, start: str):
    corpus, caches, healthy = fuzzed_corpus
    cache = tmp_path_factory.mktemp("cache") / "cache"
    if start != "none":
        shutil.copytree(caches[start], cache)
    done = _command(cache, *COMMANDS[command], corpus, limit=limit)
    _assert_answered(done, healthy[command], _index_file(cache, corpus))


@pytest.fixture
def read_only_cache(tmp_path: Path):
    """A cache folder on a file system remounted read-only (root), else made read-only by its mode; WRITABLE(flag)
    switches it. Root ignores modes: without mount rights as root, skipped."""
    cache = tmp_path / "cache"
    if mount_tmpfs(cache):

        def writable(flag: bool) -> None:
            mode = "rw" if flag else "ro"
            subprocess.run(["mount", "-o", f"remount,{mode}", str(cache)], check=True, capture_output=True)

        try:
            yield cache, writable
        finally:
            unmount(cache)
        return
    if os.geteuid() == 0:
        pytest.skip("root without mount rights: no read-only folder to be had")
    cache.mkdir(exist_ok=True)
    yield cache, lambda flag: os.chmod(cache, 0o755 if flag else 0o555)
    os.chmod(cache, 0o755)


@pytest.mark.slow
def test_a_read_only_cache_answers_from_memory(broken_corpus: Path, tmp_path: Path, read_only_cache):
    cache, writable = read_only_cache
    healthy = {name: _command(tmp_path / "healthy", *args, broken_corpus) for name, args in COMMANDS.items()}
    file = _index_file(cache, broken_corpus)
    for made_before in (False, True):
        writable(True)
        if made_before:  # an index of the corpus as it was, then a log changed
            assert _command(cache, "index", broken_corpus).returncode == 2
            (broken_corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml").touch()
        writable(False)
        for name, args in COMMANDS.items():
            done = _command(cache, *args, broken_corpus)
            assert _assert_answered(done, healthy[name], file), done.stderr
        closing = _command(cache, "index", broken_corpus).stderr.splitlines()
        assert f"4 log(s) indexed in memory only: nothing was kept in {file} (see the note above)" in closing


def _build_then(cache: Path, corpus: Path, act) -> subprocess.CompletedProcess:
    """`annotator index CORPUS` started; ACT(index file) done as soon as its file exists, while it reads the logs."""
    file = _index_file(cache, corpus)
    build = subprocess.Popen(
        [sys.executable, "-m", "annotator", "index", str(corpus), "--jobs", "1"],
        cwd=REPO,
        env={**command_environment(), "ANNOTATOR_CACHE_DIR": str(cache)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not Path(f"{file}-wal").exists() and build.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert build.poll() is None, "the build ended before the file could be touched: give it more logs"
    act(file)
    stdout, stderr = build.communicate(timeout=300)
    return subprocess.CompletedProcess(build.args, build.returncode, stdout, stderr)


def _cleared(file: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{file}{suffix}").unlink(missing_ok=True)


def _replaced_by_garbage(file: Path) -> None:
    other = file.with_name("other")
    other.write_bytes(b"not an index\n" * 500)
    os.replace(other, file)


@pytest.fixture
def many_logs(tmp_path: Path) -> Path:
    """MANY copies of the sample logs: a build of a second or more, long enough to be interfered with."""
    folder = tmp_path / "many"
    folder.mkdir()
    logs = sorted(SAMPLE_LOGS.glob("*/*-hublog.xml"))
    for number in range(MANY):
        shutil.copyfile(logs[number % len(logs)], folder / f"log-{number:03}.xml")
    return folder


@pytest.mark.parametrize("act", [_cleared, _replaced_by_garbage], ids=["cleared", "replaced"])
@pytest.mark.slow
def test_an_index_file_removed_or_replaced_during_a_build_is_said(many_logs: Path, tmp_path: Path, act):
    cache = tmp_path / "cache"
    file = _index_file(cache, many_logs)
    done = _build_then(cache, many_logs, act)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    *notes, closing = done.stderr.splitlines()
    # What the build meets depends on when the file went: writes into the file it still holds (then the closing
    # line says the file went), a failed write (in memory, with a note), a damaged file (made again, with a note,
    # and kept), or, the main file replaced beside its write-ahead log, a file SQLite reads through that log.
    # Whichever it met, the closing line is true: said kept, the index is there for SQLite to read.
    if closing.startswith(f"{MANY} log(s) indexed in {file} ("):
        assert all(line.endswith("it is made again") for line in notes) and len(notes) <= 1, done.stderr
        with sqlite3.connect(file) as connection:
            assert connection.execute("SELECT count(*) FROM files WHERE digest IS NOT NULL").fetchone() == (MANY,)
        connection.close()
    elif "in memory only" in closing:
        assert closing == f"{MANY} log(s) indexed in memory only: nothing was kept in {file} (see the note above)"
        assert len(notes) == 1 and notes[0].endswith(IN_MEMORY), done.stderr
    else:
        assert notes == [] and closing == (
            f"{MANY} log(s) indexed, but {file} was removed or replaced meanwhile: nothing was kept "
            "(it is made again when needed)"
        )
    searched = _command(cache, "search", "boston", many_logs)
    healthy = _command(tmp_path / "healthy", "search", "boston", many_logs)
    assert (searched.returncode, searched.stdout) == (healthy.returncode, healthy.stdout) != (0, "")
    assert searched.stderr.count("\n") <= 1 and "Traceback" not in searched.stderr, searched.stderr
