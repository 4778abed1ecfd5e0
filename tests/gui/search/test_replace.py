"""Ctrl+H and Ctrl+Shift+H in the real window: the preview, unticking, applying as one undo step per log,
other logs saved with their originals kept, and a log another window holds left alone, said so."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from annotator.annotation_files.fold import canonical_without_annotations
from annotator.gui.app import parts_of
from annotator.gui.search.replace_dialog import ReplaceDialog
from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.document import LogDocument
from tests.support.big_log import make_big_log
from tests.support.gui_keys import press
from tests.support.modal_answers import when_modal
from tests.support.planted_logs import plant

CTRL, SHIFT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.ShiftModifier


def _in_dialog(qtbot, act: Callable[[ReplaceDialog], None]) -> list[str]:
    """Run ACT on the replace dialog once it is up; the list gets its summary line, and the dialog is closed."""

    def act_and_close(dialog: ReplaceDialog) -> str:
        try:
            act(dialog)
        finally:
            summary = dialog.summary.text()
            if dialog.isVisible():
                dialog.reject()
        return summary

    return when_modal(ReplaceDialog, act_and_close, patience_ms=60000)


def _preview(qtbot, dialog: ReplaceDialog, find: str, replacement: str) -> None:
    qtbot.keyClicks(dialog.find, find)
    qtbot.keyClicks(dialog.replacement, replacement)
    qtbot.keyClick(dialog.replacement, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialog.summary.text().startswith("Planning"), timeout=30000)


def _rows(dialog: ReplaceDialog) -> list[tuple[str, ...]]:
    tree = dialog.changes
    return [
        tuple(tree.topLevelItem(row).text(column) for column in range(tree.columnCount()))
        for row in range(tree.topLevelItemCount())
    ]


def _transcriptions(log: Path) -> dict[str, str | None]:
    return {turn.id: turn.transcription for turn in LogDocument.load(log).sessions[0].turns if turn.speaker == "user"}


def test_ctrl_h_previews_applies_the_ticked_changes_as_one_step_and_ctrl_z_undoes_them(
    qtbot, make_window, annotated_log: Path
):
    window = make_window(annotated_log)
    stack = parts_of(window).controller.undo_stack
    rows: list = []

    def act(dialog: ReplaceDialog) -> None:
        _preview(qtbot, dialog, "o", "0")
        rows.extend(_rows(dialog))
        assert dialog.summary.text() == "6 of 6 change(s) ticked, in 1 log(s)"
        dialog.changes.topLevelItem(1).setCheckState(0, Qt.CheckState.Unchecked)  # turn 4 stays as it is
        assert dialog.summary.text() == "5 of 6 change(s) ticked, in 1 log(s)"
        qtbot.mouseClick(dialog.apply, Qt.MouseButton.LeftButton)

    parts_of(window).navigator.select_row(1, focus_editor=True)
    assert QApplication.focusWidget() is parts_of(window).navigator.editor.text  # Ctrl+H works while typing too
    _in_dialog(qtbot, act)
    press(qtbot, window, Qt.Key.Key_H, CTRL)
    assert rows[0] == (
        annotated_log.name,
        "travel:20261121:001",
        "2",
        "i want to fly to boston",
        "i want t0 fly t0 b0st0n",
    )
    session = parts_of(window).navigator.document.sessions[0]
    assert session.turn("2").transcription == "i want t0 fly t0 b0st0n"
    assert session.turn("4").transcription == "no boston massachusetts"
    assert stack.count() == 1 and stack.undoText() == "Replace 'o' with '0' in 5 transcriptions"
    assert "*" in window.windowTitle()
    assert parts_of(window).navigator.model.index(1, 6).data() == "i want t0 fly t0 b0st0n"
    # Once the dialog has gone the window is active again, its editor focused, not the hidden dialog's button.
    qtbot.waitUntil(
        lambda: (
            QApplication.activeWindow() is window
            and QApplication.focusWidget() is parts_of(window).navigator.editor.text
        )
    )
    press(qtbot, window, Qt.Key.Key_Z, CTRL)
    assert session.turn("2").transcription == "i want to fly to boston"
    assert session.turn("12").transcription == "thank you bye"
    assert not parts_of(window).navigator.document.is_modified


def test_a_bad_regex_in_the_preview_is_one_line(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)

    def act(dialog: ReplaceDialog) -> None:
        dialog.regex.setChecked(True)
        _preview(qtbot, dialog, "(o", "0")
        assert not dialog.apply.isEnabled()

    seen = _in_dialog(qtbot, act)
    press(qtbot, window, Qt.Key.Key_H, CTRL)
    assert seen == ["bad regular expression '(o': missing ), unterminated subpattern at position 0"]
    assert parts_of(window).controller.undo_stack.count() == 0


def test_ctrl_shift_h_replaces_across_the_corpus(qtbot, make_window, corpus: Path):
    second = plant(corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml", {"04": "from the mile high city"})
    third = plant(
        corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml",
        {"8": "no the mile zurich", "10": "the mile third"},
    )
    for log in (second, third):
        log.with_name(log.name.replace(".xml", ".orig.xml")).unlink(missing_ok=True)
    raw = {log: log.read_bytes() for log in (second, third)}
    first = corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
    window = make_window(first)
    parts_of(window).navigator.open_path(corpus)
    assert parts_of(window).navigator.document.path == first
    model = parts_of(window).navigator.model
    model.setData(model.index(7, 6), "next tuesday the mile morning")  # the open log: an unsaved edit
    rows: list = []

    def act(dialog: ReplaceDialog) -> None:
        _preview(qtbot, dialog, "the mile", "the mile high")
        rows.extend(row[:3] for row in _rows(dialog))
        assert dialog.summary.text().startswith("4 of 4 change(s) ticked, in 3 log(s)")
        qtbot.mouseClick(dialog.apply, Qt.MouseButton.LeftButton)

    _in_dialog(qtbot, act)
    with qtbot.waitSignal(parts_of(window).replace.others_saved, timeout=60000) as saved:
        press(qtbot, window, Qt.Key.Key_H, CTRL | SHIFT)
        assert "saving 2 other log(s)" in window.statusBar().currentMessage()  # on a worker: the window goes on
    assert saved.args == [[second, third]]
    assert rows == [
        ("travel-20261121-001/travel-20261121-001-hublog.xml", "travel:20261121:001", "8"),
        ("travel-20261121-002/travel-20261121-002-hublog.xml", "travel:20261121:002", "04"),
        ("travel-20261121-003/travel-20261121-003-hublog.xml", "travel:20261121:003", "8"),
        ("travel-20261121-003/travel-20261121-003-hublog.xml", "travel:20261121:003", "10"),
    ]
    assert (
        parts_of(window).navigator.document.sessions[0].turn("8").transcription == "next tuesday the mile high morning"
    )
    assert parts_of(window).controller.undo_stack.count() == 2  # the edit, then the replace: one step for the open log
    assert _transcriptions(second)["04"] == "from the mile high high city"
    assert _transcriptions(third)["10"] == "the mile high third"
    for log in (second, third):
        assert log.with_name(log.name.replace(".xml", ".orig.xml")).read_bytes() == raw[log]
        assert canonical_without_annotations(log.read_bytes()) == canonical_without_annotations(raw[log])
    assert "2 other log(s) saved" in window.statusBar().currentMessage()


def test_a_log_another_window_holds_is_left_alone_and_said_so(qtbot, make_window, corpus: Path):
    second = plant(corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml", {"04": "the mile"})
    before = second.read_bytes()
    RecoveryJournal(LogDocument.load(second), instance="another-window").hold()  # a live window of this process
    window = make_window(corpus)

    def act(dialog: ReplaceDialog) -> None:
        _preview(qtbot, dialog, "mile", "smile")
        assert _rows(dialog) == []
        assert not dialog.apply.isEnabled()

    seen = _in_dialog(qtbot, act)
    press(qtbot, window, Qt.Key.Key_H, CTRL | SHIFT)
    assert seen[0].startswith(
        "Nothing to replace\ntravel-20261121-002-hublog.xml: 1 change(s) not offered: open in another window (process "
    )
    assert second.read_bytes() == before


@pytest.mark.slow
def test_the_preview_reads_a_big_open_log_in_the_background(qtbot, make_window, tmp_path: Path):
    """Enter in Ctrl+H's dialog on a 10 MB open log: the window's thread only starts the plan (it read
    every session's transcriptions first, on its own thread)."""
    window = make_window(make_big_log(tmp_path / "big-hublog.xml", 10))
    seen: dict[str, object] = {}

    def act(dialog: ReplaceDialog) -> None:
        qtbot.keyClicks(dialog.find, "boston")
        qtbot.keyClicks(dialog.replacement, "austin")
        started = time.monotonic()
        qtbot.keyClick(dialog.replacement, Qt.Key.Key_Return)
        seen["key"] = time.monotonic() - started
        qtbot.waitUntil(lambda: not dialog.summary.text().startswith("Planning"), timeout=120000)
        seen["rows"] = dialog.changes.topLevelItemCount()

    _in_dialog(qtbot, act)
    press(qtbot, window, Qt.Key.Key_H, CTRL)
    assert seen["key"] < 1.0 and seen["rows"] > 0
