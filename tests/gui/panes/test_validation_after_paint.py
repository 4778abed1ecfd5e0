"""An opened log is validated in a child process only once the turn table has painted it: started with
the hand-over, the child took a core from the first paint (gui/runtime/after_paint.py)."""

from __future__ import annotations

import functools

import pytest
from PySide6.QtCore import QEvent, QObject

from annotator.gui.app import parts_of
from annotator.gui.panes import validation as validation_pane
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
def test_a_log_replaced_before_its_paint_is_not_validated(qtbot, make_window, raw_log, tmp_path, monkeypatch):
    """Only the log shown is validated: the first open's wait is dropped when a second replaces it. The
    longest wait is made a minute so that no timer can end it on a loaded machine: only a paint does."""
    monkeypatch.setattr(validation_pane, "AfterPaint", functools.partial(AfterPaint, longest_wait_ms=60_000))
    window = make_window()
    window.hide()  # nothing paints until the window is shown again
    pane = parts_of(window).validation
    validated: list = []
    validate = pane.validate
    monkeypatch.setattr(pane, "validate", lambda document: (validated.append(document.path), validate(document)))
    other = tmp_path / "other-hublog.xml"
    other.write_bytes(raw_log.read_bytes())
    assert parts_of(window).navigator.open_path(raw_log)
    first = pane._validation_start
    assert first is not None and first.waiting
    assert parts_of(window).navigator.open_path(other)
    assert not first.waiting and pane._validation_start is not first and pane._validation_start.waiting
    window.show()
    with qtbot.waitSignal(pane.findings_shown, timeout=30000):
        pass
    assert validated == [other] and parts_of(window).controller.document.path == other
