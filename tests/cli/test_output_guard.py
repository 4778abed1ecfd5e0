"""No command replaces its input, an existing log or a human-annotation file without --force.

Every command that writes, through the real `annotator` entry (cli.main.main, in this
process, and a few as subprocesses), on real files: each collision kind is refused
with exit status 2 and one line saying why, and leaves every byte of the work folder
as it was; --force then writes.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.output_commands import (
    FILE_COMMANDS,
    FOLDER_COMMANDS,
    FolderCommand,
    Work,
    make_work,
    run_in_process,
)


@pytest.fixture
def work(tmp_path: Path) -> Work:
    return make_work(tmp_path / "work")


def snapshot(root: Path) -> dict[str, str]:
    """Every file (its content's hash), symlink (its target) and folder below ROOT."""
    found = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        if path.is_symlink():
            found[key] = "-> " + os.readlink(path)
        elif path.is_dir():
            found[key] = "folder"
        else:
            found[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


# --- commands writing one file (FILE_COMMANDS) -------------------------------------------------


def _same(w: Work, log: Path, suffix: str) -> Path:
    return log


def _symlink(w: Work, log: Path, suffix: str) -> Path:
    link = w.root / f"link{suffix}"
    link.symlink_to(log)
    return link


def _hard_link(w: Work, log: Path, suffix: str) -> Path:
    hard = w.root / f"hard{suffix}"
    os.link(log, hard)
    return hard


def _through_linked_folder(w: Work, log: Path, suffix: str) -> Path:
    (w.root.parent / "alias").symlink_to(w.root)
    return w.root.parent / "alias" / log.name


def _existing_log(w: Work, log: Path, suffix: str) -> Path:
    other = w.root / f"other{suffix}"  # a log by its root element, whatever its name
    other.write_bytes(w.other_log_bytes())
    return other


def _named_like_a_log(w: Work, log: Path, suffix: str) -> Path:
    other = w.root / "previous-hublog.xml"  # a log by its name, whatever it holds
    other.write_bytes(b"not yet XML, still somebody's log\n")
    return other


def _existing_human_file(w: Work, log: Path, suffix: str) -> Path:
    other = w.root / f"other{suffix}"
    other.write_bytes(w.human_bytes())
    return other


def _named_like_a_human_file(w: Work, log: Path, suffix: str) -> Path:
    other = w.root / "previous-human.xml"
    other.write_bytes(b"transcriptions typed by hand\n")
    return other


FILE_KINDS = {
    "the-input": (_same, "this is the input"),
    "symlink-to-input": (_symlink, "this is the input"),
    "hard-link-of-input": (_hard_link, "this is the input"),
    "input-through-linked-folder": (_through_linked_folder, "this is the input"),
    "existing-log": (_existing_log, "an existing log this command did not write"),
    "named-hublog": (_named_like_a_log, "an existing log this command did not write"),
    "existing-human-file": (_existing_human_file, "an existing human-annotation file this command did not write"),
    "named-human": (_named_like_a_human_file, "an existing human-annotation file this command did not write"),
}
# extract writes .csv or .xml only: the *-hublog.xml / *-human.xml names do not apply to extract-csv
FILE_CASES = [
    (command, kind)
    for command in FILE_COMMANDS
    for kind in FILE_KINDS
    if not (command == "extract-csv" and kind.startswith("named"))
]


@pytest.mark.parametrize("command, kind", FILE_CASES, ids=[f"{c}-{k}" for c, k in FILE_CASES])
@pytest.mark.slow
def test_a_file_output_is_refused_without_force(work: Work, capsys, command: str, kind: str):
    suffix, argv = FILE_COMMANDS[command]
    log = work.input_copy(suffix)
    make_output, fragment = FILE_KINDS[kind]
    out = make_output(work, log, suffix)
    protected = out.read_bytes()
    before = snapshot(work.root)
    status, err = run_in_process(argv(work, log, out), capsys)
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith(f"annotator: {out}: {fragment}"), err
    assert "--force" in err
    assert snapshot(work.root) == before, "nothing written, nothing removed"
    assert out.read_bytes() == protected

    status, err = run_in_process([*argv(work, log, out), "--force"], capsys)
    assert status == 0, err
    assert out.read_bytes() != protected, "--force writes"


@pytest.mark.parametrize("command", ["fold", "markers"])
def test_the_other_inputs_are_protected_too(work: Work, capsys, command: str):
    """fold's annotation file and markers' marker file are inputs as much as the logs."""
    log = work.input_copy(".xml")
    out = work.annotations if command == "fold" else work.kpis
    argv = (
        ["fold", log, work.annotations, "-o", out]
        if command == "fold"
        else ["markers", "--config", work.kpis, log, "-o", out, "--no-stats"]
    )
    before = snapshot(work.root)
    status, err = run_in_process(argv, capsys)
    assert (
        status == 2
        and err == f"annotator: {out}: this is the input {out}; nothing written (use --force to write anyway)\n"
    )
    assert snapshot(work.root) == before


# --- commands writing into a folder -------------------------------------------------------------


def _inside(w: Work, command: FolderCommand, content: Callable[[Path], None]) -> tuple[Path, Path]:
    out = w.root / "out"
    target = out / command.written
    target.parent.mkdir(parents=True)
    content(target)
    return out, target


FOLDER_KINDS = {
    "link-to-input-inside": (lambda w, c: _inside(w, c, lambda t: t.symlink_to(c.input_of(w))), "this is the input"),
    "existing-log-inside": (
        lambda w, c: _inside(w, c, lambda t: t.write_bytes(w.other_log_bytes())),
        "an existing log this command did not write",
    ),
    "existing-human-file-inside": (
        lambda w, c: _inside(w, c, lambda t: t.write_bytes(w.human_bytes())),
        "an existing human-annotation file this command did not write",
    ),
}
FOLDER_CASES = [(command, kind) for command in FOLDER_COMMANDS for kind in FOLDER_KINDS]


@pytest.mark.parametrize("command, kind", FOLDER_CASES, ids=[f"{c}-{k}" for c, k in FOLDER_CASES])
@pytest.mark.slow
def test_a_file_in_an_output_folder_is_refused_without_force(work: Work, capsys, command: str, kind: str):
    spec = FOLDER_COMMANDS[command]
    make, fragment = FOLDER_KINDS[kind]
    out, target = make(work, spec)
    before = snapshot(work.root)
    protected = target.read_bytes()
    status, err = run_in_process(spec.argv(work, out), capsys)
    assert status == 2, err
    assert err.count("\n") == 1 and err.startswith(f"annotator: {target}: {fragment}"), err
    assert snapshot(work.root) == before, "nothing written, no staging folder left, nothing removed"

    status, err = run_in_process([*spec.argv(work, out), "--force"], capsys)
    assert status == 0, err
    assert not target.is_symlink() and target.read_bytes() != protected, "--force writes"
    if kind == "link-to-input-inside":
        assert spec.input_of(work).read_bytes() == protected, "the link is replaced, never the file it points at"


@pytest.mark.parametrize("command", [c for c, spec in FOLDER_COMMANDS.items() if spec.holds_input is not None])
def test_an_output_folder_holding_an_input_log_is_refused_and_only_an_in_place_fold_is_forced(
    work: Work, capsys, command: str
):
    spec = FOLDER_COMMANDS[command]
    out = spec.holds_input(work)
    before = snapshot(work.root)
    status, err = run_in_process(spec.argv(work, out), capsys)
    assert status == 2, err
    assert err.count("\n") == 1 and ("this folder holds the input" in err or "this is the input" in err), err
    assert "--force" in err
    assert snapshot(work.root) == before

    status, err = run_in_process([*spec.argv(work, out), "--force"], capsys)
    if command == "fold-folder":  # the logs rewritten in place, their originals kept as NAME.orig.xml
        assert status == 0, err
        assert snapshot(work.root) != before
    else:  # new files among the input logs would be read as input by the next run over the folder
        assert status == 2 and err.count("\n") == 1 and "inside the input folder" in err, err
        assert "--force" not in err and snapshot(work.root) == before


def test_exporting_human_files_over_the_corpus_keeps_the_transcribers_files(work: Work, capsys):
    """The issue's case: `export corpus --to human -o corpus` emptied the *-human.xml files people typed."""
    typed = work.corpus / "travel-20261121-002" / "travel-20261121-002-human.xml"
    typed.write_bytes(work.human_bytes())
    before = snapshot(work.root)
    status, err = run_in_process(["export", work.corpus, "--to", "human", "-o", work.corpus], capsys)
    assert (
        status == 2
        and err
        == f"annotator: {work.corpus}: this is the input {work.corpus}; nothing written (use --force to write anyway)\n"
    )
    assert snapshot(work.root) == before


def test_importing_again_keeps_the_logs_annotated_since(work: Work, capsys):
    out = work.root / "logs"
    assert run_in_process(["import", "--from", "dialbb", work.scenario, "-o", out], capsys)[0] == 0
    annotated = out / "scenario-001-hublog.xml"
    doc = LogDocument.load(annotated)
    from annotator.log.annotations import set_task_completion

    set_task_completion(doc.sessions[0], "1")
    doc.save()
    before = snapshot(work.root)
    status, err = run_in_process(["import", "--from", "dialbb", work.scenario, "-o", out], capsys)
    assert status == 2 and err.startswith(f"annotator: {out / 'scenario-001-hublog.xml'}: an existing log"), err
    assert snapshot(work.root) == before
    assert run_in_process(["import", "--from", "dialbb", work.scenario, "-o", out, "--force"], capsys)[0] == 0


def test_writing_the_same_export_again_is_allowed(work: Work, capsys):
    """Only logs and human files are protected: a CSV export, a scenario or a trn file is simply replaced."""
    for argv in (
        ["export", work.corpus, "-o", work.root / "out"],
        ["export", work.corpus, "--to", "dialbb", "-o", work.root / "s.txt"],
        ["export", work.corpus, "--to", "sclite", "-o", work.root / "trn"],
        ["extract", work.log, "-o", work.root / "a.csv"],
    ):
        assert run_in_process(argv, capsys)[0] == 0
        assert run_in_process(argv, capsys)[0] == 0


@pytest.mark.slow
def test_through_the_real_command(work: Work):
    """The same refusals as a user sees them: a subprocess, stderr, exit status."""
    log = work.input_copy(".xml")
    before = snapshot(work.root)
    for argv in (
        ["extract", log, "-o", log],
        ["export", log, "--to", "lmc", "-o", log],
        ["fold", log, work.annotations, "-o", work.annotations],
    ):
        done = run_annotator(*argv, timeout=120)

        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "this is the input" in done.stderr and "Traceback" not in done.stderr
    assert snapshot(work.root) == before


@pytest.mark.parametrize("through_link", [False, True], ids=["folder", "symlink-to-folder"])
def test_a_folder_above_an_input_log_holds_it(work: Work, capsys, through_link: bool):
    out = work.corpus
    if through_link:
        out = work.root.parent / "corpus-link"
        out.symlink_to(work.corpus)
    before = snapshot(work.root)
    status, err = run_in_process(["export", work.log, "--to", "csv", "-o", out], capsys)
    assert status == 2
    assert (
        err
        == f"annotator: {out}: this folder holds the input {work.log}; nothing written (use --force to write anyway)\n"
    )
    assert snapshot(work.root) == before


def test_markers_refuses_writing_two_of_its_tables_to_one_file(work: Work, capsys):
    """-o x-overall.csv with --stats-file-prefix x would write the rows and the statistics over each other."""
    out = work.root / "x-overall.csv"
    before = snapshot(work.root)
    status, err = run_in_process(
        ["markers", "--config", work.kpis, work.log, "-o", out, "--stats-file-prefix", work.root / "x", "--force"],
        capsys,
    )
    assert status == 2 and err.count("\n") == 1 and "two of the outputs are the same file" in err, err
    assert snapshot(work.root) == before
