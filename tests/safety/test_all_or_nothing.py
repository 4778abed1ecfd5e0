"""An export of several files is written all or nothing.

A full disk is real here: a 256 KiB tmpfs (the tmpfs fixture, tests/safety/conftest.py), filled
to the brim and then given back all but one of the pages the command needs, so that
it fails on its very last write. Afterwards nothing of the export exists, no staging
folder or temporary file is left, and a previous export in the same folder is intact.
An unreadable input makes no output folder at all. When the output folder exists,
the command's files replace their namesakes and nothing else in it is touched; if a
move fails half way (a mount point inside the folder), the files moved are put back.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.annotation_files.fold import extract, write_annotations
from annotator.export.convlab import export_convlab
from annotator.export.dialbb import export_dialbb
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.output_commands import run_in_process
from tests.support.repository import REPO, SAMPLE_LOGS
from tests.support.tmpfs import fill, mount_tmpfs, unmount

PAGE = 4096
LOG_001 = "travel-20261121-001/travel-20261121-001-hublog.xml"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory) -> Path:
    """The corpus, an annotations CSV, marker definitions, a ConvLab dataset and a DialBB scenario."""
    root = tmp_path_factory.mktemp("inputs")
    shutil.copytree(SAMPLE_LOGS, root / "corpus")
    doc = LogDocument.load(root / "corpus" / LOG_001)
    write_annotations(root / "annotations.csv", extract(doc), [doc])
    shutil.copyfile(REPO / "resources" / "markers" / "communicator-kpis.yml", root / "kpis.yml")
    export_convlab([root / "corpus"], root / "dataset")
    export_dialbb([root / "corpus"], root / "scenario.txt")
    return root


# name: argv from (inputs, output folder or file stem); the outputs are below OUT
COMMANDS: dict[str, Callable[[Path, Path], list]] = {
    "export-csv": lambda i, out: ["export", i / "corpus", "--to", "csv", "-o", out],
    "export-convlab": lambda i, out: ["export", i / "corpus", "--to", "convlab", "-o", out],
    "export-sclite": lambda i, out: ["export", i / "corpus", "--to", "sclite", "-o", out],
    "export-human": lambda i, out: ["export", i / "corpus", "--to", "human", "-o", out],
    "export-dialbb": lambda i, out: ["export", i / "corpus", "--to", "dialbb", "-o", out / "scenario.txt"],
    "export-lmc": lambda i, out: ["export", i / "corpus", "--to", "lmc", "-o", out / "corpus.jsonl"],
    "export-lmc-text": lambda i, out: ["export", i / "corpus", "--to", "lmc-text", "-o", out / "corpus.txt"],
    "export-textgrid": lambda i, out: ["export", i / "corpus", "--to", "textgrid", "-o", out],
    "export-eaf": lambda i, out: ["export", i / "corpus", "--to", "eaf", "-o", out],
    "extract-csv": lambda i, out: ["extract", i / "corpus", "-o", out / "annotations.csv"],
    "extract-xml": lambda i, out: ["extract", i / "corpus", "-o", out / "annotations.xml"],
    "fold-folder": lambda i, out: ["fold", i / "corpus", i / "annotations.csv", "-o", out],
    "import-convlab": lambda i, out: ["import", "--from", "convlab", i / "dataset" / "communicator", "-o", out],
    "import-dialbb": lambda i, out: ["import", "--from", "dialbb", i / "scenario.txt", "-o", out],
    "markers": lambda i, out: [
        "markers",
        "--config",
        i / "kpis.yml",
        i / "corpus",
        "-o",
        out / "markers.csv",
        "--stats-file-prefix",
        out / "stats",
    ],
}
NEEDS_FOLDER = ("extract-csv", "extract-xml", "markers")  # they write into an existing folder only
MULTI_FILE = [
    "export-csv",
    "export-convlab",
    "export-sclite",
    "export-human",
    "export-textgrid",
    "export-eaf",
    "fold-folder",
    "import-convlab",
    "import-dialbb",
    "markers",
]
TOO_BIG_FOR_THE_TMPFS = ("export-textgrid", "export-eaf")  # a WAV per session: megabytes, the tmpfs has 256 KiB


def snapshot(root: Path) -> dict[str, str]:
    return {
        str(p.relative_to(root)): "folder" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
    }


def pages_written(folder: Path) -> int:
    return sum(-(-p.stat().st_size // PAGE) for p in folder.rglob("*") if p.is_file())


def _leave_free(folder: Path, pages: int) -> None:
    """Fill FOLDER's file system, then free PAGES pages of it."""
    fill(folder)
    filler = folder / "filler"
    os.truncate(filler, max(0, filler.stat().st_size - pages * PAGE))


@pytest.mark.parametrize("existing", [False, True], ids=["new-output", "over-a-previous-output"])
@pytest.mark.parametrize("command", [c for c in COMMANDS if c not in TOO_BIG_FOR_THE_TMPFS])
@pytest.mark.slow
def test_a_full_disk_leaves_nothing_of_the_export(
    inputs: Path,
    tmp_path: Path,
    tmpfs: Path,
    capsys,
    command: str,
    existing: bool,
):
    measured = tmp_path / "measure"
    measured.mkdir()
    if command in NEEDS_FOLDER:
        (measured / "out").mkdir()
    assert run_in_process([*COMMANDS[command](inputs, measured / "out"), "--force"], capsys)[0] == 0
    needed = pages_written(measured)
    assert needed >= 1

    out = tmpfs / "out"
    if existing:  # a previous output of the same command, and a file of somebody else beside it
        shutil.copytree(measured / "out", out)
        (out / "notes.txt").write_text("mine, not the export's\n")
    elif command in NEEDS_FOLDER:
        out.mkdir()
    _leave_free(tmpfs, needed - 1)
    before = snapshot(tmpfs)
    status, err = run_in_process([*COMMANDS[command](inputs, out), "--force"], capsys)
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith("annotator: ") and "No space left on device" in err, err
    assert "Traceback" not in err
    assert snapshot(tmpfs) == before, "nothing of the export, no staging folder, the previous output intact"


@pytest.mark.parametrize("command", [c for c in COMMANDS if c.startswith(("export", "extract", "fold", "markers"))])
def test_an_unreadable_input_makes_no_output_folder(inputs: Path, tmp_path: Path, capsys, command: str):
    broken = tmp_path / "broken"
    shutil.copytree(inputs, broken)
    log = broken / "corpus" / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    log.write_bytes(log.read_bytes()[:700])  # truncated XML: the third log cannot be read
    work = tmp_path / "work"
    work.mkdir()
    if command in NEEDS_FOLDER:
        (work / "new" / "out").mkdir(parents=True)
    before = snapshot(work)
    status, err = run_in_process(COMMANDS[command](broken, work / "new" / "out"), capsys)
    assert status == 2 and err.count("\n") == 1 and str(log) in err, err
    assert snapshot(work) == before, "no output folder, no staging folder"


@pytest.mark.parametrize("command", ["import-convlab", "import-dialbb"])
def test_an_unreadable_source_makes_no_output_folder(tmp_path: Path, capsys, command: str):
    source = tmp_path / "source"
    source.mkdir()
    (source / "dialogues.json").write_text('[{"dialogue_id": "a-train-1", "turns": [')
    (source / "scenario.txt").write_bytes(b"----init\nUser: caf\xe9\n")
    argv = (
        ["import", "--from", "convlab", source / "dialogues.json", "-o", tmp_path / "out"]
        if command == "import-convlab"
        else ["import", "--from", "dialbb", source / "scenario.txt", "-o", tmp_path / "out"]
    )
    status, err = run_in_process(argv, capsys)
    assert status == 2 and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["source"]


@pytest.mark.parametrize("command", MULTI_FILE)
@pytest.mark.slow
def test_an_existing_output_folder_keeps_what_is_not_ours(inputs: Path, tmp_path: Path, capsys, command: str):
    out = tmp_path / "out"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")
    (out / "sub").mkdir()
    (out / "sub" / "more.txt").write_text("mine too\n")
    assert run_in_process(COMMANDS[command](inputs, out), capsys)[0] == 0
    first = snapshot(out)
    assert (out / "notes.txt").read_text() == "mine\n" and (out / "sub" / "more.txt").read_text() == "mine too\n"
    assert len(first) > 3 and not [p for p in out.rglob(".*")], "our files are there, and no hidden leftover"
    assert run_in_process([*COMMANDS[command](inputs, out), "--force"], capsys)[0] == 0
    assert snapshot(out) == first, "a second export replaces its own files with the same bytes"


def test_a_failed_move_puts_every_file_back(inputs: Path, tmp_path: Path, capsys):
    """The rename of the last human file crosses into another file system (EXDEV): the first two are restored."""
    out = tmp_path / "out"
    assert run_in_process(COMMANDS["export-human"](inputs, out), capsys)[0] == 0
    for path in out.rglob("*-human.xml"):
        path.write_text(f"previous {path.name}\n")
    mountpoint = out / "travel-20261121-003"
    shutil.rmtree(mountpoint)
    if not mount_tmpfs(mountpoint):
        pytest.skip("mounting a tmpfs is not permitted here")
    try:
        (mountpoint / "travel-20261121-003-human.xml").write_text("previous travel-20261121-003-human.xml\n")
        before = snapshot(out)
        status, err = run_in_process([*COMMANDS["export-human"](inputs, out), "--force"], capsys)
        assert status == 2 and err.count("\n") == 1, err
        assert "cannot move the new files into place, no output was changed" in err, err
        assert snapshot(out) == before
    finally:
        unmount(mountpoint)


@pytest.mark.parametrize("command", MULTI_FILE)
@pytest.mark.slow
def test_a_read_only_namesake_stops_the_export_before_any_file_moves(
    inputs: Path, tmp_path: Path, capsys, command: str
):
    """os.replace in a writable folder would replace a chmod a-w file; the command refuses, changing nothing."""
    out = tmp_path / "out"
    out.mkdir()
    assert run_in_process(COMMANDS[command](inputs, out), capsys)[0] == 0
    ours = sorted(p for p in out.rglob("*") if p.is_file())
    protected = ours[-1]
    os.chmod(protected, 0o444)
    before = snapshot(out)
    status, err = run_in_process([*COMMANDS[command](inputs, out), "--force"], capsys)
    assert status == 2 and err.count("\n") == 1, err
    assert f"{protected.name}: is read-only (-r--r--r--)" in err, err
    assert snapshot(out) == before and protected.stat().st_mode & 0o777 == 0o444


def test_a_new_output_folder_appears_whole_with_the_usual_permissions(inputs: Path, tmp_path: Path, capsys):
    out = tmp_path / "a" / "b" / "out"
    assert run_in_process(COMMANDS["export-csv"](inputs, out), capsys)[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o777 & ~umask, "not the staging folder's private mode"
    assert (out / "sessions.csv").stat().st_mode & 0o777 == 0o666 & ~umask
    assert sorted(p.name for p in (tmp_path / "a" / "b").iterdir()) == ["out"]


def test_through_the_real_command_on_a_full_disk(inputs: Path, tmpfs: Path):
    _leave_free(tmpfs, 1)
    before = snapshot(tmpfs)
    done = run_annotator("export", inputs / "corpus", "-o", tmpfs / "out", timeout=120)

    assert done.returncode == 2 and "No space left on device" in done.stderr and done.stderr.count("\n") == 1
    assert snapshot(tmpfs) == before


def test_a_staging_folder_left_by_a_killed_export_is_not_read_as_logs(inputs: Path, tmp_path: Path, capsys):
    """A SIGKILL can leave .NAME.XXXXXXXX.tmp with staged logs in it; a corpus scan must not count them twice."""
    corpus = tmp_path / "corpus"
    shutil.copytree(inputs / "corpus", corpus)
    leftover = corpus / ".out.k1ll3d00.tmp" / "travel-20261121-001"
    leftover.mkdir(parents=True)
    shutil.copyfile(corpus / LOG_001, leftover / "travel-20261121-001-hublog.xml")
    status, err = run_in_process(["export", corpus, "-o", tmp_path / "out"], capsys)
    assert status == 0 and err.startswith("exported 3 log(s)"), err
