"""Save, save as, CSV export and fold (CLI) fail cleanly: previous files intact, no temp file, one line why.

Each failure is made real, not mocked:
  disk full        a 256 KiB tmpfs filled to the brim (needs mount: root; else skipped)
  file too large   RLIMIT_FSIZE in the child process (EFBIG)
  read-only        the tmpfs remounted read-only (EROFS); without mount rights, a chmod 555 folder
  permission       a folder of another user: as root the child drops to uid/gid 65534 (nobody)
                   after its imports, like setpriv; as a normal user, a chmod 500 folder

Every operation runs in a child process: `python -m tests.safety.test_write_failures OP FOLDER`
(this file), which reports errors exactly as the `annotator` command does.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.support.repository import REPO, SAMPLE_LOGS
from tests.support.tmpfs import fill, mount_tmpfs, unmount

OPERATIONS = ("save", "save-as", "export-csv", "fold-cli")
TARGETS = {  # what each operation writes (relative to the work folder)
    "save": ["log.xml"],
    "save-as": ["copy.xml"],
    "export-csv": ["out/sessions.csv", "out/turns.csv", "out/events.csv"],
    "fold-cli": ["folded.xml"],
}
NOBODY = 65534
IS_ROOT = os.geteuid() == 0


# --- the child ----------------------------------------------------------------------------------


def _child(argv: list[str]) -> int:
    """Run one operation on FOLDER; `--fsize N` limits file sizes, `--as-nobody` drops root first."""
    import resource

    operation, work = argv[0], Path(argv[1])
    if "--fsize" in argv:
        limit = int(argv[argv.index("--fsize") + 1])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # Python ignores SIGXFSZ: writes get EFBIG
    if "--as-nobody" in argv:
        _rehearse(operation, work)  # nobody cannot reach this interpreter's lazily imported modules
        os.setgroups([])
        os.setresgid(NOBODY, NOBODY, NOBODY)
        os.setresuid(NOBODY, NOBODY, NOBODY)
    return _operation(operation, work)


def _operation(operation: str, work: Path) -> int:
    from annotator.cli.main import main, run_reporting_errors

    if operation == "fold-cli":  # --force: folded.xml is a log this run did not write (output_guard)
        return main(
            ["fold", str(work / "log.xml"), str(work / "annotations.csv"), "-o", str(work / "folded.xml"), "--force"]
        )

    def run(_args) -> int:
        from annotator.export.csv_export import export_csv
        from annotator.log.annotations import set_transcription
        from annotator.log.document import LogDocument

        if operation == "export-csv":
            export_csv([work / "log.xml"], work / "out")
            return 0
        doc = LogDocument.load(work / "log.xml")
        set_transcription(doc.sessions[0].user_turns[0], "a changed transcription")
        doc.save(work / "copy.xml" if operation == "save-as" else None)
        return 0

    return run_reporting_errors(run, None)


def _rehearse(operation: str, work: Path) -> None:
    """Run OPERATION once on a scratch copy of WORK, so that every module it needs is imported."""
    import contextlib
    import io

    scratch = Path(tempfile.mkdtemp())
    try:
        shutil.copytree(work, scratch / "work")
        with contextlib.redirect_stderr(io.StringIO()):
            assert _operation(operation, scratch / "work") == 0
    finally:
        shutil.rmtree(scratch)


# --- preparing the folder and checking it -------------------------------------------------------


def _prepare(work: Path) -> None:
    """The log, an annotation file, and a previous version of every file an operation writes."""
    from annotator.annotation_files.fold import extract, write_annotations
    from annotator.log.document import LogDocument

    source = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
    shutil.copyfile(source, work / "log.xml")
    doc = LogDocument.load(work / "log.xml")
    write_annotations(work / "annotations.csv", extract(doc), [doc])
    (work / "copy.xml").write_bytes(b"<GC_LOG/>\n<!-- the previous save-as target -->\n")
    (work / "folded.xml").write_bytes(b"<GC_LOG/>\n<!-- the previous fold output -->\n")
    (work / "out").mkdir()
    for name in ("sessions", "turns", "events"):
        (work / "out" / f"{name}.csv").write_text(f"previous {name}\n")


def _snapshot(work: Path) -> dict[str, bytes]:
    return {str(path.relative_to(work)): path.read_bytes() for path in sorted(work.rglob("*")) if path.is_file()}


def _run_child(operation: str, work: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tests.safety.test_write_failures", operation, str(work), *extra],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )


def _assert_failed_cleanly(
    result: subprocess.CompletedProcess, operation: str, work: Path, before: dict[str, bytes], reason: str
) -> None:
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    assert result.returncode == 2, output
    assert result.stderr.count("\n") == 1, f"one line: {result.stderr!r}"
    line = result.stderr.strip()
    assert line.startswith("annotator: ") and reason in line, line
    assert any(Path(target).name in line for target in TARGETS[operation]), f"names the file: {line}"
    after = _snapshot(work)
    assert sorted(after) == sorted(before), "no temporary file left behind, nothing removed"
    for name, data in before.items():
        assert after[name] == data, f"{name} changed"


# --- the tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("operation", OPERATIONS)
def test_disk_full(tmpfs: Path, operation: str):
    _prepare(tmpfs)
    fill(tmpfs)
    before = _snapshot(tmpfs)
    result = _run_child(operation, tmpfs)
    _assert_failed_cleanly(result, operation, tmpfs, before, "No space left on device")


@pytest.mark.parametrize("operation", OPERATIONS)
def test_file_too_large(tmp_path: Path, operation: str):
    _prepare(tmp_path)
    before = _snapshot(tmp_path)
    result = _run_child(operation, tmp_path, "--fsize", "4096")
    _assert_failed_cleanly(result, operation, tmp_path, before, "File too large")


@pytest.mark.parametrize("operation", OPERATIONS)
def test_read_only(tmp_path: Path, operation: str):
    mountpoint = tmp_path / "tmpfs"
    if mount_tmpfs(mountpoint):
        try:
            _prepare(mountpoint)
            before = _snapshot(mountpoint)
            remounted = subprocess.run(["mount", "-o", "remount,ro", str(mountpoint)], capture_output=True, timeout=30)
            assert remounted.returncode == 0, remounted.stderr
            result = _run_child(operation, mountpoint)
            _assert_failed_cleanly(result, operation, mountpoint, before, "Read-only file system")
        finally:
            unmount(mountpoint)
        return
    if IS_ROOT:
        pytest.skip("root ignores folder permissions and may not mount here")
    _check_unwritable_folders(tmp_path, operation, 0o555, [])


def _can_become_nobody() -> bool:
    probe = f"import os; os.setgroups([]); os.setresgid({NOBODY}, {NOBODY}, {NOBODY}); os.setresuid({NOBODY}, {NOBODY}, {NOBODY})"
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, timeout=30).returncode == 0


@pytest.mark.parametrize("operation", OPERATIONS)
def test_permission_denied(operation: str):
    if IS_ROOT:
        if not _can_become_nobody():
            pytest.skip("root here may not change its user id")
        work = Path(tempfile.mkdtemp(prefix="annotator-permissions-"))  # /tmp: reachable by nobody
        try:
            os.chmod(work, 0o755)  # root's folder: nobody may read, not write
            _check_unwritable_folders(work, operation, 0o755, ["--as-nobody"])
        finally:
            shutil.rmtree(work)
    else:
        with tempfile.TemporaryDirectory() as name:
            _check_unwritable_folders(Path(name), operation, 0o500, [])


def _check_unwritable_folders(work: Path, operation: str, mode: int, extra: list[str]) -> None:
    _prepare(work)
    before = _snapshot(work)
    folders = [work, work / "out"]
    for folder in folders:
        os.chmod(folder, mode)
    try:
        result = _run_child(operation, work, *extra)
    finally:
        for folder in folders:
            os.chmod(folder, 0o755)
    _assert_failed_cleanly(result, operation, work, before, "Permission denied")


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
