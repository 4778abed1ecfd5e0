"""The replace planner and applier on a loaded log: plan, apply through the writer, undo, stale plans."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.analysis.replace import apply_changes, plan_replacements
from annotator.analysis.search import Query, SearchError
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument


def test_plan_apply_and_undo(annotated_log: Path):
    document = LogDocument.load(annotated_log)
    heard: list[str] = []
    document.add_listener(lambda change: heard.append(change.turn.id))
    changes = plan_replacements(document, Query("o"), "0")
    assert [(c.turn_id, c.before, c.after) for c in changes] == [
        ("2", "i want to fly to boston", "i want t0 fly t0 b0st0n"),
        ("4", "no boston massachusetts", "n0 b0st0n massachusetts"),
        ("6", "[noise] from chicago please", "[n0ise] fr0m chicag0 please"),
        ("8", "next tuesday morning", "next tuesday m0rning"),
        ("10", "yes please book it", "yes please b00k it"),
        ("12", "thank you bye", "thank y0u bye"),
    ]
    assert not document.is_modified and heard == []  # planning changes nothing
    assert apply_changes(document, changes) == 6
    assert heard == ["2", "4", "6", "8", "10", "12"]
    assert document.sessions[0].turn("2").transcription == "i want t0 fly t0 b0st0n"
    assert apply_changes(document, changes, undo=True) == 6
    assert not document.is_modified


def test_a_plain_replacement_is_literal(annotated_log: Path):
    changes = plan_replacements(LogDocument.load(annotated_log), Query("boston"), r"\1 \g<0>")
    assert changes[0].after == r"i want to fly to \1 \g<0>"


def test_a_stale_plan_changes_nothing(annotated_log: Path):
    document = LogDocument.load(annotated_log)
    changes = plan_replacements(document, Query("boston"), "austin")
    set_transcription(document.sessions[0].turn("4"), "no austin")
    with pytest.raises(SearchError, match="turn 4: the transcription changed since the replacement was planned"):
        apply_changes(document, changes)
    assert document.sessions[0].turn("2").transcription == "i want to fly to boston"
