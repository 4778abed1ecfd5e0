"""`annotator markers`, run for real as a subprocess, and the shipped KPI markers on the sample logs."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.log.document import LogDocument
from annotator.markers import apply_markers, extract_markers, hits_per_session, load_markers, shipped_kpis_path
from annotator.markers.extract import extracted_markers_csv
from tests.support.cli import run_annotator
from tests.support.marker_logs import write
from tests.support.rasa_seed import EXTRACTED, OVERALL, PER_SESSION, SEED_LOGS, SEED_MARKERS

KPIS = shipped_kpis_path()


@pytest.fixture
def seed_corpus(tmp_path: Path) -> Path:
    """The seed's example as three logs in tmp_path/logs, and its markers in tmp_path/markers.yml."""
    folder = tmp_path / "logs"
    folder.mkdir()
    for sender, text in SEED_LOGS.items():
        write(folder, sender, text)
    (tmp_path / "markers.yml").write_text(SEED_MARKERS)
    return tmp_path


@pytest.mark.slow
def test_writes_rasas_three_files(seed_corpus):
    result = run_annotator("markers", "--config", "markers.yml", "logs", "-o", "extracted_markers.csv", cwd=seed_corpus)
    assert result.returncode == 0, result.stderr
    assert (seed_corpus / "extracted_markers.csv").read_text() == EXTRACTED
    assert (seed_corpus / "stats-per-session.csv").read_text() == PER_SESSION
    assert (seed_corpus / "stats-overall.csv").read_text() == OVERALL
    assert "2 marker(s) reported at 4 event(s) in 3 session(s) of 3 log(s)" in result.stderr


@pytest.mark.slow
def test_stats_file_prefix_is_a_path_prefix_and_no_stats_writes_only_the_rows(seed_corpus):
    (seed_corpus / "out").mkdir()
    result = run_annotator(
        "markers",
        "--config",
        "markers.yml",
        "logs",
        "-o",
        "out/rows.csv",
        "--stats-file-prefix",
        "out/my-statistics",
        cwd=seed_corpus,
    )
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in (seed_corpus / "out").iterdir()) == [
        "my-statistics-overall.csv",
        "my-statistics-per-session.csv",
        "rows.csv",
    ]
    result = run_annotator(
        "markers", "--config", "markers.yml", "logs", "-o", "only.csv", "--no-stats", cwd=seed_corpus
    )
    assert result.returncode == 0, result.stderr
    assert (seed_corpus / "only.csv").read_text() == EXTRACTED
    assert not (seed_corpus / "stats-overall.csv").exists()


@pytest.mark.parametrize("existing", ["extracted_markers.csv", "stats-per-session.csv", "stats-overall.csv"])
@pytest.mark.slow
def test_existing_files_are_kept_unless_forced(seed_corpus, existing):
    (seed_corpus / existing).write_text("keep me")
    args = ("markers", "--config", "markers.yml", "logs", "-o", "extracted_markers.csv")
    result = run_annotator(*args, cwd=seed_corpus)
    assert result.returncode == 2
    assert result.stderr == f"annotator: {existing}: already exists; use --force to overwrite it\n"
    assert (seed_corpus / existing).read_text() == "keep me"
    assert not (seed_corpus / "extracted_markers.csv").exists() or existing == "extracted_markers.csv"
    assert run_annotator(*args, "--force", cwd=seed_corpus).returncode == 0
    assert (seed_corpus / "extracted_markers.csv").read_text() == EXTRACTED


@pytest.mark.slow
def test_an_existing_stats_file_does_not_block_no_stats(seed_corpus):
    (seed_corpus / "stats-overall.csv").write_text("keep me")
    result = run_annotator("markers", "--config", "markers.yml", "logs", "-o", "x.csv", "--no-stats", cwd=seed_corpus)
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_user_errors_are_one_line_with_exit_status_2(seed_corpus):
    (seed_corpus / "bad.yml").write_text("m:\n  not: [action: a, action: b]\n")
    result = run_annotator("markers", "--config", "bad.yml", "logs", "-o", "x.csv", cwd=seed_corpus)
    assert (result.returncode, result.stderr) == (
        2,
        "annotator: bad.yml:2: marker m: not takes exactly 1 sub-marker(s), found 2\n",
    )
    result = run_annotator("markers", "--config", "markers.yml", "logs", "-o", "missing/x.csv", cwd=seed_corpus)
    assert result.returncode == 2 and "the folder missing does not exist" in result.stderr
    (seed_corpus / "broken.xml").write_text("<GC_LOG><GC_SESSION>")
    result = run_annotator("markers", "--config", "markers.yml", "broken.xml", "-o", "x.csv", cwd=seed_corpus)
    assert result.returncode == 2 and result.stderr.startswith("annotator: broken.xml:")
    assert not (seed_corpus / "x.csv").exists()


# The shipped KPIs on the sample logs: each marker finds what the sample logs' README says they show.
KPI_ROWS = """\
sender_id,session_idx,marker,event_idx,num_preceding_user_turns
travel-20261121-001-hublog,0,marker_task_completed,0,0
travel-20261121-001-hublog,0,marker_misrecognition,18,1
travel-20261121-002-hublog,0,marker_error_then_reprompt,20,2
travel-20261121-002-hublog,0,marker_task_failed,41,4
travel-20261121-003-hublog,0,marker_help_requested,9,1
travel-20261121-003-hublog,0,marker_misrecognition,37,4
"""


def test_every_shipped_kpi_finds_something_in_the_sample_logs(sample_logs):
    markers = load_markers(KPIS)
    rows = extracted_markers_csv(extract_markers(markers, sample_logs))
    assert rows == KPI_ROWS
    assert {line.split(",")[2] for line in rows.splitlines()[1:]} == set(markers.names)


def test_kpi_hits_are_the_elements_they_describe(sample_logs):
    markers = load_markers(KPIS)
    found = {}
    for path in sample_logs:
        hits = apply_markers(markers, LogDocument.load(path))
        assert hits_per_session(hits) == {0: {hit.marker: 1 for hit in hits}}  # one of each, in the only session
        for hit in hits:
            found[path.name[:19], hit.marker] = hit.element
    completed = found["travel-20261121-001", "marker_task_completed"]
    assert completed.tag == "GC_ANNOT" and completed.get("type_task_completion") == "1"
    misheard = found["travel-20261121-001", "marker_misrecognition"]  # the transcription "no boston massachusetts"
    assert misheard.tag == "GC_ANNOT" and misheard.findtext("GC_DATA").startswith("no boston")
    reprompt = found["travel-20261121-002", "marker_error_then_reprompt"]
    assert reprompt.get("type_prompt") == ":source" and reprompt.find("GC_DATA").get("type_error_msg") == "true"
    assert "no flights" in found["travel-20261121-002", "marker_task_failed"].findtext("GC_DATA")
    help_parse = found["travel-20261121-003", "marker_help_requested"]
    assert help_parse.get("name") == "parse" and help_parse.find("GC_DATA/GC_FRAME").get("name") == "help"
    assert found["travel-20261121-003", "marker_misrecognition"].findtext("GC_DATA").startswith("no z")


@pytest.mark.slow
def test_the_cli_on_the_sample_folder(tmp_path, sample_logs):
    folder = sample_logs[0].parents[1]
    result = run_annotator(
        "markers",
        "--config",
        KPIS,
        folder,
        "-o",
        tmp_path / "kpis.csv",
        "--stats-file-prefix",
        tmp_path / "kpis",
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "kpis.csv").read_text() == KPI_ROWS
    overall = (tmp_path / "kpis-overall.csv").read_text().splitlines()
    assert "all,nan,-,total_number_of_sessions,3" in overall
    assert "all,nan,marker_misrecognition,percentage_of_sessions_where_marker_applied_at_least_once,66.667" in overall
