"""What the Concepts panel leaves in the log, the undo stack and the recovery journal, driven by real keys in the
real window: looking (Ctrl+K, Escape) stores nothing, taking the parse as it is is a command of its own, and a
value still being typed in a cell is unsaved work the journal keeps (and a SIGKILL does not lose)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from annotator.gui.app import parts_of
from annotator.journal.entries import parse_journal
from annotator.log.concepts import Concepts, reference_concepts
from annotator.log.document import LogDocument
from tests.support.gui_keys import close_window, press, type_text
from tests.support.killed_windows import GENEROUS_SECONDS, run_and_kill

Key, Mod = Qt.Key, Qt.KeyboardModifier
MUNICH = Concepts("give_source", ((":source", "Munich"),))
GENEVA = Concepts("give_source", ((":source", "Geneva"),))
TURN_6_ROW = 5  # sample 003's user turn 6: its parse says Munich, it has no reference


def _turn_6(window):
    turn = parts_of(window).navigator.session.turns[TURN_6_ROW]
    assert turn.id == "6" and reference_concepts(turn.facts()) is None
    parts_of(window).navigator.select_row(turn.index, focus_editor=True)
    return turn


@pytest.mark.slow
def test_looking_at_the_parse_and_saving_changes_nothing(qtbot, make_window, latin1_log: Path):
    before = latin1_log.read_bytes()
    window = make_window(latin1_log)
    parts = parts_of(window)
    turn = _turn_6(window)
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    assert QApplication.focusWidget() is parts.concepts.reference, "in the table, the parse shown to start from"
    press(qtbot, window, Key.Key_Escape)
    press(qtbot, window, Key.Key_Escape)
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert parts.controller.undo_stack.count() == 0 and not window.isWindowModified()
    assert reference_concepts(turn.facts()) is None
    journal = parts.recovery.journal
    assert journal is not None
    journal.flush()
    assert not journal.file.exists(), "nothing to offer at the next start"
    saved = latin1_log.read_bytes()  # a save records the time spent on the turns (gui/annotating/activity_clock.py)
    assert saved.count(b"Munich") == before.count(b"Munich"), "the parse was not written as the reference"
    assert reference_concepts(LogDocument.load(latin1_log).sessions[0].turns[TURN_6_ROW].facts()) is None

    press(qtbot, window, Key.Key_K, Mod.ControlModifier | Mod.ShiftModifier)  # the parse accepted, explicitly
    assert reference_concepts(turn.facts()) == MUNICH and parts.controller.undo_stack.count() == 1
    assert window.isWindowModified()
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    close_window(window)
    assert reference_concepts(LogDocument.load(latin1_log).sessions[0].turns[TURN_6_ROW].facts()) == MUNICH


@pytest.mark.slow
def test_a_value_being_typed_is_unsaved_and_journalled(qtbot, make_window, latin1_log: Path):
    window = make_window(latin1_log)
    parts = parts_of(window)
    turn = _turn_6(window)
    press(qtbot, window, Key.Key_K, Mod.ControlModifier)
    for character in "Geneva":  # the first key opens the cell's editor, which then has the focus
        type_text(qtbot, window, character)
    assert isinstance(QApplication.focusWidget(), QLineEdit), "typed into the value's cell"
    assert reference_concepts(turn.facts()) is None, "not stored while typing"
    assert window.isWindowModified() and parts.controller.has_unsaved_work
    journal = parts.recovery.journal
    assert journal is not None
    qtbot.waitUntil(lambda: journal.file.exists(), timeout=int(GENEROUS_SECONDS * 1000))
    edits = parse_journal(journal.file.read_bytes())[3]
    assert [(edit.turn_id, edit.text) for edit in edits.concepts] == [("6", GENEVA.compact())]
    assert not edits.transcriptions

    press(qtbot, window, Key.Key_Escape)  # the cell's typing given up: nothing left to keep
    assert not window.isWindowModified()
    qtbot.waitUntil(lambda: not journal.file.exists(), timeout=int(GENEROUS_SECONDS * 1000))


@pytest.mark.slow
def test_a_value_being_typed_comes_back_after_a_kill(make_window, latin1_log: Path, tmp_path: Path, boxes):
    plan = [{"row": TURN_6_ROW}, {"keys": "Ctrl+K"}, *({"type": c} for c in "Geneva"), {"wait": GENEROUS_SECONDS}]
    run_and_kill(latin1_log, tmp_path, plan)
    answers = boxes("Restore")
    window = make_window(latin1_log)
    assert answers.titles == ["Restore unsaved work?"]
    turn = parts_of(window).controller.document.sessions[0].turns[TURN_6_ROW]
    assert reference_concepts(turn.facts()) == GENEVA and window.isWindowModified()
