"""The window's Save takes part in the exclusion of a log's writers (annotator.writes.save_lock): a save that
starts while another process is between its check and its rename waits for it, finds its change and
refuses, keeping the window's work unsaved, instead of writing first and being overwritten unseen."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from tests.support.gui_keys import press
from tests.support.save_race import hold_and_change

Key, Mod = Qt.Key, Qt.KeyboardModifier


@pytest.mark.slow
def test_ctrl_s_during_another_writers_save_waits_and_keeps_the_work(main_window, qtbot, raw_log, boxes):
    window = main_window
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)  # task completion 1, unsaved
    writer = hold_and_change(raw_log, 1.5, session=0)  # it has checked the log and saves 0 in 1.5 s
    answers = boxes("OK")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    qtbot.waitUntil(lambda: bool(answers.seen), timeout=20000)
    assert writer.wait(timeout=30) == 0, writer.stderr.read()
    assert answers.titles == ["Cannot save"]
    assert "changed by another program" in answers.seen[0].text
    assert LogDocument.load(raw_log).sessions[0].task_completion == "0", "the other writer's save stands"
    assert window.isWindowModified(), "the window's work is still there to save (or reload) by choice"
    assert parts_of(window).controller.document.sessions[0].task_completion == "1"
