"""The window's files: saving in place and elsewhere, read-only logs, reopening where the annotator stopped,
Open Recent, dropping files and folders, broken logs, the questions before unsaved work is lost, and Ctrl+E."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from annotator.analysis.validation import Severity, validate_document
from annotator.gui.app import parts_of
from annotator.gui.runtime.worker import BackgroundTask, TaskState
from annotator.gui.settings import AppSettings
from annotator.log.document import LogDocument
from annotator.writes.original_copy import original_copy_path
from tests.support.gui_keys import press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier
Button = QMessageBox.StandardButton


def selected_rows(window) -> list[int]:
    return sorted({index.row() for index in window.table.selectionModel().selectedRows()})


@pytest.mark.slow
def test_save_writes_in_place_keeps_the_original_and_validates(main_window, qtbot, raw_log):
    window = main_window
    original = raw_log.read_bytes()
    parts_of(window).navigator.select_row(1, focus_editor=True)
    type_text(qtbot, window, "i need to go to san francisco")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    type_text(qtbot, window, "from the mile high city")  # typed, not committed: Ctrl+S stores it too
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert not window.isWindowModified()
    kept = original_copy_path(raw_log)
    assert kept.name == "travel-20261121-002-hublog.orig.xml"
    assert kept.read_bytes() == original
    reloaded = LogDocument.load(raw_log)
    session = reloaded.sessions[0]
    assert session.task_completion == "1"
    assert session.turns[1].transcription == "i need to go to san francisco"
    assert session.turns[3].transcription == "from the mile high city"
    errors = [f for f in validate_document(reloaded) if f.severity == Severity.ERROR]
    assert errors == []
    assert "Saved" in window.statusBar().currentMessage()
    # A second save never replaces the kept original.
    press(qtbot, window, Key.Key_0, Mod.ControlModifier | Mod.AltModifier)
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert kept.read_bytes() == original
    assert LogDocument.load(raw_log).sessions[0].task_completion == "0"


@pytest.mark.slow
def test_save_as_writes_elsewhere_and_follows_the_new_file(main_window, qtbot, raw_log, tmp_path, answer_modal):
    window = main_window
    original = raw_log.read_bytes()
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    target = raw_log.parent / "copy.xml"
    answer = answer_modal(file=target)
    press(qtbot, window, Key.Key_S, Mod.ControlModifier | Mod.ShiftModifier)
    assert answer.answered
    assert parts_of(window).controller.document.path == target
    assert "copy.xml" in window.windowTitle() and not window.isWindowModified()
    assert LogDocument.load(target).sessions[0].task_completion == "1"
    assert raw_log.read_bytes() == original
    assert str(target.resolve()) == AppSettings().recent_files[0]


@pytest.mark.slow
def test_a_read_only_log_is_not_replaced_by_save_and_the_work_stays_unsaved(
    main_window, qtbot, raw_log, boxes, answer_modal
):
    """chmod a-w protects a log from editors; a save must not replace it through os.replace in its folder."""
    window = main_window
    original = raw_log.read_bytes()
    os.chmod(raw_log, 0o444)
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    answers = boxes("OK")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    qtbot.waitUntil(lambda: bool(answers.seen))
    assert answers.titles == ["Cannot save"]
    assert raw_log.name in answers.seen[0].text and "read-only" in answers.seen[0].text
    assert raw_log.read_bytes() == original and os.stat(raw_log).st_mode & 0o777 == 0o444
    assert not original_copy_path(raw_log).exists(), "no NAME.orig.xml for a save that did not happen"
    assert window.isWindowModified()
    answers.stop()
    window.activateWindow()  # the box had the keyboard; the offscreen platform does not give it back
    qtbot.waitUntil(window.isActiveWindow)
    target = raw_log.parent / "writable-copy.xml"
    answer = answer_modal(file=target)
    press(qtbot, window, Key.Key_S, Mod.ControlModifier | Mod.ShiftModifier)
    assert answer.answered, window.statusBar().currentMessage()
    assert not window.isWindowModified(), window.statusBar().currentMessage()
    assert LogDocument.load(target).sessions[0].task_completion == "1"
    assert raw_log.read_bytes() == original


@pytest.mark.slow
def test_reopening_returns_to_the_turn_left(make_window, raw_log, qtbot):
    first = make_window(raw_log)
    parts_of(first).navigator.select_row(0)  # the greeting: the keys below start there
    first.table.setFocus()
    for _ in range(3):
        press(qtbot, first, Key.Key_Down, Mod.ControlModifier)
    assert parts_of(first).navigator.current_turn().id == "06"
    first.close()
    second = make_window(raw_log)
    assert parts_of(second).navigator.current_turn().id == "06"
    assert selected_rows(second) == [5]


@pytest.mark.slow
def test_open_recent_lists_opened_logs(make_window, raw_log, latin1_log):
    window = make_window(raw_log)
    assert parts_of(window).navigator.open_path(latin1_log)
    assert AppSettings().recent_files[:2] == [str(latin1_log.resolve()), str(raw_log.resolve())]
    window._fill_recent_menu()
    texts = [action.text() for action in window.menus.recent.actions()]
    assert texts[:2] == [str(latin1_log.resolve()), str(raw_log.resolve())]
    window.menus.recent.actions()[1].trigger()
    assert parts_of(window).controller.document.path == raw_log


def drop_paths(window, *paths: Path) -> QDropEvent:
    """What a drag from a file manager delivers: enter, move, drop, with the files as URLs."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path)) for path in paths])
    where, action = QPoint(300, 200), Qt.DropAction.CopyAction
    no_button, no_key = Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(where, action, mime, no_button, no_key)
    QApplication.sendEvent(window, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(window, QDragMoveEvent(where, action, mime, no_button, no_key))
    drop = QDropEvent(QPointF(where), action, mime, no_button, no_key)
    QApplication.sendEvent(window, drop)
    return drop


@pytest.mark.slow
def test_dropping_a_file_opens_it(main_window, qtbot, latin1_log):
    window = main_window
    assert drop_paths(window, latin1_log).isAccepted()
    qtbot.waitUntil(lambda: parts_of(window).controller.document.path == latin1_log)
    assert parts_of(window).navigator.current_turn().id == "2"  # its first user turn
    assert any("zürich" in (t.asr_text or "") for t in parts_of(window).navigator.session.turns)


@pytest.mark.slow
def test_dropping_a_folder_opens_its_first_log(main_window, qtbot, corpus):
    window = main_window
    drop_paths(window, corpus / "travel-20261121-003")
    qtbot.waitUntil(lambda: parts_of(window).controller.document.path.name == "travel-20261121-003-hublog.xml")


@pytest.mark.slow
def test_a_broken_log_shows_a_message_and_the_window_keeps_what_was_open(main_window, tmp_path, answer_modal):
    window = main_window
    before = parts_of(window).controller.document
    broken = tmp_path / "broken.xml"
    broken.write_text('<?xml version="1.0"?>\n<GC_LOG>\n  <GC_SESSION id="x" stime="1" etime="2">\n</GC_LOG>\n')
    answer = answer_modal(Button.Ok)
    assert parts_of(window).navigator.open_path(broken) is False
    assert answer.answered and answer.title == "Cannot open"
    assert answer.text.startswith(f"{broken}:4")  # file and line
    assert "\n" not in answer.text
    assert parts_of(window).controller.document is before
    assert parts_of(window).navigator.model.rowCount() == 10
    assert window.isVisible()


def test_closing_with_unsaved_work_asks_first(main_window, qtbot, answer_modal):
    window = main_window
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    answer = answer_modal(Button.Cancel)
    assert window.close() is False
    assert answer.answered and "Save the annotations" in answer.text
    assert window.isVisible() and parts_of(window).navigator.session.task_completion == "1"
    answer = answer_modal(Button.Discard)
    assert window.close() is True
    assert answer.answered and not window.isVisible()


@pytest.mark.slow
def test_opening_another_log_with_unsaved_work_asks_and_can_save(main_window, qtbot, raw_log, latin1_log, answer_modal):
    window = main_window
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)
    answer = answer_modal(Button.Cancel)
    assert parts_of(window).navigator.open_path(latin1_log) is False
    assert answer.answered and parts_of(window).controller.document.path == raw_log
    answer = answer_modal(Button.Save)
    assert parts_of(window).navigator.open_path(latin1_log) is True
    assert answer.answered and parts_of(window).controller.document.path == latin1_log
    assert LogDocument.load(raw_log).sessions[0].task_completion == "1"
    assert not window.isWindowModified()


def test_quit_key_asks_before_discarding(main_window, qtbot, answer_modal):
    window = main_window
    press(qtbot, window, Key.Key_0, Mod.ControlModifier | Mod.AltModifier)
    answer = answer_modal(Button.Discard)
    press(qtbot, window, Key.Key_Q, Mod.ControlModifier)
    assert answer.answered and not window.isVisible()


@pytest.mark.slow
def test_ctrl_e_exports_the_four_csv_tables_in_the_background(main_window, qtbot, tmp_path, answer_modal):
    window = main_window
    out = tmp_path / "export"
    out.mkdir()
    chosen = answer_modal(file=out)
    press(qtbot, window, Key.Key_E, Mod.ControlModifier)
    assert chosen.answered and "CSV" in chosen.title
    task = parts_of(window).exports.task
    assert isinstance(task, BackgroundTask), "the export runs off the GUI thread"
    qtbot.waitUntil(lambda: task.state is TaskState.SUCCEEDED, timeout=30000)
    assert sorted(p.name for p in out.iterdir()) == ["events.csv", "sessions.csv", "turns.csv", "words.csv"]
    assert "exported 1 log(s)" in window.statusBar().currentMessage()


@pytest.mark.slow
def test_ctrl_e_into_the_folder_of_the_open_log_asks_first(main_window, raw_log, qtbot, answer_modal, boxes):
    window = main_window
    folder = raw_log.parent
    answers = boxes("Cancel")
    answer_modal(file=folder)
    press(qtbot, window, Key.Key_E, Mod.ControlModifier)
    qtbot.waitUntil(lambda: bool(answers.seen), timeout=30000)
    assert "this folder holds the input" in answers.seen[0].text
    assert not (folder / "turns.csv").exists(), "nothing written unless the annotator agrees"
    assert raw_log.is_file()


@pytest.mark.slow
def test_ctrl_e_into_the_folder_of_the_open_log_writes_once_the_annotator_agrees(
    main_window, raw_log, qtbot, answer_modal, boxes
):
    window = main_window
    folder, before = raw_log.parent, raw_log.read_bytes()
    answers = boxes("Yes")  # "Write anyway?"
    answer_modal(file=folder)
    press(qtbot, window, Key.Key_E, Mod.ControlModifier)
    qtbot.waitUntil(
        lambda: (
            (folder / "events.csv").is_file()
            and parts_of(window).exports.task is not None
            and parts_of(window).exports.task.state is TaskState.SUCCEEDED
        ),
        timeout=30000,
    )
    assert "this folder holds the input" in answers.seen[0].text
    assert {"sessions.csv", "turns.csv", "events.csv"} <= {p.name for p in folder.iterdir()}
    assert raw_log.read_bytes() == before  # the log beside them is never written
    assert "exported 1 log(s)" in window.statusBar().currentMessage()
