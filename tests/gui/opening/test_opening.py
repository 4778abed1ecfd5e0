"""Opening a log in the background (gui/opening/opener.py): progress, then the turns; Cancel by a real key or
click keeps what was open, undo stack and journal included; keys and closing during the load change
nothing; a broken log still says what is wrong in one line."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox, QPushButton

from annotator.errors import AnnotatorError
from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from tests.support.background_open import COPIES, SAMPLE, DuringLoad
from tests.support.gui_keys import press

Key, Mod = Qt.Key, Qt.KeyboardModifier


@pytest.mark.slow
def test_a_big_log_shows_its_progress_then_its_turns(make_window, big_log):
    window = make_window()
    watch = DuringLoad(window, None)
    assert parts_of(window).navigator.open_path(big_log)
    assert watch.seen, "no progress was reported"
    assert all(visible for *_, visible in watch.seen)
    reading = [label for _, _, label, _ in watch.seen if label.startswith("Reading big-hublog.xml")]
    size_mb = round(big_log.stat().st_size / 1e6)
    assert reading and reading[0].endswith(f"of {size_mb} MB")
    assert [done for done, *_ in watch.seen] == sorted(done for done, *_ in watch.seen)
    assert parts_of(window).controller.opener.dialog is None and not parts_of(window).controller.opener.busy
    document = parts_of(window).controller.document
    assert document.path == big_log and len(document.sessions) == COPIES
    shown = parts_of(window).navigator.session
    assert parts_of(window).navigator.model.rowCount() == len(shown.turns) > 0
    assert parts_of(window).navigator.model.index(0, 0).data() == shown.turns[0].id
    assert window.isActiveWindow()


def cancel_by_key(dialog) -> None:
    dialog.activateWindow()
    QApplication.processEvents()
    QTest.keyClick(dialog.focusWidget() or dialog, Key.Key_Escape)


def cancel_by_click(dialog) -> None:
    button = dialog.findChild(QPushButton)
    assert button.text() == "Cancel"
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("cancel", [cancel_by_key, cancel_by_click], ids=["Esc", "click"])
@pytest.mark.slow
def test_cancel_keeps_the_previous_log_its_undo_stack_and_its_journal(
    main_window, qtbot, big_log, answer_modal, cancel
):
    window = main_window
    previous = parts_of(window).controller.document
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)  # task completed: one step of unsaved work
    assert parts_of(window).controller.undo_stack.count() == 1
    discarded = []
    parts_of(window).controller.work_discarded.connect(discarded.append)
    question = answer_modal(QMessageBox.StandardButton.Discard)
    during = DuringLoad(window, cancel)
    assert not parts_of(window).navigator.open_path(big_log)
    assert question.answered and question.title == "Unsaved annotations"
    assert during.seen, "the log was not being read when Cancel was pressed"
    assert parts_of(window).controller.document is previous
    assert parts_of(window).controller.undo_stack.count() == 1 and not parts_of(window).controller.undo_stack.isClean()
    assert previous.sessions[0].task_completion == "1"
    assert discarded == []  # the journal still holds the work
    assert parts_of(window).recovery.journal is not None and parts_of(window).recovery.watched is previous
    assert parts_of(window).navigator.model.rowCount() == len(previous.sessions[0].turns)
    assert "cancelled" in window.statusBar().currentMessage()
    assert previous.path.name in window.windowTitle()
    assert not parts_of(window).controller.opener.busy


class FileDialogCloser:
    """Rejects any file dialog that appears (so that a wrongly opened one cannot hang the test) and counts them."""

    def __init__(self):
        self.seen = 0
        self.timer = QTimer()
        self.timer.setInterval(20)
        self.timer.timeout.connect(self._poll)
        self.timer.start()

    def _poll(self) -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QFileDialog):
            self.seen += 1
            dialog.reject()


@pytest.mark.slow
def test_open_and_quit_during_a_load_change_nothing(main_window, qtbot, big_log, raw_log):
    window = main_window
    closer = FileDialogCloser()
    refused: list[bool] = []

    def meddle(_dialog) -> None:
        window.table.setFocus()
        qtbot.keyClick(window.table, Key.Key_O, Mod.ControlModifier)
        qtbot.keyClick(window.table, Key.Key_Q, Mod.ControlModifier)
        refused.append(window.close())
        refused.append(parts_of(window).controller.open_path(raw_log))
        refused.append(parts_of(window).controller.close_document())

    during = DuringLoad(window, meddle)
    assert parts_of(window).navigator.open_path(big_log)
    closer.timer.stop()
    assert during.seen and closer.seen == 0
    assert refused == [False, False, False]
    assert window.isVisible()
    assert parts_of(window).controller.document.path == big_log
    assert parts_of(window).navigator.model.rowCount() == len(parts_of(window).navigator.session.turns)
    opened_on = window.table.current_row()
    press(qtbot, window, Key.Key_Down, Mod.AltModifier)  # the window takes keys again once the log is open
    assert window.table.current_row() == opened_on + 1


@pytest.mark.slow
def test_an_unreadable_log_gives_its_one_line_message_and_keeps_the_open_log(main_window, tmp_path, answer_modal):
    window = main_window
    previous = parts_of(window).controller.document
    broken = tmp_path / "broken-hublog.xml"
    broken.write_bytes(SAMPLE.read_bytes()[:5000] + b"<GC_TURN id='x'>\n</GC_SESSION>")
    with pytest.raises(AnnotatorError) as raised:
        LogDocument.load(broken)
    answer = answer_modal()
    assert not parts_of(window).navigator.open_path(broken)
    assert answer.title == "Cannot open"
    assert answer.text == str(raised.value) and "\n" not in answer.text
    assert answer.text.startswith(f"{broken}:")
    assert parts_of(window).controller.document is previous
