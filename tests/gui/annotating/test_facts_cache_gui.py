"""The window reads each turn's cached facts: painting the turn table twice walks no turn and aligns
no words the second time, and each change through the real keys re-scans exactly the changed turn,
while the table, the metrics panel, the progress and the timeline show what a fresh read shows."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from annotator.analysis import metrics_wer, word_alignment
from annotator.analysis.metrics import session_metrics
from annotator.gui.annotating.turn_table import Column
from annotator.gui.app import parts_of
from annotator.log import turn_facts
from annotator.log.document import LogDocument
from annotator.timeline import data as timeline_data
from tests.support.gui_keys import press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier


@pytest.fixture
def walks(monkeypatch: pytest.MonkeyPatch) -> dict[str, list]:
    """What the real scan_turn and word aligner were called on since the last clear()."""
    seen: dict[str, list] = {"scanned": [], "aligned": []}
    scan, align = turn_facts.scan_turn, word_alignment.align_words

    def counting_scan(el):
        seen["scanned"].append(el.get("id"))
        return scan(el)

    def counting_align(pairs):
        seen["aligned"].append(len(pairs))
        return align(pairs)

    monkeypatch.setattr(turn_facts, "scan_turn", counting_scan)
    monkeypatch.setattr(metrics_wer, "align_words", counting_align)
    return seen


def _clear(walks) -> None:
    walks["scanned"].clear()
    walks["aligned"].clear()


def _shows_what_a_fresh_read_shows(window) -> None:
    session = parts_of(window).navigator.session
    fresh = LogDocument.load(parts_of(window).controller.document.path)  # the file, then this window's edits on top
    model = parts_of(window).navigator.model
    for turn in session.turns:
        assert model.index(turn.index, Column.TRANSCRIPTION).data(Qt.ItemDataRole.EditRole) == (
            turn.transcription or ""
        )
    full = session_metrics(session)
    assert parts_of(window).metrics.metrics.values == full.values
    assert parts_of(window).metrics.metrics.reasons == full.reasons
    users = [t for t in session.turns if t.speaker == "user"]
    done = sum(1 for t in users if t.transcription is not None)
    assert window.session_bar.progress.text().startswith(f"{done} of {len(users)}")
    timeline = parts_of(window).timeline.timeline
    for position, index in enumerate(timeline.turns.payloads):
        turn = session.turns[index]
        if turn.speaker == "user":
            expected = (
                timeline_data.USER_UNTRANSCRIBED if turn.transcription is None else timeline_data.USER_TRANSCRIBED
            )
            assert timeline.turns.kinds[position] == expected
    assert fresh.sessions[0].turns[0].id == session.turns[0].id


@pytest.mark.slow
def test_a_second_paint_walks_no_turn_and_aligns_no_words(main_window, qtbot, walks):
    window = main_window
    window.table.grab()
    _clear(walks)
    window.table.grab()
    assert walks == {"scanned": [], "aligned": []}


@pytest.mark.slow
def test_ctrl_enter_rescans_the_edited_turn_only(main_window, qtbot, walks):
    window = main_window
    turn = next(t for t in parts_of(window).navigator.session.turns if t.speaker == "user")
    parts_of(window).navigator.select_turn(turn, focus_editor=True)
    window.table.grab()
    assert turn.speaker == "user" and turn.transcription is None
    _clear(walks)
    type_text(qtbot, window, "i want to go to boston")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    qtbot.waitUntil(lambda: turn.transcription == "i want to go to boston")
    qtbot.wait(10)  # the coalesced metrics redraw
    window.table.grab()
    assert walks["scanned"] == [turn.id]
    assert walks["aligned"] == [1]  # the turn's WER, once, shared by the table and the metrics
    _shows_what_a_fresh_read_shows(window)


@pytest.mark.slow
def test_every_kind_of_change_through_the_keys_is_followed(main_window, qtbot):
    window = main_window
    first = next(t for t in parts_of(window).navigator.session.turns if t.speaker == "user")
    parts_of(window).navigator.select_turn(first, focus_editor=True)
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    qtbot.waitUntil(lambda: first.transcription == "to boston")
    _shows_what_a_fresh_read_shows(window)
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)  # task completed
    qtbot.waitUntil(lambda: parts_of(window).navigator.session.task_completion == "1")
    qtbot.wait(10)
    assert parts_of(window).metrics.metrics.values["task_completion"] == "1"
    _shows_what_a_fresh_read_shows(window)
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # undo the task completion
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # undo the transcription
    qtbot.waitUntil(lambda: first.transcription is None)
    qtbot.wait(10)
    _shows_what_a_fresh_read_shows(window)
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier | Mod.ShiftModifier)  # redo the transcription
    qtbot.waitUntil(lambda: first.transcription == "to boston")
    qtbot.wait(10)
    _shows_what_a_fresh_read_shows(window)
    parts_of(window).navigator.select_turn(first)
    window.editor.text.setFocus()
    window.editor.text.selectAll()
    press(qtbot, window, Key.Key_Delete)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)  # cleared
    qtbot.waitUntil(lambda: first.transcription is None)
    qtbot.wait(10)
    _shows_what_a_fresh_read_shows(window)
