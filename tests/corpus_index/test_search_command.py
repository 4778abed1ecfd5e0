"""`annotator search` and `annotator index` as the user runs them: the real command in a child process."""

from __future__ import annotations

import json
import os
from functools import partial
from pathlib import Path

import pytest

from annotator.cli.main import main
from annotator.corpus.paths import expand_log_paths
from tests.support.cli import run_annotator
from tests.support.plain_scan import hits_of, scan
from tests.support.planted_logs import plant
from tests.support.repository import REPO

annotator = partial(
    run_annotator, cwd=REPO, timeout=None
)  # the real command, run from the repository with no time limit


@pytest.mark.slow
def test_hits_are_tab_separated_lines_in_file_order_with_exit_status_0(corpus: Path):
    done = annotator("search", "flight", corpus)
    assert done.returncode == 0 and done.stderr == ""
    assert hits_of(done.stdout) == scan([corpus], "flight")
    assert {hit[3] for hit in hits_of(done.stdout)} == {"system", "concepts"}


@pytest.mark.slow
def test_no_hit_is_exit_status_1_and_a_query_without_a_word_is_2(corpus: Path):
    assert annotator("search", "zzyzx", corpus).returncode == 1
    done = annotator("search", '" * -', corpus)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("annotator: nothing to search for") and done.stderr.count("\n") == 1


@pytest.mark.slow
def test_field_limit_and_json(corpus: Path, annotated_log: Path):
    plant(annotated_log, {"2": "I want a flight\tto C:\\Austin\nplease"})
    only = annotator("search", "flight", corpus, "--field", "transcription")
    # White space runs are one space, as everywhere a text is read; the backslash is escaped: one hit, one line.
    assert hits_of(only.stdout) == [
        (str(annotated_log), "travel:20261121:001", "2", "transcription", "I want a flight to C:\\\\Austin please")
    ]
    limited = annotator("search", "flight", corpus, "--limit", "2", "--json")
    lines = [json.loads(line) for line in limited.stdout.splitlines()]
    assert len(lines) == 2 and lines[0]["file"] == str(annotated_log) and lines[0]["field"] == "transcription"
    assert {"session_id", "turn_id", "turn_index", "session_index", "text"} <= set(lines[0])


def test_query_syntax_is_never_fts_syntax(corpus: Path, capsys):
    for query in [
        "flight OR zzyzx",
        "NEAR(flight",
        "text:flight",
        "-flight",
        '"flight',
        "flight^",
        "fli*ght",
        "flight AND NOT austin",
        "{flight}",
        "'flight'",
    ]:
        status = main(["search", "--jobs", "1", "--", query, str(corpus)])
        out, err = capsys.readouterr()
        assert err == "" and status == (0 if out else 1), query
        assert hits_of(out) == scan([corpus], query), query


def test_a_phrase_ending_in_a_prefix_finds_the_phrase(corpus: Path, capsys):
    for query in ['"fly to bo*"', '"fly to bo"*', '"FLY TO BO*']:
        status = main(["search", "--jobs", "1", "--field", "transcription", query, str(corpus)])
        out, err = capsys.readouterr()
        assert (status, err) == (0, ""), query
        assert "\ti want to fly to boston\n" in out, query
        assert hits_of(out) == scan([corpus], query, "transcription"), query
    assert main(["search", "--jobs", "1", '"fly to bx*"', str(corpus)]) == 1


@pytest.mark.slow
def test_an_unreadable_log_is_one_line_and_exit_status_2_the_others_answered(corpus: Path, annotated_log: Path):
    annotated_log.write_text("<GC_LOG><unclosed>", encoding="utf-8")
    done = annotator("search", "flight", corpus)
    assert done.returncode == 2
    assert [line for line in done.stderr.splitlines()] and all(
        line.startswith("annotator: ") for line in done.stderr.splitlines()
    )
    assert str(annotated_log) in done.stderr and "Traceback" not in done.stderr
    readable = [path for path in expand_log_paths([corpus]) if path != annotated_log]
    assert hits_of(done.stdout) == scan(readable, "flight") != []


@pytest.mark.slow
def test_index_names_each_unreadable_log_and_exits_2_as_info_does(corpus: Path, annotated_log: Path):
    annotated_log.write_text("<GC_LOG><unclosed>", encoding="utf-8")
    (corpus / "empty-hublog.xml").write_bytes(b"")
    for _ in range(2):  # the logs read, then the logs known unreadable: named again each time
        done = annotator("index", corpus, "--jobs", "1")
        lines = done.stderr.splitlines()
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert f"annotator: {annotated_log}:1:19: not well-formed XML: Premature end of data" in lines[1], lines
        assert lines[0] == f"annotator: {corpus / 'empty-hublog.xml'}: is empty"
        assert lines[2].startswith("4 log(s) indexed in ") and lines[3].startswith("annotator: 2 files could not")
    info = annotator("info", corpus, "--jobs", "1")
    assert info.returncode == 2 and str(annotated_log) in info.stderr


@pytest.mark.slow
def test_where_names_a_file_in_the_cache_folder_and_clear_removes_it(corpus: Path, tmp_path: Path):
    where = annotator("index", corpus, "--where")
    file = Path(where.stdout.strip())
    assert where.returncode == 0 and file.is_relative_to(Path(os.environ["ANNOTATOR_CACHE_DIR"]))
    assert not file.exists()
    made = annotator("index", corpus, "--jobs", "1")
    assert made.returncode == 0 and file.is_file() and "3 log(s) indexed" in made.stderr
    assert not any(path.suffix == ".sqlite3" for path in corpus.rglob("*"))
    cleared = annotator("index", corpus, "--clear")
    assert cleared.returncode == 0 and not file.exists()


@pytest.mark.slow
def test_the_index_is_kept_per_corpus_and_used_from_any_folder(corpus: Path, tmp_path: Path):
    first = annotator("search", "austin", corpus)
    again = annotator("search", "austin", corpus.relative_to(tmp_path), cwd=tmp_path)
    assert [hit[1:] for hit in hits_of(first.stdout)] == [hit[1:] for hit in hits_of(again.stdout)] != []
    assert annotator("index", corpus, "--where").stdout == annotator("index", ".", "--where", cwd=corpus).stdout
