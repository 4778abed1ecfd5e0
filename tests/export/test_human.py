"""MITRE human-annotation files: one per log, named after it, in the form `annotator fold` reads, so that
folding the export into logs without annotations gives the annotations back."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from annotator.annotation_files.annotation_set import SessionRef
from annotator.annotation_files.fold import canonical_without_annotations, extract, fold, read_annotations
from annotator.annotation_files.human_format import read_human_file
from annotator.export.human_files import export_human
from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.format_strategies import gen_sessions, write_generated_log

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def strip_annotations(path: Path) -> None:
    """Remove every annotation of the log at PATH, through the annotation mutators, and save it."""
    doc = LogDocument.load(path)
    for session in doc.sessions:
        set_task_completion(session, None)
        for turn in session.turns:
            set_transcription(turn, None)
    doc.save()


def test_one_file_per_log_named_after_it(transcribed_corpus: Path, tmp_path: Path):
    report = export_human([transcribed_corpus], tmp_path / "out")
    names = sorted(p.relative_to(tmp_path / "out").as_posix() for p in report.files)
    assert names == [f"travel-20261121-00{n}/travel-20261121-00{n}-human.xml" for n in (1, 2, 3)]
    assert report.sessions == 3 and report.utterances == 18
    raw = report.files[0].read_bytes()
    assert raw.startswith(b'<?xml version="1.0" encoding="UTF-8"?>\n<GC_LOG_ANNOTATIONS annot_version="2">')
    assert b"\r" not in raw
    for log in sorted(transcribed_corpus.glob("*/*-hublog.xml")):
        exported = tmp_path / "out" / log.parent.name / log.name.replace("-hublog.xml", "-human.xml")
        assert read_human_file(exported) == extract(LogDocument.load(log))


def test_a_single_log_file_gives_a_file_in_the_output_folder(annotated_log: Path, tmp_path: Path):
    report = export_human([annotated_log], tmp_path / "out")
    assert report.files == [tmp_path / "out" / "travel-20261121-001-human.xml"]
    assert read_annotations(report.files[0]).task_completion == {SessionRef("travel:20261121:001"): "1"}


@pytest.mark.slow
def test_fold_of_the_export_gives_the_annotations_back(transcribed_corpus: Path, tmp_path: Path):
    export_human([transcribed_corpus], tmp_path / "human")
    clean = tmp_path / "clean"
    shutil.copytree(transcribed_corpus, clean)
    for log in clean.glob("*/*-hublog.xml"):
        strip_annotations(log)
        assert extract(LogDocument.load(log)).transcriptions == {}
    shutil.copytree(tmp_path / "human", clean, dirs_exist_ok=True)  # each X-human.xml beside its X-hublog.xml
    result = run_annotator("fold", clean, "-o", tmp_path / "folded", timeout=None)

    assert result.returncode == 0, result.stderr
    for log in sorted(transcribed_corpus.glob("*/*-hublog.xml")):
        folded = tmp_path / "folded" / log.relative_to(transcribed_corpus)
        assert extract(LogDocument.load(folded)) == extract(LogDocument.load(log))
        assert canonical_without_annotations(folded.read_bytes()) == canonical_without_annotations(log.read_bytes())


@PROPERTY
@given(sessions=gen_sessions())
@pytest.mark.slow
def test_generated_annotations_come_back(tmp_path: Path, sessions):
    for old in tmp_path.glob("**/*"):
        if old.is_file():
            old.unlink()
    (tmp_path / "logs").mkdir(exist_ok=True)
    log = write_generated_log(tmp_path / "logs" / "gen-hublog.xml", sessions)
    original = extract(LogDocument.load(log))
    report = export_human([log], tmp_path / "out")
    assert report.files == [tmp_path / "out" / "gen-human.xml"]
    assert read_human_file(report.files[0]) == original
    strip_annotations(log)
    doc = LogDocument.load(log)
    fold(doc, read_annotations(report.files[0]))
    assert extract(doc) == original
