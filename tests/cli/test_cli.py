"""The `annotator` command, run for real as a subprocess on real logs."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pandas as pd
import pytest

from annotator import __version__
from annotator.annotation_files.fold import extract
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator


def test_version_and_help():
    assert run_annotator("--version").stdout.strip() == f"annotator {__version__}"
    helped = run_annotator("--help")
    assert helped.returncode == 0 and "validate" in helped.stdout and "export" in helped.stdout


def _smoke(*args: str | Path) -> subprocess.CompletedProcess:
    return run_annotator(*args, timeout=120, env={"ANNOTATOR_SMOKE_TEST": "1", "QT_QPA_PLATFORM": "offscreen"})


@pytest.mark.slow
def test_no_command_opens_the_window_on_the_sample_session_or_the_given_log(latin1_log: Path):
    bare = _smoke()
    assert bare.returncode == 0, bare.stderr
    assert "smoke test: opened=True turns=12" in bare.stdout and "travel-20261121-001" in bare.stdout
    given = _smoke(latin1_log)
    assert given.returncode == 0 and "opened=True turns=14" in given.stdout, given.stderr
    assert "opened=True turns=14" in _smoke("gui", latin1_log).stdout


@pytest.mark.slow
def test_the_gui_script_declared_in_pyproject_opens_the_same_window(latin1_log: Path):
    """`annotator-gui`, the gui-script entry point, runs through `annotator gui`."""
    declared = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]["gui-scripts"]
    module, _, function = declared["annotator-gui"].partition(":")
    call = f"import sys; from {module} import {function} as entry; sys.exit(entry(sys.argv[1:]))"
    env = {**os.environ, "ANNOTATOR_SMOKE_TEST": "1", "QT_QPA_PLATFORM": "offscreen"}

    def run(*args: str | Path) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-c", call, *map(str, args)], capture_output=True, text=True, timeout=120, env=env
        )

    assert run("--version").stdout.strip() == f"annotator-gui {__version__}"
    opened = run(latin1_log)
    assert opened.returncode == 0 and "opened=True turns=14" in opened.stdout, opened.stderr


@pytest.mark.slow
def test_validate_sample_logs_is_clean_but_shows_dtd_quirks(sample_logs):
    result = run_annotator("validate", *sample_logs)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert lines and all(": quirk: " in line for line in lines)
    assert all(line.split(":")[1].isdigit() for line in lines), "file:line: severity: message"
    assert run_annotator("validate", "--strict", *sample_logs).returncode == 1
    assert run_annotator("validate", "--hide-quirks", *sample_logs).stdout == ""


@pytest.mark.slow
def test_validate_reports_findings_and_unreadable_logs(tmp_path: Path, annotated_log: Path):
    broken = annotated_log.read_text().replace('etime="', 'etime="1', 1).replace('stime="', 'stime="9', 1)
    bad_times = tmp_path / "bad-times.xml"
    bad_times.write_text(broken)
    result = run_annotator("validate", "--hide-quirks", bad_times)
    assert result.returncode == 1 and ": error: " in result.stdout
    truncated = tmp_path / "truncated.xml"
    truncated.write_bytes(annotated_log.read_bytes()[:500])
    result = run_annotator("validate", truncated)
    assert result.returncode == 2
    assert result.stdout.startswith(f"{truncated}:") and "Traceback" not in result.stdout + result.stderr
    hostile = tmp_path / "xxe.xml"
    hostile.write_text(
        '<?xml version="1.0"?><!DOCTYPE GC_LOG [<!ENTITY x SYSTEM "file:///etc/passwd">]><GC_LOG>&x;</GC_LOG>'
    )
    result = run_annotator("info", hostile)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "refused" in result.stderr


def test_info_summarises_each_session(sample_logs):
    result = run_annotator("info", *sample_logs)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("  session ") == len(sample_logs)
    assert "transcribed" in result.stdout and "times in milliseconds" in result.stdout


@pytest.mark.slow
def test_export_csv_writes_four_files_quietly(corpus: Path, tmp_path: Path):
    out = tmp_path / "out"
    result = run_annotator("export", corpus, "--to", "csv", "-o", out)
    assert result.returncode == 0, result.stderr
    for name, first in (
        ("sessions.csv", "file,session_id,stime"),
        ("turns.csv", "file,session_id,turn_id,index"),
        ("events.csv", "file,session_id,turn_id,element"),
        ("words.csv", "session_id,turn_id,speaker,word_index,word,start,end,score,source\n"),
    ):
        assert (out / name).read_text(encoding="utf-8").startswith(first)
    assert "\r" not in result.stderr and "it/s" not in result.stderr, "no progress bar when not on a terminal"


def _filled_in_turns_csv(log: Path, out: Path, text: str, **to_csv) -> Path:
    """LOG's turns.csv exported into OUT with TEXT (formatted with the turn id) filled in for the
    user turns, saved with pandas' TO_CSV options."""
    assert run_annotator("export", log, "-o", out).returncode == 0
    turns = pd.read_csv(out / "turns.csv", dtype=str, keep_default_na=False)
    users = turns["speaker"] == "user"
    turns.loc[users, "transcription"] = [text.format(i) for i in turns.loc[users, "turn_id"]]
    turns.to_csv(out / "turns.csv", index=False, **to_csv)
    return out / "turns.csv"


def _fold_filled_in_turns_csv(log: Path, tmp_path: Path, text: str, **to_csv) -> None:
    """Fold a filled-in turns.csv back and check every user turn got its text."""
    table = _filled_in_turns_csv(log, tmp_path / "out", text, **to_csv)
    folded = tmp_path / "folded.xml"
    result = run_annotator("fold", log, table, "-o", folded)
    assert result.returncode == 0, result.stderr
    doc = LogDocument.load(folded)
    assert [t.transcription for t in doc.sessions[0].user_turns] == [
        text.format(t.id) for t in doc.sessions[0].user_turns
    ]


@pytest.mark.slow
def test_fold_a_filled_in_turns_csv(absolute_audio_log: Path, tmp_path: Path):
    _fold_filled_in_turns_csv(absolute_audio_log, tmp_path, "what was said in turn {}")


@pytest.mark.slow
def test_fold_a_turns_csv_a_spreadsheet_saved_with_semicolons(absolute_audio_log: Path, tmp_path: Path):
    # as Excel saves "CSV UTF-8" where the list separator is ";": BOM, ";", CRLF, quotes doubled
    _fold_filled_in_turns_csv(
        absolute_audio_log, tmp_path, 'turn {}; "quoted"', sep=";", lineterminator="\r\n", encoding="utf-8-sig"
    )
    assert (tmp_path / "out" / "turns.csv").read_bytes().startswith(b"\xef\xbb\xbffile;session_id;turn_id;")


@pytest.mark.slow
def test_fold_refuses_unknown_ids_and_writes_nothing(absolute_audio_log: Path, tmp_path: Path):
    annotations = tmp_path / "a.csv"
    with annotations.open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["file", "session_id", "turn_id", "transcription", "task_completion"])
        writer.writerow(["", "no-such-session", "1", "hello", ""])
        writer.writerow(["", LogDocument.load(absolute_audio_log).sessions[0].id, "99", "hello", ""])
    folded = tmp_path / "folded.xml"
    result = run_annotator("fold", absolute_audio_log, annotations, "-o", folded)
    assert result.returncode == 2
    assert "no-such-session" in result.stderr and "99" in result.stderr
    assert not folded.exists()


@pytest.mark.slow
def test_fold_uses_the_human_file_beside_the_log(annotated_log: Path, tmp_path: Path):
    expected = extract(LogDocument.load(annotated_log))
    raw = LogDocument.load(annotated_log)
    for turn in raw.sessions[0].turns:
        set_transcription(turn, None)
    set_task_completion(raw.sessions[0], None)
    folder = tmp_path / "call"
    folder.mkdir()
    raw_path = raw.save(folder / annotated_log.name)
    human = folder / annotated_log.name.replace("-hublog.xml", "-human.xml")
    assert run_annotator("extract", annotated_log, "-o", human).returncode == 0
    assert run_annotator("fold", raw_path, "-o", tmp_path / "folded.xml").returncode == 0
    assert extract(LogDocument.load(tmp_path / "folded.xml")) == expected


def test_extract_csv_round_trips_through_fold(annotated_log: Path, tmp_path: Path):
    table = tmp_path / "annotations.csv"
    assert run_annotator("extract", annotated_log, "-o", table).returncode == 0
    rows = pd.read_csv(table, dtype=str, keep_default_na=False)
    assert list(rows.columns) == [
        "file",
        "session_id",
        "turn_id",
        "transcription",
        "task_completion",
        "session_occurrence",
        "turn_occurrence",
    ]
    assert set(rows["session_occurrence"]) == set(rows["turn_occurrence"]) == {""}  # no id repeats
    assert (rows["transcription"] != "").sum() == len(LogDocument.load(annotated_log).sessions[0].user_turns)


@pytest.mark.slow
def test_works_from_another_directory(sample_logs, tmp_path: Path):
    result = run_annotator("validate", "--hide-quirks", *[p.resolve() for p in sample_logs], cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_fold_in_place_keeps_the_original_on_the_first_fold_only(absolute_audio_log: Path, tmp_path: Path):
    original = absolute_audio_log.read_bytes()
    kept = absolute_audio_log.with_name(absolute_audio_log.name.replace(".xml", ".orig.xml"))
    first = run_annotator(
        "fold",
        absolute_audio_log,
        _filled_in_turns_csv(absolute_audio_log, tmp_path / "first", "first"),
        "-o",
        absolute_audio_log,
        "--force",
    )
    assert first.returncode == 0, first.stderr
    assert kept.read_bytes() == original and absolute_audio_log.read_bytes() != original
    assert f"the original is kept as {kept.name}" in first.stderr
    second = run_annotator(
        "fold",
        absolute_audio_log,
        _filled_in_turns_csv(absolute_audio_log, tmp_path / "second", "second"),
        "-o",
        absolute_audio_log,
        "--force",
    )
    assert second.returncode == 0, second.stderr
    assert kept.read_bytes() == original, "the copy is the log before the first fold, never replaced"
    assert "original" not in second.stderr
    assert {t.transcription for t in LogDocument.load(absolute_audio_log).sessions[0].user_turns} == {"second"}


@pytest.mark.slow
def test_folding_a_folder_in_place_keeps_each_original(corpus: Path, tmp_path: Path):
    logs = sorted(corpus.rglob("*-hublog.xml"))
    originals = {log: log.read_bytes() for log in logs}
    table = tmp_path / "annotations.csv"
    assert run_annotator("extract", corpus, "-o", table).returncode == 0
    folded = run_annotator("fold", corpus, table, "-o", corpus, "--force")
    assert folded.returncode == 0, folded.stderr
    for log, before in originals.items():
        assert log.with_name(log.name.replace(".xml", ".orig.xml")).read_bytes() == before, log


@pytest.mark.slow
def test_folding_into_another_file_keeps_no_original(absolute_audio_log: Path, tmp_path: Path):
    table = _filled_in_turns_csv(absolute_audio_log, tmp_path / "out", "elsewhere")
    assert run_annotator("fold", absolute_audio_log, table, "-o", tmp_path / "folded.xml").returncode == 0
    assert not list(tmp_path.rglob("*.orig.xml")) and not list(absolute_audio_log.parent.glob("*.orig.xml"))
