"""The live diff under the editor keeps to its lines: a long one is cut there with an ellipsis and shows whole
in its tooltip, the hint below it stays clear and the text box keeps its height. (The window is closed by
the fixture, which drops the typing these tests leave.)"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from annotator.gui.annotating.diff_line import DIFF_LINES
from annotator.gui.app import parts_of
from tests.support.gui_keys import type_text

LONG_ANSWER = (
    " and then i would like a hotel in boston near the airport with a shuttle and a late checkout because my"
    " flight back leaves in the evening and i need a rental car too with unlimited mileage and a child seat"
    " for my daughter who is four years old please also book a table for dinner on friday"
)


def test_a_long_live_diff_keeps_to_its_lines_below_the_text_box(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    window.resize(1000, 700)
    parts_of(window).navigator.select_row(3, focus_editor=True)
    editor = window.editor
    text_height = editor.text.height()
    type_text(qtbot, window, LONG_ANSWER)
    QApplication.processEvents()
    diff, hint = editor.diff, editor.hint
    assert "rental" in diff.text()
    assert diff.height() <= DIFF_LINES * diff.fontMetrics().lineSpacing() + 2, f"the diff is {diff.height()} px high"
    assert diff.geometry().bottom() < hint.geometry().top(), (
        f"the diff {diff.geometry()} over the hint {hint.geometry()}"
    )
    assert editor.text.height() >= max(text_height, editor.text.minimumHeight()), "the text box lost lines"
    assert diff.is_cut() and diff.toolTip() == diff.text(), "a cut diff shows whole in its tooltip"


def test_a_short_live_diff_has_no_tooltip(qtbot, make_window, annotated_log: Path):
    window = make_window(annotated_log)
    parts_of(window).navigator.select_row(3, focus_editor=True)
    type_text(qtbot, window, " please")
    QApplication.processEvents()
    assert "please" in window.editor.diff.text() and not window.editor.diff.is_cut()
    assert window.editor.diff.toolTip() == ""
