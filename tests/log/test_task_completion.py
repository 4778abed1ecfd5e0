"""Task completion is "1" (completed) or "0" (not completed): fold and the app's setter refuse
anything else, validate reports it, and a log's own odd value can still be put back by undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.analysis.validation import Severity, validate_document
from annotator.annotation_files.fold import fold, read_annotations
from annotator.errors import AnnotationError, AnnotationFileError
from annotator.log.annotations import TASK_COMPLETION_VALUES, set_task_completion
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

ODD_VALUES = ["banana", "=1", "2", "-1", "01", "1.0", "yes", "true", "٢"]


def _log(tmp_path: Path, completion: str | None = None) -> LogDocument:
    extra = "" if completion is None else f'<GC_ANNOT type_task_completion="{completion}"/>'
    text = log_text([session("s1", [system_turn("1", 1000, "hi"), user_turn("2", 1002, "boston")], extra=extra)])
    return LogDocument.load(write_log(tmp_path / "log.xml", text))


def test_the_documented_values():
    assert TASK_COMPLETION_VALUES == ("1", "0")


@pytest.mark.parametrize("value", ODD_VALUES)
def test_fold_refuses_a_value_outside_the_set_and_changes_nothing(tmp_path: Path, value: str):
    doc = _log(tmp_path)
    before = doc.serialize()
    csv_path = tmp_path / "sessions.csv"
    csv_path.write_text(f'session_id,task_completion\ns1,"{value}"\n', encoding="utf-8")
    with pytest.raises(AnnotationFileError) as raised:
        fold(doc, read_annotations(csv_path))
    assert f"task completion not 1 (completed) or 0 (not completed): {value!r} for session s1;" in str(raised.value)
    assert "nothing was folded" in str(raised.value)
    assert doc.serialize() == before


@pytest.mark.parametrize("value", ["1", "0", " 1 "])
def test_fold_takes_the_documented_values(tmp_path: Path, value: str):
    doc = _log(tmp_path)
    (tmp_path / "sessions.csv").write_text(f"session_id,task_completion\ns1,{value}\n", encoding="utf-8")
    assert fold(doc, read_annotations(tmp_path / "sessions.csv")) == 1
    assert doc.sessions[0].task_completion == value.strip()


@pytest.mark.parametrize("value", ODD_VALUES + [" 1"])
def test_validate_reports_a_value_outside_the_set(tmp_path: Path, value: str):
    doc = _log(tmp_path, value)
    found = [f for f in validate_document(doc, audio=False) if f.code == "bad-task-completion"]
    assert [(f.severity, f.line, f.message) for f in found] == [
        (Severity.ERROR, 2, f"GC_ANNOT: type_task_completion {value!r} is not 1 (completed) or 0 (not completed)")
    ]


@pytest.mark.parametrize("value", ["1", "0"])
def test_validate_is_silent_about_the_documented_values(tmp_path: Path, value: str):
    assert not [f for f in validate_document(_log(tmp_path, value), audio=False) if f.code == "bad-task-completion"]


def test_mitres_spelling_is_checked_too(tmp_path: Path):
    text = log_text([session("s1", [system_turn("1", 1000, "hi")], extra='<GC_ANNOT task_completion="maybe"/>')])
    doc = LogDocument.load(write_log(tmp_path / "log.xml", text))
    found = [f.message for f in validate_document(doc, audio=False) if f.code == "bad-task-completion"]
    assert found == ["GC_ANNOT: task_completion 'maybe' is not 1 (completed) or 0 (not completed)"]


@pytest.mark.parametrize("value", ODD_VALUES)
def test_the_setter_refuses_a_value_outside_the_set(tmp_path: Path, value: str):
    doc = _log(tmp_path)
    before = doc.serialize()
    with pytest.raises(AnnotationError, match="not 1 .completed. or 0 .not completed."):
        set_task_completion(doc.sessions[0], value)
    assert doc.serialize() == before and not doc.is_modified


def test_the_setter_puts_back_a_logs_own_value_when_restoring(tmp_path: Path):
    doc = _log(tmp_path, "2")
    session_view = doc.sessions[0]
    assert set_task_completion(session_view, "1")
    assert set_task_completion(session_view, "2", restoring=True)
    assert session_view.task_completion == "2"
    assert set_task_completion(session_view, None) and session_view.task_completion is None
