"""Scanning a corpus folder into per-session summary rows (the session browser's data)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from annotator.corpus import scan as corpus_scan
from annotator.corpus.scan import (
    SessionSummary,
    iter_corpus,
    iter_corpus_in_children,
    scan_corpus,
    summarize_document,
)
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

BROKEN = "<?xml version='1.0'?>\n<GC_LOG>\n  <GC_SESSION id='x'>\n</GC_LOG>\n"


def by_id(rows: list[SessionSummary]) -> dict[str, SessionSummary]:
    return {row.session_id: row for row in rows}


def test_every_session_gets_a_row_and_an_unreadable_log_one_problem_row(corpus: Path):
    broken = write_log(corpus / "broken.xml", BROKEN)
    rows = scan_corpus(corpus)

    problems = [row for row in rows if row.problem is not None]
    assert [row.file for row in problems] == [broken]
    assert "broken.xml:4" in problems[0].problem and "\n" not in problems[0].problem
    assert problems[0].findings_text == "unreadable"

    sessions = by_id(row for row in rows if row.problem is None)
    assert set(sessions) == {"travel:20261121:001", "travel:20261121:002", "travel:20261121:003"}
    annotated = sessions["travel:20261121:001"]
    assert annotated.file.name == "travel-20261121-001-hublog.xml"
    assert (annotated.n_turns, annotated.n_user_turns, annotated.n_transcribed) == (12, 6, 6)
    assert annotated.task_completion == "1"
    assert annotated.duration_s == pytest.approx(39.817, abs=1e-3)
    raw = sessions["travel:20261121:002"]
    assert (raw.n_turns, raw.n_user_turns, raw.n_transcribed, raw.task_completion) == (10, 5, 0, None)
    assert raw.duration_s == pytest.approx(34.825, abs=1e-3)  # milliseconds in the log, seconds here
    for row in sessions.values():
        # The samples are good logs: only the DTD's mime_type quirk, which is not a problem.
        assert (row.n_errors, row.n_warnings) == (0, 0) and row.n_quirks > 0
        assert row.findings_text == ""


def test_findings_are_counted_in_the_session_they_are_about(tmp_path: Path):
    good = session("good", [system_turn("1", 1000, "hello"), user_turn("2", 1003, "boston")])
    bad_turn = user_turn("2", 1003, "boston").replace('stime="1003" etime="1005"', 'stime="1005" etime="1003"')
    bad = session("bad", [system_turn("1", 1000, "hello"), bad_turn])
    path = write_log(tmp_path / "two.xml", log_text([good, bad]))

    rows = by_id(scan_corpus(tmp_path))
    assert rows["bad"].n_errors == 1 and rows["bad"].findings_text.startswith("1 error")
    assert rows["good"].n_errors == 0
    assert (rows["good"].session_index, rows["bad"].session_index) == (0, 1)
    assert rows["good"].file == rows["bad"].file == path


def test_a_finding_about_the_whole_file_counts_in_every_session(tmp_path: Path):
    text = log_text([session("a", [system_turn("1", 1000, "hi")]), session("b", [system_turn("1", 1000, "hi")])])
    write_log(tmp_path / "log.xml", text.replace("<GC_LOG>", '<GC_LOG bogus="yes">'))
    rows = scan_corpus(tmp_path)
    assert [row.n_errors for row in rows] == [1, 1]


def test_progress_is_reported_once_per_file(corpus: Path):
    write_log(corpus / "broken.xml", BROKEN)
    calls = [(done, total, path) for done, total, path, _rows in iter_corpus(corpus)]
    assert [(done, total) for done, total, _ in calls] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert {path.name for _, _, path in calls} == {
        "broken.xml",
        "travel-20261121-001-hublog.xml",
        "travel-20261121-002-hublog.xml",
        "travel-20261121-003-hublog.xml",
    }


def test_cancelling_stops_between_files(corpus: Path):
    done: list[int] = []
    rows = []
    for n, _total, _path, summaries in iter_corpus(corpus, cancelled=lambda: len(done) >= 1):
        done.append(n)
        rows += summaries
    assert done == [1]
    assert len(rows) == 1


def test_a_single_log_or_a_list_of_paths_can_be_scanned(sample_logs: list[Path]):
    assert [row.session_id for row in scan_corpus(sample_logs[0])] == ["travel:20261121:001"]
    assert len(scan_corpus(sample_logs[1:])) == 2


def test_a_missing_file_is_a_problem_row_not_a_crash(tmp_path: Path):
    missing = tmp_path / "gone.xml"
    [row] = scan_corpus([missing])
    assert row.problem is not None and str(missing) in row.problem


def test_documents_are_released_while_scanning(corpus: Path, monkeypatch):
    """A large corpus must scan in constant memory: no summarised document stays alive.

    This is the command line's scan, where Python's collector is on; a test process that
    has started Qt keeps it off (tests/conftest.py), as the window does, so it is switched
    on here for the scan and restored after.
    """
    monkeypatch.setattr(corpus_scan, "COLLECT_AFTER_BYTES", 0)
    alive: list[int] = []

    was_enabled = gc.isenabled()
    gc.enable()
    try:
        gc.collect()
        before = sum(1 for obj in gc.get_objects() if isinstance(obj, LogDocument))
        for _done, _total, _path, _rows in iter_corpus(corpus):
            alive.append(sum(1 for obj in gc.get_objects() if isinstance(obj, LogDocument)))
    finally:
        if not was_enabled:
            gc.disable()
    assert alive == [before] * 3


def test_summarize_document_reflects_new_annotations(annotated_log: Path, absolute_audio_log: Path):
    doc = LogDocument.load(absolute_audio_log)
    [row] = summarize_document(doc)
    assert (row.n_transcribed, row.task_completion) == (0, None)
    session_view = doc.sessions[0]
    set_transcription(session_view.user_turns[0], "i need to go to san francisco")
    set_task_completion(session_view, "0")
    [row] = summarize_document(doc)
    assert (row.n_transcribed, row.n_untranscribed, row.task_completion) == (1, 4, "0")
    assert row.file == absolute_audio_log and row.session_index == 0


@pytest.mark.slow
def test_the_per_file_work_runs_in_other_processes_with_the_same_rows(corpus: Path):
    """The session browser's map: the first log here, the others in child processes, in file order."""
    write_log(corpus / "broken.xml", BROKEN)
    serial = [(done, total, path, rows) for done, total, path, rows in iter_corpus(corpus)]
    in_children = iter_corpus_in_children([corpus], cancelled=lambda: False)
    elsewhere = [(done, total, path, rows) for done, total, path, rows in in_children]
    assert elsewhere == serial
    assert any(rows[0].problem is not None for _done, _total, _path, rows in serial)
