"""The assembled window: timeline, waveform, session browser and findings follow the selection."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest
from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMessageBox

from annotator.export.formats import EXPORT_FORMATS
from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from tests.support.gui_keys import close_window, press


@pytest.mark.slow
def test_docks_follow_the_keyboard_selection(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    parts = parts_of(window)
    docks = {dock.objectName() for dock in window.findChildren(QDockWidget)}
    assert {"timeline_dock", "waveform_dock", "sessions_dock", "findings_dock"} <= docks
    parts_of(window).navigator.select_row(0)  # the greeting: the key below moves from there
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    turn = parts_of(window).navigator.current_turn()
    assert turn.index == 1 and turn.speaker == "user"
    assert parts.timeline.selected_turn == 1
    assert parts.playback.clip is not None, "the user turn's audio is loaded for the waveform"
    assert parts.playback.clip.path.name.endswith("turn02-user.wav")
    close_window(window)


@pytest.mark.slow
def test_clicking_a_turn_on_the_timeline_selects_it_in_the_table(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    parts_of(window).timeline.turn_clicked.emit(4)
    assert parts_of(window).navigator.current_turn().index == 4
    assert window.table.currentIndex().row() == 4
    close_window(window)


@pytest.mark.slow
def test_a_missing_audio_file_is_a_status_message_not_an_exception(qtbot, make_window, annotated_log: Path):
    (annotated_log.parent / "travel-20261121-001-turn02-user.wav").unlink()
    window = make_window(annotated_log)
    parts_of(window).navigator.select_row(0)  # the greeting: the key below moves from there
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert parts_of(window).playback.clip is None
    assert "not found" in window.statusBar().currentMessage()
    press(qtbot, window, Qt.Key.Key_Space, Qt.KeyboardModifier.ControlModifier)  # play with nothing loaded
    assert parts_of(window).navigator.current_turn().index == 1
    close_window(window)


@pytest.mark.slow
def test_a_finding_selects_the_turn_it_is_about(qtbot, make_window, annotated_log: Path, tmp_path: Path):
    text = annotated_log.read_text(encoding="utf-8")
    turn4 = text.index('<GC_TURN id="4"')
    operation = text.index("<GC_OPERATION", turn4)
    etime = text.index('etime="', operation) + len('etime="')
    broken = text[:etime] + "0" + text[etime + 1 :]  # 1795... -> 0795...: the etime falls before the stime
    path = annotated_log.with_name("broken-hublog.xml")
    path.write_text(broken, encoding="utf-8")
    window = make_window(path)
    panel = parts_of(window).findings
    qtbot.waitUntil(lambda: any(f.code == "etime-before-stime" for f in panel.findings), timeout=10000)
    findings = [f for f in panel.findings if f.code == "etime-before-stime"]
    assert len(findings) == 1
    parts_of(window).findings.finding_activated.emit(findings[0])
    assert parts_of(window).navigator.current_turn().id == "4"
    close_window(window)


@pytest.mark.slow
def test_a_corpus_opens_into_the_session_browser_and_returns_to_the_last_log(qtbot, make_window, corpus: Path):
    window = make_window()
    browser = parts_of(window).browser
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        assert parts_of(window).navigator.open_path(corpus)
    assert parts_of(window).docks.sessions.isVisible()
    assert browser.model.rowCount() == 3
    target = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    browser.session_activated.emit(target, 0)
    assert parts_of(window).controller.document.path == target
    close_window(window)
    again = make_window()
    with qtbot.waitSignal(parts_of(again).browser.scan_finished, timeout=30000):
        parts_of(again).navigator.open_path(corpus)
    assert parts_of(again).controller.document.path.resolve() == target.resolve(), (
        "reopening the corpus returns to the last log"
    )
    close_window(again)


@pytest.mark.slow
def test_folder_without_logs_is_a_message_and_the_app_goes_on(
    qtbot, make_window, tmp_path: Path, annotated_log: Path, answer_modal
):
    window = make_window(annotated_log)
    empty = tmp_path / "empty"
    empty.mkdir()
    shutil.copy(annotated_log, tmp_path / "not-a-folder.txt")
    answer = answer_modal()
    parts_of(window).navigator.open_path(empty)
    qtbot.waitUntil(lambda: answer.answered, timeout=5000)
    assert "no log files" in answer.text
    assert parts_of(window).controller.document.path == annotated_log
    close_window(window)


@pytest.mark.slow
def test_markers_make_timeline_lanes_and_browser_columns(qtbot, make_window, corpus: Path):
    window = make_window()
    browser = parts_of(window).browser
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        parts_of(window).navigator.open_path(corpus)
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        window.action_table.load_kpis.trigger()
    timeline = parts_of(window).timeline
    assert "marker_task_completed" in timeline.lane_names()
    first_log = parts_of(window).controller.document.sessions[0]
    lane = next(lane for lane in timeline.lanes if lane.name == "marker_task_completed")
    assert len(lane.ticks) == (1 if first_log.task_completion == "1" else 0)
    headers = [browser.model.headerData(c, Qt.Orientation.Horizontal) for c in range(browser.model.columnCount())]
    assert "task_failed" in headers
    browser.filter_edit.setText("marker:task_failed")
    assert browser.proxy.rowCount() == 1
    assert browser.proxy.index(0, 1).data() == "travel:20261121:002"
    browser.filter_edit.setText("!marker:task_failed")
    assert browser.proxy.rowCount() == 2
    with qtbot.waitSignal(parts_of(window).validation.findings_shown, timeout=30000):
        parts_of(
            window
        ).controller.save()  # the saved log is validated again and its row refreshed: its marker counts stay
    row = browser.model.row_of(parts_of(window).controller.document.path, parts_of(window).navigator.session.index)
    assert browser.model.summaries[row].marker_count("marker_task_completed") is not None
    window.action_table.clear_markers.trigger()
    assert not [name for name in timeline.lane_names() if name.startswith("marker_")]
    close_window(window)


@pytest.mark.slow
def test_file_export_to_runs_in_the_background_with_progress(qtbot, make_window, annotated_log: Path, tmp_path: Path):
    window = make_window(annotated_log)
    exports = parts_of(window).exports
    entries = [
        a.objectName() for a in window.menus.file.findChildren(QAction) if a.objectName().startswith("action_export_")
    ]
    assert {"action_export_dialbb", "action_export_convlab", "action_export_sclite"} <= set(entries)
    out = tmp_path / "scenario.txt"
    assert exports.export(EXPORT_FORMATS["dialbb"], out)
    with qtbot.waitSignal(exports.task.finished, timeout=30000):
        pass
    assert out.read_text(encoding="utf-8").startswith("----init\nSystem: Welcome")
    assert "dialbb" in window.statusBar().currentMessage().lower() or "session" in window.statusBar().currentMessage()
    close_window(window)


@pytest.mark.slow
def test_saving_over_a_file_changed_on_disk_asks_overwrite_or_reload(
    qtbot, make_window, annotated_log: Path, answer_modal, boxes
):
    window = make_window(annotated_log)
    parts_of(window).navigator.set_task_completion("0")
    other = annotated_log.read_text(encoding="utf-8").replace("Where would you like to fly?", "Where to?")
    annotated_log.write_text(other, encoding="utf-8")
    answers = boxes("Reload", "Discard")  # then the unsaved edit is offered back: declined
    assert parts_of(window).controller.save()
    assert answers.titles == ["Log changed on disk", "Restore unsaved work?"]
    assert "changed by another program" in answers.seen[0].text
    answers.stop()
    assert "Where to?" in parts_of(window).controller.document.sessions[0].turns[0].system_text, (
        "reloaded: the other program's text"
    )
    assert parts_of(window).controller.document.sessions[0].task_completion == "1"
    parts_of(window).navigator.set_task_completion("0")
    annotated_log.write_text(other.replace("Where to?", "Where now?"), encoding="utf-8")
    answer_modal(QMessageBox.StandardButton.Save)  # "Overwrite"
    assert parts_of(window).controller.save()
    saved = LogDocument.load(annotated_log)
    assert saved.sessions[0].task_completion == "0" and "Where to?" in saved.sessions[0].turns[0].system_text
    close_window(window)


@pytest.mark.slow
def test_activating_the_second_of_two_sessions_sharing_an_id_shows_that_one(qtbot, make_window, corpus: Path):
    folder = corpus / "travel-20261121-002"
    log = folder / "travel-20261121-002-hublog.xml"
    tree = etree.parse(str(log))
    twin = copy.deepcopy(tree.getroot()[0])
    twin.find("GC_TURN").set("id", "99")  # told apart by its first turn; the id stays the same
    tree.getroot().append(twin)
    tree.write(str(log), encoding="UTF-8", xml_declaration=True)
    window = make_window()
    browser = parts_of(window).browser
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        assert parts_of(window).navigator.open_path(corpus)
    rows = [s for s in browser.model.summaries if s.file == log]
    assert [(s.session_id, s.session_index) for s in rows] == [("travel:20261121:002", 0), ("travel:20261121:002", 1)]
    index = browser.proxy.mapFromSource(browser.model.index(browser.model.row_of(log, 1), 0))
    browser.table.setCurrentIndex(index)
    with qtbot.waitSignal(browser.session_activated, timeout=2000):
        qtbot.keyClick(browser.table, Qt.Key.Key_Return)
    assert parts_of(window).controller.document.path == log and parts_of(window).navigator.session.index == 1
    assert parts_of(window).navigator.session.turns[0].id == "99"
    close_window(window)
