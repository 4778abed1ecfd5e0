"""An opened log is validated in a child process only once the turn table has painted it: started with
the hand-over, the child took a core from the first paint (gui/runtime/after_paint.py)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QObject

from annotator.gui.app import parts_of
from annotator.gui.runtime.after_paint import AfterPaint


class _Order(QObject):
    """Records "paint" for each paint of the watched widget, "paint while validating" once VALIDATION has
    started; the test adds its own marks."""

    def __init__(self, widget, validation):
        super().__init__(widget)
        self.validation = validation
        self.marks: list[str] = []
        widget.installEventFilter(self)

    def eventFilter(self, _watched, event):
        if event.type() == QEvent.Type.Paint:
            self.marks.append("paint" if self.validation._validation is None else "paint while validating")
        return False


@pytest.mark.slow
def test_validation_starts_after_the_first_paint(qtbot, make_window, raw_log):
    window = make_window()
    order = _Order(parts_of(window).navigator.table.viewport(), parts_of(window).validation)
    assert parts_of(window).navigator.open_path(
        raw_log
    )  # the turns are painted before it returns (gui/opening/hand_over_passes.py)
    parts_of(window).validation.findings_shown.connect(lambda: order.marks.append("findings"))
    with qtbot.waitSignal(parts_of(window).validation.findings_shown, timeout=30000):
        pass
    assert order.marks[0] == "paint" and "findings" in order.marks
    assert parts_of(window).controller.document.path == raw_log


@pytest.mark.slow
def test_a_log_replaced_before_its_paint_is_not_validated(qtbot, make_window, raw_log, tmp_path):
    """Only the log shown is validated: the first open's wait is dropped when a second replaces it."""
    window = make_window()
    window.hide()  # nothing paints: the first log's validation waits for the longest wait, and is dropped
    other = tmp_path / "other-hublog.xml"
    other.write_bytes(raw_log.read_bytes())
    assert parts_of(window).navigator.open_path(raw_log)
    first = parts_of(window).validation._validation_start
    assert parts_of(window).navigator.open_path(other)
    assert (
        first is not parts_of(window).validation._validation_start
        and parts_of(window).validation._validation_start.waiting
    )
    with qtbot.waitSignal(parts_of(window).validation.findings_shown, timeout=30000):
        pass
    assert parts_of(window).controller.document.path == other


def test_a_hidden_widget_still_gets_its_work_done(qtbot, make_window):
    """A widget that never paints (hidden) still runs the work, after the longest wait."""
    window = make_window()
    parts_of(window).docks.waveform.hide()
    called = []
    AfterPaint(parts_of(window).waveform, lambda: called.append(True), longest_wait_ms=50)
    qtbot.waitUntil(lambda: called == [True], timeout=5000)
