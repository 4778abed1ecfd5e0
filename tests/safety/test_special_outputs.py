"""An output path that is a device node, a FIFO, a socket or a folder (where a file is written) is refused in
one line, exit 2, with or without --force, and is never unlinked, replaced or opened.

The shapes are generated: every kind of special file (FIFO, socket, character devices made like /dev/null
and /dev/full, a block device, a symlink to a device, a folder) against every command that writes a single
file, and at the output folder of every command that writes a folder or inside it. Device nodes are made
with os.mknod in the test's own folder (this needs root; the real /dev is never touched)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.support import planted_team
from tests.support.cli import run_annotator
from tests.support.output_commands import FILE_COMMANDS, FOLDER_COMMANDS, Work, make_work, run_in_process

AS_ROOT = pytest.mark.skipif(os.geteuid() != 0, reason="device nodes are made with mknod, which needs root")
WORDS = {
    "fifo": "is a named pipe (FIFO), not a regular file",
    "socket": "is a socket, not a regular file",
    "null-device": "is a device, not a regular file",
    "full-device": "is a device, not a regular file",
    "block-device": "is a device, not a regular file",
    "link-to-device": "is a device, not a regular file",
    "folder": "is a folder, not a file",
}


def make_special(kind: str, path: Path, sockets: list[socket.socket]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sockets.append(listener)
        here = os.getcwd()
        os.chdir(path.parent)  # a socket's path is limited to 108 bytes: bind it by its name alone
        try:
            listener.bind(path.name)
        finally:
            os.chdir(here)
    elif kind == "null-device":
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    elif kind == "full-device":
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    elif kind == "block-device":
        os.mknod(path, stat.S_IFBLK | 0o660, os.makedev(7, 0))
    elif kind == "link-to-device":
        device = path.with_name(".device-" + path.name)
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        path.symlink_to(device)
    else:
        path.mkdir()


def listing(root: Path) -> dict[str, tuple]:
    """Every entry below ROOT by lstat alone (a FIFO is never opened): kind, inode, device number, size."""
    found = {}
    for folder, folders, files in os.walk(root):
        for name in folders + files:
            path = Path(folder) / name
            info = os.lstat(path)
            found[str(path.relative_to(root))] = (
                stat.S_IFMT(info.st_mode),
                info.st_ino,
                info.st_rdev,
                info.st_size if stat.S_ISREG(info.st_mode) else 0,
            )
    return found


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Work:
    return make_work(tmp_path_factory.mktemp("template") / "work")


@pytest.fixture
def work(template: Work, tmp_path: Path) -> Work:
    """A fresh copy of the work folder: made once, copied for each test."""
    shutil.copytree(template.root, tmp_path / "work", symlinks=True)
    return Work(tmp_path / "work")


@pytest.fixture
def sockets() -> Iterator[list[socket.socket]]:
    held: list[socket.socket] = []
    yield held
    for listener in held:
        listener.close()


@pytest.fixture(autouse=True)
def never_hangs() -> Iterator[None]:
    """A command that opened a FIFO would wait for a writer for ever: fail instead."""

    def hung(signum, frame):
        raise TimeoutError("the command hung: it opened a special file")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(60)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


KINDS = list(WORDS)
FOLDER_KINDS = [kind for kind in KINDS if kind != "folder"]


def _agree(w: Work, out: Path) -> list:
    first = planted_team.merged_human_file(w.root / "ann1.xml", "ann1")
    second = planted_team.merged_human_file(w.root / "ann2.xml", "ann2")
    return ["agree", first, second, "-o", out, "--jobs", "1"]


def _adjudicate(w: Work, out: Path) -> list:
    first = planted_team.merged_human_file(w.root / "ann1.xml", "ann1")
    second = planted_team.merged_human_file(w.root / "ann2.xml", "ann2")
    log = planted_team.log_path(w.root, 1)
    log.write_bytes(planted_team.raw_log_bytes(1))
    return ["adjudicate", log, f"ann1={first}", f"ann2={second}", "--prefer", "ann1", "-o", out]


def _assign(w: Work, out: Path) -> list:
    return ["assign", w.corpus, "--annotators", "a,b", "--seed", "1", "-o", out]


# name: (the output's name, argv from (work, output))
SINGLE_FILE: dict[str, tuple[str, Callable[[Work, Path], list]]] = {
    **{
        name: (f"out{suffix}", lambda w, out, argv=argv, suffix=suffix: argv(w, w.input_copy(suffix), out))
        for name, (suffix, argv) in FILE_COMMANDS.items()
    },
    "agree-report": ("report.html", _agree),
    "adjudicate": ("adjudicated.xml", _adjudicate),
    "assign": ("assignment.csv", _assign),  # also read, as the earlier assignment
}
# every command meets every kind, with --force for every other one (which alternates between commands)
FILE_CASES = [
    (command, kind, (place + turn) % 2 == 1)
    for place, command in enumerate(SINGLE_FILE)
    for turn, kind in enumerate(KINDS)
]


@AS_ROOT
@pytest.mark.parametrize(
    "command, kind, force", FILE_CASES, ids=[f"{c}-{k}{'-force' if f else ''}" for c, k, f in FILE_CASES]
)
@pytest.mark.slow
def test_a_special_file_output_is_refused_and_left_alone(work: Work, capsys, sockets, command, kind, force):
    name, argv = SINGLE_FILE[command]
    out = work.root / "specials" / name
    make_special(kind, out, sockets)
    arguments = [*argv(work, out), *(["--force"] if force else [])]
    before = listing(work.root)
    status, err = run_in_process(arguments, capsys)
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith(f"annotator: {out}: "), err
    if kind != "folder":  # a folder may be refused in the command's own words ("writes a file, and this is a folder")
        assert err.endswith(f"{WORDS[kind]}; nothing written (an output must be a regular file or a new name)\n"), err
    assert "folder" in err or kind != "folder"
    assert listing(work.root) == before, "the special file is still there, nothing else was written"


# every command meets every kind once, at the folder or inside it (which alternates between commands)
FOLDER_CASES = [
    (command, kind, ("the-folder", "inside")[(place + turn) % 2])
    for place, command in enumerate([*FOLDER_COMMANDS, "agree-csv"])
    for turn, kind in enumerate(FOLDER_KINDS)
]


def _folder_argv(w: Work, command: str, out: Path) -> list:
    if command == "agree-csv":
        return [*_agree(w, w.root / "unused.html")[:3], "--csv", out, "--jobs", "1"]
    return FOLDER_COMMANDS[command].argv(w, out)


def _written_inside(command: str) -> str:
    return "pairs.csv" if command == "agree-csv" else FOLDER_COMMANDS[command].written


@AS_ROOT
@pytest.mark.parametrize("command, kind, where", FOLDER_CASES, ids=[f"{c}-{k}-{w}" for c, k, w in FOLDER_CASES])
@pytest.mark.slow
def test_a_special_file_at_or_in_an_output_folder_is_refused_even_with_force(
    work: Work, capsys, sockets, command, kind, where
):
    out = work.root / "out"
    special = out if where == "the-folder" else out / _written_inside(command)
    make_special(kind, special, sockets)
    arguments = [*_folder_argv(work, command, out), "--force"]
    before = listing(work.root)
    status, err = run_in_process(arguments, capsys)
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith(f"annotator: {special}: {WORDS[kind].split(',')[0]}"), err
    assert listing(work.root) == before, "never unlinked, replaced or moved aside; no staging folder left"


@AS_ROOT
def test_fold_with_force_onto_a_full_device_leaves_the_device(work: Work):
    """The attack's case, as a real process: `fold LOG x.csv -o /dev/full --force` made /dev/full a file."""
    full = work.root / "dev" / "full"
    make_special("full-device", full, [])
    log = work.input_copy(".xml")
    done = run_annotator("fold", log, work.annotations, "-o", full, "--force", timeout=120)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    info = os.lstat(full)
    assert stat.S_ISCHR(info.st_mode) and info.st_rdev == os.makedev(1, 7)
    assert os.listdir(full.parent) == ["full"]


def test_assign_onto_a_fifo_says_so_at_once(work: Work):
    """`assign -o FIFO` read the FIFO as the earlier assignment and waited for a writer for ever."""
    fifo = work.root / "assignment.csv"
    os.mkfifo(fifo)
    done = run_annotator("assign", work.corpus, "--annotators", "a,b", "--seed", "1", "-o", fifo, timeout=60)

    assert done.returncode == 2
    assert done.stderr == (
        f"annotator: {fifo}: is a named pipe (FIFO), not a regular file; nothing written "
        "(an output must be a regular file or a new name)\n"
    )
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_reading_an_earlier_assignment_never_opens_a_fifo(tmp_path: Path):
    from annotator.team.assign import AssignmentError, read_assignment

    fifo = tmp_path / "assignment.csv"
    os.mkfifo(fifo)
    with pytest.raises(AssignmentError, match="is a named pipe"):
        read_assignment(fifo)
