"""What the window writes for the annotator to read: file content shown literally in message boxes,
the empty window after File > Close, negative durations, and no string from a log shown unbounded."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QTreeWidgetItemIterator

from annotator.clock import format_duration
from annotator.gui.annotating.navigation import NO_LOG_TEXT
from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from annotator.gui.corpus.session_list import Column as SessionColumn
from annotator.gui.corpus.session_list import duration_text
from annotator.gui.theme import theme_colour
from annotator.log.text import SHOWN_CHARS
from tests.support.gui_keys import press
from tests.support.label_checks import cut_labels
from tests.support.modal_answers import when_modal
from tests.support.repository import REPO
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

QtRole = Qt.ItemDataRole
HOSTILE = REPO / "tests" / "hostile"
LIMIT = SHOWN_CHARS + 100  # the start of a long value plus the note of its size


class BoxReader:
    """Reads the next message box (its labels' texts and formats) and closes it with Enter."""

    def __init__(self):
        self.labels: list[tuple[str, object]] = []
        when_modal(QMessageBox, self._read)

    def _read(self, box: QMessageBox) -> None:
        self.labels = [(label.text(), label.textFormat()) for label in box.findChildren(QLabel) if label.text()]
        box.button(QMessageBox.StandardButton.Ok).click()


def test_a_refusal_naming_elements_shows_them_as_written(main_window, tmp_path):
    not_a_log = tmp_path / "not_gc.xml"
    shutil.copy(HOSTILE / "not-a-log.xml", not_a_log)
    reader = BoxReader()
    assert parts_of(main_window).navigator.open_path(not_a_log) is False
    texts = [text for text, _ in reader.labels]
    assert any("the root element is <html>, expected <GC_LOG>" in text for text in texts), texts
    assert all(text_format == text_format.PlainText for _, text_format in reader.labels)


def test_after_close_the_window_says_it_is_empty_and_how_to_open_a_log(main_window, qtbot):
    press(qtbot, main_window, Qt.Key.Key_W, Qt.KeyboardModifier.ControlModifier)
    assert parts_of(main_window).controller.document is None
    assert main_window.statusBar().currentMessage() == NO_LOG_TEXT
    label = main_window.session_bar.progress
    assert shown_text(label) == NO_LOG_TEXT, "the text the label shows, '>' included"
    assert label.toolTip() == NO_LOG_TEXT, "whole where a narrow window cuts the label"
    assert main_window.session_bar.review.text() == "", "no 'not reviewed' without a session"
    cut = cut_labels(main_window)
    assert not [line for line in cut if "No log open" in line or "reviewed" in line], cut


def shown_text(label: QLabel) -> str:
    """What LABEL displays: its text as rich text where Qt renders it so (AutoText guesses)."""
    text, text_format = label.text(), label.textFormat()
    if text_format == Qt.TextFormat.RichText or (
        text_format == Qt.TextFormat.AutoText and QtGui.Qt.mightBeRichText(text)
    ):
        document = QTextDocument()
        document.setHtml(text)
        return document.toPlainText()
    return text


def test_negative_durations_keep_their_sign_and_the_warning_colour(main_window, tmp_path):
    reversed_log = tmp_path / "reversed.xml"
    reversed_log.write_bytes(
        (HOSTILE / "etime-before-stime.xml")
        .read_bytes()
        .replace(b'stime="1000" etime="1010"', b'stime="1010" etime="1005"')
    )
    assert [duration_text(s) for s in (-5, -0.4, -65, -3725, 5)] == ["-0:05", "0:00", "-1:05", "-1:02:05", "0:05"]
    assert [format_duration(s) for s in (-0.25, -5, -65)] == ["-250 ms", "-5.00 s", "-1:05.0"]  # timeline tooltips
    assert parts_of(main_window).navigator.open_path(reversed_log)
    index = parts_of(main_window).navigator.model.index(1, Column.DURATION)
    assert index.data() == "-2.00"
    assert index.data(QtRole.ForegroundRole).color() == theme_colour("warning_text")
    assert parts_of(main_window).navigator.model.index(0, Column.DURATION).data(QtRole.ForegroundRole) is None


def test_the_session_browser_shows_a_negative_session_length_as_negative(make_window, tmp_path, qtbot):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "reversed.xml").write_bytes(
        (HOSTILE / "etime-before-stime.xml")
        .read_bytes()
        .replace(b'stime="1000" etime="1010"', b'stime="1010" etime="1005"')
    )
    window = make_window(folder)
    browser = parts_of(window).browser
    qtbot.waitUntil(lambda: browser.model.rowCount() == 1 and not browser.is_scanning)
    cell = browser.model.index(0, SessionColumn.DURATION)
    assert cell.data() == "-0:05"
    assert cell.data(QtRole.ForegroundRole) == theme_colour("warning_text")


def _huge_values_log(source: Path, target: Path, size: int) -> Path:
    """SOURCE with SIZE-character values where views show log text: an attribute, an operation
    name, the recognizer's text, the system's text and the session and turn ids."""
    text = source.read_text(encoding="utf-8")
    big = "x" * size
    text = text.replace("<GC_OPERATION ", f'<GC_OPERATION big="{big}" ', 1)
    text = re.sub(r'(<GC_OPERATION [^>]*name=")[^"]*', lambda m: m[1] + "n" * size, text, count=1)
    text = re.sub(r'(type_utt_text="asr"[^>]*>)[^<]*', lambda m: m[1] + "heard " * (size // 6), text, count=1)
    text = re.sub(r'(type_utt_text="system"[^>]*>)[^<]*', lambda m: m[1] + "said " * (size // 5), text, count=1)
    text = re.sub(r'(<GC_SESSION id=")[^"]*', lambda m: m[1] + "s" * size, text, count=1)
    text = re.sub(r'(<GC_TURN id=")[^"]*', lambda m: m[1] + "7" * size, text, count=1)
    target.write_text(text, encoding="utf-8")
    return target


def test_no_view_shows_a_huge_value_whole(make_window, raw_log, tmp_path, qtbot):
    log = _huge_values_log(raw_log, raw_log.with_name("huge-hublog.xml"), 200_000)
    window = make_window(log)
    model = parts_of(window).navigator.model
    for row in range(model.rowCount()):
        parts_of(window).navigator.select_row(row)
        for column in Column:
            index = model.index(row, column)
            for role in (QtRole.DisplayRole, QtRole.ToolTipRole):
                value = index.data(role)
                assert value is None or len(value) < LIMIT, (row, column, role, len(value))
        items = QTreeWidgetItemIterator(parts_of(window).detail)
        while items.value():
            item = items.value()
            for column in range(2):
                assert len(item.text(column)) < LIMIT and len(item.toolTip(column) or "") < LIMIT + 100
            items += 1
        assert len(window.editor.title.text()) < LIMIT
    for label in window.findChildren(QLabel):
        assert len(label.text()) < LIMIT, label.objectName()
    for lane in parts_of(window).timeline.lanes:
        assert len(lane.name) < LIMIT
        for intervals in (lane.bars, lane.ticks):
            assert all(len(intervals.label(i)) < LIMIT for i in range(len(intervals)))
    assert model.index(0, Column.SYSTEM).data().endswith(" characters in all)")


def test_a_long_session_id_reviewer_and_progress_cut_by_the_bar_are_whole_in_their_tooltips(
    make_window, settings, tmp_path, qtbot
):
    long_id = "session-" + "x" * 70 + "-of-a-corpus-with-long-names"
    path = write_log(
        tmp_path / "long.xml",
        log_text([session(long_id, [system_turn("1", 1000, "Where to?"), user_turn("2", 1005, "to boston")])]),
    )
    settings.annotator_name = "Maria.Fernanda.de.los.Angeles-Gutierrez1"
    window = make_window(path)
    window.resize(1280, 720)
    parts_of(window).appearance.zoom.set_zoom(150)
    press(qtbot, window, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    bar = parts_of(window).navigator.session_bar
    assert bar.review.text() == "reviewed by Maria.Fernanda.de.los.Angeles-Gutierrez1"
    QApplication.processEvents()
    squeezed = [
        label for label in (bar.session_name, bar.review, bar.progress) if label.width() < label.sizeHint().width()
    ]
    assert squeezed, "the bar cuts at least one of them at 1280 px and 150 %, or this test proves nothing"
    for label in (bar.session_name, bar.review, bar.progress):
        assert shown_text(label).rstrip("…") in label.toolTip(), (label.objectName(), label.toolTip())
    cut = cut_labels(window)
    assert not [line for line in cut if "reviewed" in line or "transcribed" in line or long_id[:20] in line], cut
    parts_of(window).appearance.zoom.set_zoom(100)
