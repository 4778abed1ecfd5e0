"""NIST sclite trn files: the word error rate Debian's real sclite computes from them equals ours."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from annotator.analysis.metrics import session_metrics
from annotator.export.sclite import export_sclite
from annotator.log.document import LogDocument
from tests.support.format_strategies import gen_sessions, write_generated_log
from tests.support.peer_tools import peer_tool

SCTK = peer_tool("SCTK", "sctk")
needs_sclite = pytest.mark.skipif(SCTK is None, reason="NIST's scoring toolkit is not installed: apt-get install sctk")
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
_ID = re.compile(r"^(.*) \(([^()\s_-]+)_([^()\s_-]+)\)$")


def sclite(folder: Path, report: str) -> list[str]:
    """The Sum line of sclite's REPORT (sum: percentages, rsum: counts) as its columns."""
    result = subprocess.run(
        [
            SCTK,
            "sclite",
            "-r",
            str(folder / "ref.trn"),
            "trn",
            "-h",
            str(folder / "hyp.trn"),
            "trn",
            "-i",
            "rm",
            "-o",
            report,
            "stdout",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    # sclite widens its table, and pads the "Sum" cell, to fit the hypothesis file's path in the title.
    line = next(line for line in result.stdout.splitlines() if re.match(r"\s*\|\s*Sum", line))
    return line.replace("|", " ").split()[1:]  # Snt Wrd Corr Sub Del Ins Err S.Err (after "Sum" or "Sum/Avg")


def our_counts(paths: list[Path]) -> tuple[int, int]:
    """(errors, reference words) of our WER, summed over the sessions of the logs."""
    errors = words = 0
    for path in paths:
        for session in LogDocument.load(path).sessions:
            metrics = session_metrics(session)
            errors += metrics.wer_errors
            words += metrics.wer_reference_words
    return errors, words


def test_trn_files_of_the_sample_logs(transcribed_corpus: Path, tmp_path: Path):
    report = export_sclite([transcribed_corpus], tmp_path)
    reference = (tmp_path / "ref.trn").read_text(encoding="utf-8").splitlines()
    hypothesis = (tmp_path / "hyp.trn").read_text(encoding="utf-8").splitlines()
    assert report.sessions == 3 and report.utterances == len(reference) == len(hypothesis) == 18
    assert reference[0] == "i want to fly to boston (travel:20261121:001_2)"
    assert hypothesis[0] == "i want to fly to austin (travel:20261121:001_2)"
    assert "from chicago please (travel:20261121:001_6)" in reference, "[noise] is dropped from the reference"
    assert "thanks very much goodbye (travel:20261121:003_14)" in reference, "<breath> too"
    assert "from the mile high city (travel:20261121:002_04)" in reference
    assert not any("[" in line or "<" in line for line in reference)
    ids = [_ID.match(line).group(2, 3) for line in reference]
    assert ids == [_ID.match(line).group(2, 3) for line in hypothesis] and len(set(ids)) == len(ids)
    for path in (tmp_path / "ref.trn", tmp_path / "hyp.trn"):
        raw = path.read_bytes()
        assert not raw.startswith(b"\xef\xbb\xbf") and b"\r" not in raw


@needs_sclite
def test_sclite_computes_our_word_error_rate_on_the_sample_logs(transcribed_corpus: Path, tmp_path: Path):
    export_sclite([transcribed_corpus], tmp_path)
    errors, words = our_counts(sorted(transcribed_corpus.glob("*/*-hublog.xml")))
    assert (errors, words) == (6, 66)  # the sample corpus' numbers, so that a silent change shows
    sentences, reference_words, *_rest, error_count, _sentence_errors = sclite(tmp_path, "rsum")
    assert (int(sentences), int(reference_words), int(error_count)) == (18, words, errors)
    percentages = sclite(tmp_path, "sum")
    assert float(percentages[-2]) == round(100 * errors / words, 1)


@needs_sclite
def test_sclite_on_one_annotated_log(annotated_log: Path, tmp_path: Path):
    export_sclite([annotated_log], tmp_path)
    metrics = session_metrics(LogDocument.load(annotated_log).sessions[0])
    assert float(sclite(tmp_path, "sum")[-2]) == round(100 * metrics.values["word_error_rate"], 1) == 9.1


def test_sessions_without_scorable_turns_are_skipped_with_a_warning(sample_logs, tmp_path: Path):
    report = export_sclite(sample_logs, tmp_path)
    assert report.sessions == 1 and report.utterances == 6
    assert report.warnings == [
        f"travel-20261121-00{n}/travel-20261121-00{n}-hublog.xml: session travel:20261121:00{n}: skipped, no user turn has both a "
        "transcription and recognizer text"
        for n in (2, 3)
    ]


@needs_sclite
@PROPERTY
@given(sessions=gen_sessions())
def test_sclite_agrees_on_generated_logs(tmp_path: Path, sessions):
    log = write_generated_log(tmp_path / "gen-hublog.xml", sessions)
    report = export_sclite([log], tmp_path / "trn")
    errors, words = our_counts([log])
    if report.utterances == 0:
        assert words == errors == 0
        return
    sentences, reference_words, *_rest, error_count, _ = sclite(tmp_path / "trn", "rsum")
    assert (int(sentences), int(reference_words)) == (report.utterances, words)
    # sclite minimises 4 per substitution + 3 per deletion or insertion, we minimise the error count:
    # the same on speech-like data (above); on random words sclite may align with more errors, never fewer.
    assert int(error_count) >= errors
