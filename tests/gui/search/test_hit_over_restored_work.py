"""A corpus-search hit activated over unsaved work in a log that `annotator replace` rewrote outside the window:
Save finds the log changed on disk, Reload reads the other program's version and Restore puts the work back on
it. The window then stays on that log, with the restored work shown and unsaved, and says why the hit's log was
not opened; once the annotator has saved it, the hit opens."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from tests.support.cli import run_annotator
from tests.support.gui_keys import CTRL_SHIFT, press, type_text
from tests.support.modal_answers import BoxAnswers
from tests.support.planted_logs import plant

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _activate_the_hit(qtbot, window) -> None:
    """Return on the search dock's first hit, as the annotator picks it."""
    results = parts_of(window).corpus_search.results
    results.table.setFocus()
    results.table.setCurrentIndex(results.model.index(0, 0))
    press(qtbot, window, Key.Key_Return)


@pytest.mark.slow
def test_a_hit_does_not_carry_the_annotator_away_from_work_restored_on_a_reload(qtbot, make_window, corpus: Path):
    log = corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
    hit_log = plant(corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml", {"10": "zanzibar"})
    window = make_window(corpus)  # the corpus is what Ctrl+Shift+F searches
    navigator = parts_of(window).navigator
    assert navigator.open_path(log)
    edited = navigator.current_turn()
    type_text(qtbot, window, "a quiet morning")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    mine = edited.transcription
    assert mine.endswith("a quiet morning") and window.isWindowModified()

    press(qtbot, window, Key.Key_F, CTRL_SHIFT)
    type_text(qtbot, window, "zanzibar")
    press(qtbot, window, Key.Key_Return)
    search = parts_of(window).corpus_search
    qtbot.waitUntil(lambda: search.task is None, timeout=30000)
    assert search.results.model.rowCount() == 1

    replaced = run_annotator("replace", log, "--find", "boston", "--replace", "austin")
    assert replaced.returncode == 0, replaced.stderr
    assert b"austin" in log.read_bytes()

    answers = BoxAnswers("Save", "Reload", "Restore")
    try:
        _activate_the_hit(qtbot, window)
    finally:
        answers.stop()
    assert answers.titles == ["Unsaved annotations", "Log changed on disk", "Restore unsaved work?"]
    document = navigator.document
    assert document.path == log, "the restored work stays on the screen"
    assert document.sessions[0].turn(edited.id).transcription == mine
    others = [turn.transcription or "" for turn in document.sessions[0].user_turns if turn.id != edited.id]
    assert any("austin" in text for text in others), "on the other program's version"
    assert window.isWindowModified(), "restored, not saved"
    said = window.statusBar().currentMessage()
    assert log.name in said and "not saved" in said and "nothing else was done" in said, said

    press(qtbot, window, Key.Key_S, Mod.ControlModifier)  # the annotator looked, and keeps it
    assert not window.isWindowModified()
    _activate_the_hit(qtbot, window)
    assert navigator.document.path.resolve() == hit_log.resolve()
    assert (navigator.current_turn().session.id, navigator.current_turn().id) == ("travel:20261121:003", "10")
