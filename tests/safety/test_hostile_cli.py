"""Every hostile or broken log of tests/hostile through the real `annotator` command.

Refused inputs: exit 2, one line naming the file (and line:column where
known), never a traceback. Accepted inputs: they load, and the finding the
corpus expects is printed by `annotator validate`.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from annotator.analysis.validation import validate_document
from annotator.errors import LogReadError
from annotator.log.audio_refs import resolver_for
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.hostile_corpus import HOSTILE, Expectation, expectations, hostile_cases

CASES = expectations()
COMMANDS = ("validate", "info", "export")


def _run(command: str, case: Expectation, out: Path) -> subprocess.CompletedProcess:
    """One command on one file. Each test runs its own: a module fixture running them all ran them all again
    on every xdist worker that drew one of these tests."""
    extra = ["-o", str(out / case.name)] if command == "export" else []
    return run_annotator(command, case.path, *extra, timeout=120)


def test_the_corpus_lists_every_file_and_nothing_else():
    on_disk = {path.name for path in HOSTILE.glob("*.xml")}
    assert on_disk == {case.name for case in CASES}
    assert len(hostile_cases()) == len(CASES) >= 20
    assert all(isinstance(refused, bool) and fragment for _, fragment, refused in hostile_cases())


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@pytest.mark.slow
def test_validate(case: Expectation, tmp_path: Path):
    result = _run("validate", case, tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == case.validate, result.stdout + result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    matching = [line for line in lines if case.fragment in line]
    assert matching, f"{case.fragment!r} not in:\n{result.stdout}"
    assert all(line.startswith(str(case.path)) for line in matching), "the finding names the file"
    if case.refused:
        assert len(lines) == 1, "a refused file is one line"
        assert ": error: " in lines[0]
        if case.where:
            assert lines[0].startswith(f"{case.path}:{case.where}: ")


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_info(case: Expectation, tmp_path: Path):
    result = _run("info", case, tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == case.info, result.stdout + result.stderr
    if case.refused:
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1, "one line"
        line = result.stderr.rstrip("\n")
        assert line.startswith(f"annotator: {case.path}")
        assert case.fragment in line
        if case.where:
            assert line.startswith(f"annotator: {case.path}:{case.where}: ")
    else:
        assert result.stderr == ""
        assert result.stdout.startswith(str(case.path))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
@pytest.mark.slow
def test_export(case: Expectation, tmp_path: Path):
    result = _run("export", case, tmp_path)
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == (2 if case.refused else 0), result.stderr
    if case.refused:
        assert result.stderr.count("\n") == 1 and case.fragment in result.stderr


@pytest.mark.parametrize("path, fragment, refused", hostile_cases(), ids=[case.name for case in CASES])
def test_in_process_loader_agrees(path: Path, fragment: str, refused: bool):
    """What a front end calling the core sees (the GUI loader uses the same calls)."""
    if refused:
        with pytest.raises(LogReadError) as caught:
            LogDocument.load(path)
        message = str(caught.value)
        assert fragment in message and "\n" not in message and message.startswith(str(path))
    else:
        findings = [str(finding) for finding in validate_document(LogDocument.load(path))]
        assert any(fragment in finding for finding in findings), findings


@pytest.mark.parametrize(
    "name", ["audio-climbs-out.xml", "audio-device.xml", "audio-folder.xml", "audio-absolute-outside.xml"]
)
def test_unsafe_audio_paths_are_never_resolved(name: str):
    doc = LogDocument.load(HOSTILE / name)
    resolver = resolver_for(doc.path)
    refs = [resolver.resolve(turn, "input") for turn in doc.sessions[0].turns]
    refs = [ref for ref in refs if ref is not None]
    assert refs and all(ref.path is None and "not opened" in ref.problem for ref in refs)
