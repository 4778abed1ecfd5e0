"""Compare and adjudication in the real window, with real keys: two and three annotators' files with planted
disagreements (tests/support/compare_logs.py) shown side by side, F6 / Shift+F6 from one disagreement to the
next, Alt+letter taking a version (Ctrl+Z restoring), and Save adjudication writing the log and its sidecar
while the annotators' files stay as they were."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMessageBox

from annotator.annotation_files.fold import canonical_without_annotations, extract
from annotator.gui.app import parts_of
from annotator.log.concepts import reference_concepts
from annotator.log.document import LogDocument
from annotator.team.mode import set_team_mode
from tests.support.compare_logs import CONCEPTS, DISAGREEING_TURNS, make_team_log
from tests.support.dtd_validity import validity_errors
from tests.support.gui_keys import press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier
Role = Qt.ItemDataRole


def _compare(qtbot, window):
    parts_of(window).navigator.select_row(0)  # the greeting, where F6 and the rows below start
    press(qtbot, window, Key.Key_C, Mod.ControlModifier | Mod.ShiftModifier)
    return parts_of(window).compare


def _cell(compare, row: int, column: int) -> str:
    model = compare.view.model
    return model.index(row, column).data(Role.DisplayRole)


def _row_names(compare) -> list[str]:
    model = compare.view.model
    return [_cell(compare, row, 0) for row in range(model.rowCount())]


def _selected(window) -> tuple[str, str | None]:
    """(the Compare row's first cell, the turn table's selected turn id)."""
    compare = parts_of(window).compare
    turn = parts_of(window).navigator.current_turn()
    return _cell(compare, compare.view.current_row(), 0), None if turn is None else turn.id


def _turn(window, turn_id: str):
    return next(turn for turn in parts_of(window).controller.document.sessions[0].turns if turn.id == turn_id)


def _sidecar(log: Path) -> dict[tuple[str, str], dict[str, str]]:
    with open(log.with_name(log.stem + ".adjudication.csv"), encoding="utf-8", newline="") as stream:
        return {(row["turn_id"], row["field"]): row for row in csv.DictReader(stream)}


@pytest.fixture
def two(tmp_path) -> Path:
    return make_team_log(tmp_path / "two")


@pytest.fixture
def three(tmp_path) -> Path:
    return make_team_log(tmp_path / "three", ("alice", "bob", "carol"))


def test_compare_shows_each_annotator_side_by_side_with_the_differing_words_highlighted(qtbot, make_window, two):
    window = make_window(two)
    compare = _compare(qtbot, window)
    assert compare.dock.isVisible() and compare.view.table.isVisible()
    model = compare.view.model
    headers = [model.headerData(column, Qt.Orientation.Horizontal) for column in range(model.columnCount())]
    assert headers == ["Turn", "A: alice", "B: bob", "Adjudicated", "Source"]
    assert _row_names(compare) == ["2", "4", "6", "8", "10", "12", "Task completion"]
    alice, bob = _cell(compare, 0, 1), _cell(compare, 0, 2)
    assert "want to fly to" in alice and ">boston</span>" in alice and ">austin</span>" in bob
    assert "want</span>" not in bob, "only the differing word is highlighted"
    assert "span" not in _cell(compare, 1, 2), "Boston, Massachusetts: the same words after normalisation"
    assert ">next tuesday morning" not in _cell(compare, 3, 1) and ">morning</span>" in _cell(compare, 3, 1)
    assert CONCEPTS["bob"].compact() in _cell(compare, 4, 2)
    assert _cell(compare, 5, 2) == "<i>(none)</i>"
    assert ">1</span>" in _cell(compare, 6, 1) and ">0</span>" in _cell(compare, 6, 2)
    assert [model.disagrees(row) for row in range(model.rowCount())] == [True, False, False, True, True, False, True]
    assert [_cell(compare, row, 4) for row in (0, 1, 4, 6)] == [
        "disagree",
        "agreed (taken on saving)",
        "agreed (taken on saving), concepts disagree",
        "task completion disagree",
    ]
    assert "4 disagreement(s)" in window.statusBar().currentMessage()


def test_f6_goes_to_each_disagreement_in_order_and_selects_its_turn(qtbot, make_window, two):
    window = make_window(two)
    _compare(qtbot, window)
    parts_of(window).navigator.select_turn(_turn(window, "1"))  # a system turn: no Compare row
    visited = []
    for _ in range(4):
        press(qtbot, window, Key.Key_F6)
        visited.append(_selected(window))
    assert visited == [("2", "2"), ("8", "8"), ("10", "10"), ("Task completion", "10")]
    press(qtbot, window, Key.Key_F6)
    assert "No disagreement after" in window.statusBar().currentMessage()
    press(qtbot, window, Key.Key_F6, Mod.ShiftModifier)
    assert _selected(window) == ("10", "10")
    press(qtbot, window, Key.Key_F6, Mod.ShiftModifier)
    assert _selected(window) == ("8", "8")
    parts_of(window).navigator.select_turn(_turn(window, "5"))  # a system turn between user turns 4 and 6
    press(qtbot, window, Key.Key_F6)
    assert _selected(window) == ("8", "8")
    parts_of(window).navigator.select_turn(_turn(window, "5"))
    press(qtbot, window, Key.Key_F6, Mod.ShiftModifier)
    assert _selected(window) == ("2", "2")


def test_selecting_a_turn_in_the_turn_table_selects_its_compare_row(qtbot, make_window, two):
    window = make_window(two)
    compare = _compare(qtbot, window)
    parts_of(window).navigator.select_turn(_turn(window, "6"))
    assert _selected(window) == ("6", "6")
    compare.view.row_chosen.emit(3)
    assert parts_of(window).navigator.current_turn().id == "8"


def test_alt_b_takes_bobs_version_and_ctrl_z_restores(qtbot, make_window, two):
    window = make_window(two)
    compare = _compare(qtbot, window)
    press(qtbot, window, Key.Key_F6)
    turn = _turn(window, "2")
    assert turn.transcription is None
    press(qtbot, window, Key.Key_B, Mod.AltModifier)
    assert turn.transcription == "i want to fly to austin"
    assert _cell(compare, 0, 3) == "i want to fly to austin" and _cell(compare, 0, 4) == "take:bob"
    assert window.isWindowModified()
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)
    assert turn.transcription is None and _cell(compare, 0, 4) == "disagree"
    press(qtbot, window, Key.Key_F6)
    press(qtbot, window, Key.Key_F6)  # turn 10: the same words, concepts differ
    press(qtbot, window, Key.Key_B, Mod.AltModifier)
    turn = _turn(window, "10")
    assert turn.transcription == "yes please book it" and reference_concepts(turn.facts()) == CONCEPTS["bob"]
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # one step: both fields go back
    assert turn.transcription is None and reference_concepts(turn.facts()) is None
    press(qtbot, window, Key.Key_F6)
    press(qtbot, window, Key.Key_A, Mod.AltModifier)
    assert parts_of(window).controller.document.sessions[0].task_completion == "1"
    press(qtbot, window, Key.Key_D, Mod.AltModifier)
    assert window.statusBar().currentMessage() == "There is no annotator D: 2 are compared"


@pytest.mark.slow
def test_save_adjudication_writes_the_log_and_its_sidecar_and_never_the_annotators_files(qtbot, make_window, two):
    folder = two.parent
    human_files = {path: path.read_bytes() for path in folder.glob("*-human-*.xml")}
    original = two.read_bytes()
    window = make_window(two)
    parts_of(window).controller.settings.annotator_for_this_run = "judge"
    _compare(qtbot, window)
    press(qtbot, window, Key.Key_F6)
    press(qtbot, window, Key.Key_B, Mod.AltModifier)  # turn 2: bob's
    press(qtbot, window, Key.Key_F6)  # turn 8: edited in the editor
    parts_of(window).navigator.editor.focus_text()
    type_text(qtbot, window, "next tuesday in the morning")
    press(qtbot, window, Key.Key_F6)  # turn 10 (the typing is stored on leaving): left as it is
    press(qtbot, window, Key.Key_F6)
    press(qtbot, window, Key.Key_A, Mod.AltModifier)  # task completion: alice's
    window.findChild(QAction, "action_save_adjudication").trigger()
    assert not window.isWindowModified()
    assert {path: path.read_bytes() for path in folder.glob("*-human-*.xml")} == human_files
    assert two.with_name(two.stem + ".orig.xml").read_bytes() == original
    assert canonical_without_annotations(two.read_bytes()) == canonical_without_annotations(original)
    assert set(validity_errors(two)) <= set(validity_errors(two.with_name(two.stem + ".orig.xml")))
    saved = extract(LogDocument.load(two))
    texts = {saved.turn_id(ref): text for ref, text in saved.transcriptions.items()}
    assert texts == {
        "2": "i want to fly to austin",
        "4": "no boston massachusetts",
        "6": "[noise] from chicago please",
        "8": "next tuesday in the morning",
        "10": "yes please book it",
        "12": "thank you bye",
    }
    assert list(saved.task_completion.values()) == ["1"] and not saved.concepts
    rows = _sidecar(two)
    assert {key: row["source"] for key, row in rows.items()} == {
        ("2", "transcription"): "take:bob",
        ("4", "transcription"): "agreed",
        ("6", "transcription"): "agreed",
        ("8", "transcription"): "edited",
        ("10", "transcription"): "agreed",
        ("10", "concepts"): "left",
        ("12", "transcription"): "agreed",
        ("", "task_completion"): "take:alice",
    }
    assert rows[("8", "transcription")]["value"] == "next tuesday in the morning"
    assert rows[("10", "concepts")]["value"] == ""
    assert rows[("2", "transcription")]["annotators"] == "alice=i want to fly to boston; bob=i want to fly to austin"
    assert {row["adjudicator"] for row in rows.values()} == {"judge"}
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # the agreed values taken when saving: one undo step
    assert _turn(window, "4").transcription is None and _turn(window, "2").transcription == "i want to fly to austin"


@pytest.mark.slow
def test_a_turn_no_annotator_transcribed_typed_by_the_adjudicator_has_its_row_in_the_sidecar(
    qtbot, make_window, tmp_path
):
    log = make_team_log(tmp_path / "untranscribed", untranscribed=("4", "6"))
    window = make_window(log)
    parts_of(window).controller.settings.annotator_for_this_run = "judge"
    compare = _compare(qtbot, window)
    assert compare.comparison.given((0, _turn(window, "6").index, "transcription")) == {}
    navigator = parts_of(window).navigator
    navigator.select_turn(_turn(window, "4"), focus_editor=True)
    type_text(qtbot, window, "no boston")
    navigator.select_turn(_turn(window, "6"), focus_editor=True)  # turn 4's typing is stored on leaving
    assert _turn(window, "4").transcription == "no boston"
    type_text(qtbot, window, "from chicago please")
    navigator.select_turn(_turn(window, "4"), focus_editor=True)
    press(qtbot, window, Key.Key_A, Mod.ControlModifier)
    press(qtbot, window, Key.Key_Delete)
    window.findChild(QAction, "action_save_adjudication").trigger()
    assert not window.isWindowModified()
    saved = extract(LogDocument.load(log))
    assert {saved.turn_id(ref): text for ref, text in saved.transcriptions.items()}["6"] == "from chicago please"
    row = _sidecar(log)[("6", "transcription")]
    assert (row["value"], row["source"], row["annotators"], row["adjudicator"]) == (
        "from chicago please",
        "edited",
        "",
        "judge",
    )
    assert row["session_id"] == _sidecar(log)[("2", "transcription")]["session_id"]
    assert _turn(window, "4").transcription is None
    assert ("4", "transcription") not in _sidecar(log), "typed, then removed: the log holds what it held"
    assert ("6", "concepts") not in _sidecar(log), "a field nobody gave nor changed has no row"


@pytest.mark.slow
def test_three_annotators_alt_c_takes_carols_version(qtbot, make_window, three):
    window = make_window(three)
    compare = _compare(qtbot, window)
    model = compare.view.model
    assert [model.headerData(column, Qt.Orientation.Horizontal) for column in (1, 2, 3)] == [
        "A: alice",
        "B: bob",
        "C: carol",
    ]
    assert ">denver</span>" in _cell(compare, 0, 3) and ">austin</span>" in _cell(compare, 0, 2)
    visited = []
    for _ in range(4):
        press(qtbot, window, Key.Key_F6)
        visited.append(_selected(window)[0])
    assert visited == [*DISAGREEING_TURNS, "Task completion"]
    press(qtbot, window, Key.Key_F6, Mod.ShiftModifier)
    press(qtbot, window, Key.Key_F6, Mod.ShiftModifier)
    press(qtbot, window, Key.Key_F6, Mod.ShiftModifier)
    assert _selected(window) == ("2", "2")
    press(qtbot, window, Key.Key_C, Mod.AltModifier)
    assert _turn(window, "2").transcription == "i want to fly to denver"
    assert _cell(compare, 0, model.source_column()) == "take:carol"
    window.findChild(QAction, "action_save_adjudication").trigger()
    assert _sidecar(three)[("2", "transcription")]["source"] == "take:carol"
    assert _sidecar(three)[("", "task_completion")]["source"] == "left", "2 to 1 is for a person in the window"


@pytest.mark.slow
def test_in_team_mode_the_adjudication_is_saved_into_the_log_itself(qtbot, make_window, two):
    set_team_mode(two.parent, True)
    human_files = {path: path.read_bytes() for path in two.parent.glob("*-human-*.xml")}
    window = make_window()
    parts_of(window).controller.settings.annotator_for_this_run = "judge"
    assert parts_of(window).navigator.open_path(two)
    assert parts_of(window).controller.team_work is not None
    _compare(qtbot, window)
    press(qtbot, window, Key.Key_F6)
    press(qtbot, window, Key.Key_A, Mod.AltModifier)
    window.findChild(QAction, "action_save_adjudication").trigger()
    assert _turn(window, "2").transcription == "i want to fly to boston"
    texts = extract(LogDocument.load(two)).transcriptions
    assert "i want to fly to boston" in texts.values()
    assert two.with_name(two.stem + ".orig.xml").exists()
    assert {path: path.read_bytes() for path in two.parent.glob("*-human-*.xml")} == human_files
    assert not window.isWindowModified()
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)  # the team save after it: nothing of the judge's own
    assert parts_of(window).controller.team_work.own_annotations().transcriptions == {}


def test_no_annotators_files_beside_the_log_is_one_message(qtbot, make_window, tmp_path):
    log = make_team_log(tmp_path / "none", ())
    window = make_window(log)
    compare = _compare(qtbot, window)
    text = compare.view.message.text()
    assert text.startswith(f"No two annotators' files beside {log.name}") and "planted-001-human-NAME.xml" in text
    assert window.statusBar().currentMessage() == text
    assert not compare.view.table.isVisible() and not compare.view.save_button.isVisible()
    press(qtbot, window, Key.Key_F6)
    assert window.statusBar().currentMessage().startswith("Nothing is compared")
    press(qtbot, window, Key.Key_B, Mod.AltModifier)
    assert not window.isWindowModified()
    assert not log.with_name(log.stem + ".adjudication.csv").exists()


def test_one_annotators_file_is_nothing_to_compare(qtbot, make_window, tmp_path):
    log = make_team_log(tmp_path / "one", ("alice",))
    window = make_window(log)
    compare = _compare(qtbot, window)
    assert "(only alice's)" in compare.view.message.text()
    assert compare.comparison is None


def test_the_session_browser_compares_the_selected_session(qtbot, make_window, two):
    window = make_window()
    browser = parts_of(window).browser
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        assert parts_of(window).navigator.open_path(two.parent)
    browser.table.setCurrentIndex(browser.proxy.index(0, 0))
    entry = browser.findChild(QAction, "compare_session")
    assert entry in browser.table.actions()
    entry.trigger()
    assert parts_of(window).compare.comparison is not None and parts_of(window).compare.dock.isVisible()
    assert parts_of(window).compare.comparison.names == ["alice", "bob"]


def test_a_save_the_user_turns_down_writes_no_record(qtbot, make_window, answer_modal, two):
    window = make_window(two)
    _compare(qtbot, window)
    press(qtbot, window, Key.Key_F6)
    press(qtbot, window, Key.Key_B, Mod.AltModifier)
    other_program = two.read_bytes().replace(b"</GC_LOG>", b"<!-- another program -->\n</GC_LOG>")
    two.write_bytes(other_program)
    answer = answer_modal(QMessageBox.StandardButton.Cancel)  # "changed on disk": neither overwrite nor reload
    window.findChild(QAction, "action_save_adjudication").trigger()
    assert answer.answered and "changed" in (answer.text or "")
    assert two.read_bytes() == other_program
    assert not two.with_name(two.stem + ".adjudication.csv").exists()
    assert window.isWindowModified()
