"""`annotator export --to FORMAT` and `annotator import --from FORMAT` end to end, the format table
the GUI reads, and the rules all dialogue formats share (annotator.export.dialogue_text)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest

from annotator.cli import export as export_cli
from annotator.cli import import_ as import_cli
from annotator.export.dialogue_text import choose_user_text, read_dialogues
from annotator.export.formats import EXPORT_FORMATS, progress_from_callback
from annotator.imports import IMPORT_FORMATS
from tests.support.cli import run_annotator
from tests.support.format_strategies import GenSession, GenTurn, write_generated_log

annotator = partial(run_annotator, timeout=None)


def test_the_cli_lists_what_the_table_holds():
    assert export_cli.FORMATS == tuple(EXPORT_FORMATS)
    assert import_cli.SOURCES == tuple(IMPORT_FORMATS)
    folders = {name for name, fmt in EXPORT_FORMATS.items() if fmt.output_is_folder}
    assert folders == {"csv", "parquet", "convlab", "sclite", "human", "textgrid", "eaf"}


@pytest.mark.parametrize(
    "fmt, out, made",
    [
        ("convlab", "out", ["out/communicator/data.zip", "out/communicator/preprocess.py"]),
        ("dialbb", "scenario.txt", ["scenario.txt"]),
        ("lmc", "sub/corpus.jsonl", ["sub/corpus.jsonl"]),
        ("lmc-text", "corpus.txt", ["corpus.txt"]),
        ("sclite", "out", ["out/ref.trn", "out/hyp.trn"]),
        ("human", "out", ["out/travel-20261121-001/travel-20261121-001-human.xml"]),
        ("csv", "out", ["out/sessions.csv", "out/turns.csv", "out/events.csv", "out/words.csv"]),
        ("textgrid", "out", ["out/index.csv", "out/travel-20261121-001.TextGrid", "out/travel-20261121-003.wav"]),
        ("eaf", "out", ["out/index.csv", "out/travel-20261121-002.eaf", "out/travel-20261121-002.wav"]),
    ],
)
@pytest.mark.slow
def test_export_each_format_from_the_command_line(corpus: Path, tmp_path: Path, fmt, out, made):
    result = annotator("export", corpus, "--to", fmt, "-o", tmp_path / out)
    assert result.returncode == 0, result.stderr
    for path in made:
        assert (tmp_path / path).is_file(), path
    assert result.stderr.strip().splitlines()[-1].startswith(("exported", "wrote"))


@pytest.mark.slow
def test_csv_prints_what_it_always_printed(corpus: Path, tmp_path: Path):
    result = annotator("export", corpus, "-o", tmp_path / "out")
    assert result.returncode == 0 and result.stderr.startswith("exported 3 log(s): 3 session(s), 36 turn(s)")


@pytest.mark.slow
def test_warnings_go_to_stderr_one_a_line(corpus: Path, tmp_path: Path):
    result = annotator("export", corpus, "--to", "dialbb", "--text", "transcription", "-o", tmp_path / "s.txt")
    assert result.returncode == 0
    lines = result.stderr.strip().splitlines()
    assert lines[:2] == [
        f"annotator: warning: travel-20261121-00{n}/travel-20261121-00{n}-hublog.xml: session "
        f"travel:20261121:00{n}: skipped, no user turn has a transcription"
        for n in (2, 3)
    ]
    assert lines[-1].startswith("exported 1 session(s)")


@pytest.mark.parametrize(
    "args, message",
    [
        (["--to", "dialbb", "--dataset", "x"], "--dataset do(es) not apply to --to dialbb"),
        (["--to", "lmc", "--split", "test"], "--split do(es) not apply to --to lmc"),
        (["--to", "convlab", "--seed", "3"], "--seed applies only with --split-ratios"),
        (["--to", "convlab", "--split-ratios", "1,2"], "--split-ratios '1,2': expected three shares"),
        (["--to", "convlab", "--dataset", "a-b"], "no '-'"),
        (["--to", "sclite", "--text", "asr"], "--text do(es) not apply to --to sclite"),
    ],
)
def test_options_that_do_not_fit_are_one_line_errors(corpus: Path, tmp_path: Path, args, message):
    result = annotator("export", corpus, *args, "-o", tmp_path / "out")
    assert result.returncode == 2 and message in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_a_file_format_refuses_a_folder(corpus: Path, tmp_path: Path):
    result = annotator("export", corpus, "--to", "lmc", "-o", tmp_path)
    assert result.returncode == 2 and "writes a file, and this is a folder" in result.stderr


@pytest.mark.slow
def test_convlab_split_ratios_from_the_command_line(corpus: Path, tmp_path: Path):
    result = annotator(
        "export",
        corpus,
        "--to",
        "convlab",
        "--dataset",
        "calls",
        "--split-ratios",
        "1,1,1",
        "--seed",
        "5",
        "-o",
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    preprocess = (tmp_path / "calls" / "preprocess.py").read_text()
    assert "OPTIONS = ['--text', 'prefer-transcription', '--split-ratios', '1,1,1', '--seed', '5']" in preprocess
    dummy = json.loads((tmp_path / "calls" / "dummy_data.json").read_text())
    assert sorted(d["data_split"] for d in dummy) == ["test", "train", "validation"]


@pytest.mark.slow
def test_import_from_the_command_line(corpus: Path, tmp_path: Path):
    assert annotator("export", corpus, "--to", "convlab", "-o", tmp_path / "cl").returncode == 0
    result = annotator(
        "import", "--from", "convlab", tmp_path / "cl" / "communicator" / "data.zip", "-o", tmp_path / "logs"
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("imported 3 dialogue(s), 36 turn(s), from")
    assert annotator("validate", tmp_path / "logs").returncode == 0
    assert annotator("export", corpus, "--to", "dialbb", "-o", tmp_path / "s.txt").returncode == 0
    result = annotator("import", "--from", "dialbb", tmp_path / "s.txt", "-o", tmp_path / "from-dialbb")
    assert result.returncode == 0 and len(list((tmp_path / "from-dialbb").glob("*-hublog.xml"))) == 3
    bad = annotator("import", "--from", "convlab", tmp_path / "s.txt", "-o", tmp_path / "x")
    assert bad.returncode == 2 and "s.txt:1:1: not JSON" in bad.stderr


def test_progress_callback_sees_every_log(corpus: Path, tmp_path: Path):
    seen: list[tuple[int, int]] = []
    report = EXPORT_FORMATS["lmc"].run(
        [corpus], tmp_path / "c.jsonl", progress=progress_from_callback(lambda done, total: seen.append((done, total)))
    )
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)] and report.sessions == 3


def test_user_text_choice():
    assert choose_user_text("human", "heard", "prefer-transcription") == ("human", "transcription")
    assert choose_user_text(" ", "heard", "prefer-transcription") == ("heard", "asr")
    assert choose_user_text(None, "heard", "transcription") == ("", None)
    assert choose_user_text("human", None, "asr") == ("", None)


def test_turns_of_one_side_merge_and_textless_turns_go(tmp_path: Path):
    log = write_generated_log(
        tmp_path / "x-hublog.xml",
        [
            GenSession(
                "s1",
                [
                    GenTurn("1", "system", system="Hello."),
                    GenTurn("2", "system", system="Where to?"),
                    GenTurn("3", None),
                    GenTurn("4", "user", asr="boston"),
                    GenTurn("5", "user", asr="", transcription="uh"),
                    GenTurn("6", "system", system=None),
                    GenTurn("7", "user", asr="please"),
                ],
            ),
            GenSession("s2", [GenTurn("1", "system", system="Bye.")]),
        ],
    )
    kept, warnings = read_dialogues([log], "asr", keep_empty=True)
    assert [(u.speaker, u.text, u.turn_ids) for u in kept[0].utterances] == [
        ("system", "Hello. Where to?", ["1", "2"]),
        ("user", "boston", ["4", "5"]),
        ("system", "", ["6"]),
        ("user", "please", ["7"]),
    ]
    assert warnings == ["x-hublog.xml: session s2: skipped, it has no user turn"]
    dropped, warnings = read_dialogues([log], "asr", keep_empty=False)
    assert [(u.speaker, u.text, u.turn_ids) for u in dropped[0].utterances] == [
        ("system", "Hello. Where to?", ["1", "2"]),
        ("user", "boston please", ["4", "7"]),
    ]
    assert warnings[0] == "x-hublog.xml: session s1: 1 user turn(s) without recognizer text left out (turn 5)"


def test_annotation_files_among_the_paths_are_not_logs(annotated_log: Path, tmp_path: Path):
    human = tmp_path / "x-human.xml"
    assert annotator("extract", annotated_log, "-o", human).returncode == 0
    report = EXPORT_FORMATS["lmc"].run([annotated_log, human], tmp_path / "c.jsonl")
    assert report.sessions == 1 and not report.warnings


@pytest.mark.slow
def test_an_unreadable_log_is_one_line_and_nothing_is_written(corpus: Path, tmp_path: Path):
    broken = corpus / "broken-hublog.xml"
    broken.write_text('<?xml version="1.0"?>\n<GC_LOG>\n  <GC_SESSION id="x" stime="1" etime="2">\n</GC_LOG>\n')
    result = annotator("export", corpus, "--to", "convlab", "-o", tmp_path / "out")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"annotator: {broken}:4:")
    assert not (tmp_path / "out").exists()
