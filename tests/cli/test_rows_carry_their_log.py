"""Rows carry their log: fold and adjudicate paired rows by session id alone and ignored the CSV's `file`
column, so rows written for one log were folded into another holding the same session id; agree over
files sharing no session reported 0 turns and exited 0.

Generated shapes: every way of writing the file cell (the export's path, extract's ../ path, an absolute
path, a name that is not UTF-8 written %XX), for the right log and for another one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.log.document import LogDocument
from tests.support import planted_team
from tests.support.cli import run_annotator
from tests.support.repository import SAMPLE_LOGS

SAMPLE = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
SESSION = "travel:20261121:001"
# how a file cell may name a log called NAME
CELLS = {
    "bare-name": "{name}",
    "export-path": "travel-20261121-001/{name}",
    "extract-path": "../corpus/sub/{name}",
    "absolute": "/somewhere/else/{name}",
    "windows-separators": "corpus\\\\sub\\\\{name}",
}


def write_rows(path: Path, cell: str, value: str = "0") -> Path:
    path.write_text(f"file,session_id,task_completion\n{cell},{SESSION},{value}\n", encoding="utf-8")
    return path


def two_copies(root: Path, other_name: str = "other-hublog.xml") -> tuple[Path, Path]:
    """The same session in two logs: this one, and another (a copy, a re-recording)."""
    root.mkdir(parents=True, exist_ok=True)
    this, other = root / "this-hublog.xml", root / other_name
    shutil.copyfile(SAMPLE, this)
    shutil.copyfile(SAMPLE, other)
    return this, other


@pytest.mark.parametrize("shape", CELLS)
def test_rows_written_for_another_log_are_refused(tmp_path: Path, capsys, shape: str):
    this, other = two_copies(tmp_path / "logs")
    rows = write_rows(tmp_path / "rows.csv", CELLS[shape].format(name=other.name))
    raw = this.read_bytes()
    out = tmp_path / "folded.xml"
    assert main(["fold", str(this), str(rows), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"annotator: {rows}: row 2: the file column names "), err
    assert f"not {this}, which holds session {SESSION}" in err and "nothing written" in err
    assert not out.exists() and this.read_bytes() == raw


@pytest.mark.parametrize("shape", CELLS)
def test_rows_written_for_this_log_fold(tmp_path: Path, capsys, shape: str):
    this, _ = two_copies(tmp_path / "logs")
    rows = write_rows(tmp_path / "rows.csv", CELLS[shape].format(name=this.name))
    out = tmp_path / "folded.xml"
    assert main(["fold", str(this), str(rows), "-o", str(out)]) == 0, capsys.readouterr().err
    assert LogDocument.load(out).sessions[0].task_completion == "0"


def test_an_empty_file_cell_names_no_log(tmp_path: Path, capsys):
    this, _ = two_copies(tmp_path / "logs")
    out = tmp_path / "folded.xml"
    assert main(["fold", str(this), str(write_rows(tmp_path / "rows.csv", "")), "-o", str(out)]) == 0
    assert LogDocument.load(out).sessions[0].task_completion == "0"


def test_a_name_that_is_not_utf8_is_matched_through_its_escape(tmp_path: Path, capsys):
    folder = os.fsencode(tmp_path / "logs")
    os.makedirs(folder)
    log = Path(os.fsdecode(folder + b"/pr\xe9-hublog.xml"))
    shutil.copyfile(SAMPLE, log)
    out = tmp_path / "folded.xml"
    assert main(["fold", str(log), str(write_rows(tmp_path / "rows.csv", "pr%E9-hublog.xml")), "-o", str(out)]) == 0
    refused = run_annotator(
        "fold", log, write_rows(tmp_path / "bad.csv", "pr%E8-hublog.xml"), "-o", tmp_path / "no.xml"
    )
    assert refused.returncode == 2 and "the file column names pr%E8-hublog.xml" in refused.stderr, refused.stderr
    assert refused.stderr.count("\n") == 1


def test_in_a_folder_a_row_naming_a_log_other_than_its_sessions_is_refused(tmp_path: Path, capsys):
    """Folding a folder: the first row names the log of its session, the second names a log that is not
    the one holding its session (session 002 is in travel-20261121-002-hublog.xml)."""
    corpus = tmp_path / "corpus"
    shutil.copytree(SAMPLE_LOGS, corpus)
    rows = write_rows(tmp_path / "rows.csv", f"travel-20261121-001/{SAMPLE.name}")
    rows.write_text(
        rows.read_text(encoding="utf-8") + "elsewhere/third-hublog.xml,travel:20261121:002,1\n", encoding="utf-8"
    )
    before = {path: path.read_bytes() for path in corpus.rglob("*.xml")}
    assert main(["fold", str(corpus), str(rows), "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        f"annotator: {rows}: row 3: the file column names elsewhere/third-hublog.xml, not "
        f"{corpus / 'travel-20261121-002' / 'travel-20261121-002-hublog.xml'}"
    ), err
    assert not (tmp_path / "out").exists()
    assert {path: path.read_bytes() for path in corpus.rglob("*.xml")} == before


def test_adjudicate_refuses_a_work_written_for_another_log(tmp_path: Path, capsys):
    log = planted_team.log_path(tmp_path, 1)
    log.write_bytes(planted_team.raw_log_bytes(1))
    first = tmp_path / "ann1.csv"
    first.write_text(
        f"file,session_id,task_completion\nplanted-002-hublog.xml,{planted_team.session_id(1)},1\n", encoding="utf-8"
    )
    second = tmp_path / "ann2.csv"
    second.write_text(f"file,session_id,task_completion\n{log.name},{planted_team.session_id(1)},0\n", encoding="utf-8")
    out = tmp_path / "adjudicated.xml"
    assert main(["adjudicate", str(log), f"ann1={first}", f"ann2={second}", "--prefer", "ann1", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"annotator: {first}: row 2: the file column names planted-002-hublog.xml"
    ), err
    assert not out.exists()


def test_agree_on_works_sharing_no_session_says_so(tmp_path: Path, capsys):
    first = planted_team.merged_human_file(tmp_path / "ann1.xml", "ann1")
    second = tmp_path / "ann2.csv"
    second.write_text("session_id,task_completion\nsomething:else:001,1\n", encoding="utf-8")
    assert main(["agree", str(first), str(second), "--jobs", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("annotator: no two annotators share a session, so there is nothing to compare: ")
    assert captured.err.count("\n") == 1
