"""Navigate > Most doubtful turn first: Ctrl+Enter goes to the most doubtful user turn still to transcribe.

On sample session 002 (untranscribed) the doubts are, most doubtful first: 04 "from the mile i city"
(0.83: an error message and a failed parse), 06 0.68, 10 0.35, 08 0.31, 02 0.09.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.gui.settings import DOUBT_ORDER, LOG_ORDER, AppSettings
from tests.support.gui_keys import press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _commit(qtbot, window, text: str = "") -> str:
    """Type TEXT, press Ctrl+Enter: the id of the turn it went to."""
    type_text(qtbot, window, text)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    return parts_of(window).navigator.current_turn().id


@pytest.mark.slow
def test_ctrl_enter_follows_the_doubt_order_once_the_setting_says_so(main_window, qtbot):
    window = main_window
    assert AppSettings().next_turn_order == LOG_ORDER and not window.action_table.doubtful_first.isChecked()
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    assert parts_of(window).navigator.current_turn().id == "02"
    assert _commit(qtbot, window, "i need to go to san francisco") == "04"  # log order: the next one
    window.action_table.doubtful_first.trigger()
    assert AppSettings().next_turn_order == DOUBT_ORDER  # persisted
    assert [_commit(qtbot, window, text) for text in ("from the mile high city", "denver", "oh well goodbye")] == [
        "06",
        "10",
        "08",
    ]
    assert _commit(qtbot, window, "on friday evening") == "08"  # every one transcribed: it stays
    assert "Every user turn of travel-20261121-002-hublog.xml is transcribed" in window.statusBar().currentMessage()


@pytest.mark.slow
def test_an_empty_commit_moves_on_and_an_undone_transcription_is_doubtful_again(main_window, qtbot):
    window = main_window
    window.action_table.doubtful_first.trigger()
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)  # 02
    assert _commit(qtbot, window) == "04"  # nothing typed: 02 stays to transcribe, 04 is the most doubtful
    assert _commit(qtbot, window) == "06"  # not 04 again: the current turn comes last
    assert _commit(qtbot, window, "denver") == "04"
    assert _commit(qtbot, window, "from the mile high city") == "10"
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # 04's transcription undone
    assert parts_of(window).controller.document.sessions[0].turns[3].transcription is None
    parts_of(window).navigator.select_row(1, focus_editor=True)  # 02
    assert _commit(qtbot, window) == "04"


def test_the_order_setting_is_restored_in_a_new_window(make_window, raw_log, settings):
    settings.next_turn_order = DOUBT_ORDER
    window = make_window(raw_log)
    assert window.action_table.doubtful_first.isChecked()
    window.action_table.doubtful_first.trigger()
    assert AppSettings().next_turn_order == LOG_ORDER
