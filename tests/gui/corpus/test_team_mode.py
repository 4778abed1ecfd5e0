"""Team mode in the real window, with real keys: each annotator's work goes to their own file beside
the log, comes back when they open the log again, survives a kill, and the log never changes."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.annotation_files.human_format import human_file_content
from annotator.gui.app import parts_of
from annotator.team.files import human_files_beside, human_path_of
from annotator.team.mode import MARKER_NAME, in_team_mode, set_team_mode
from tests.support.gui_keys import close_window, press, type_text
from tests.support.killed_windows import GENEROUS_SECONDS, run_and_kill
from tests.support.modal_answers import answer_input
from tests.support.team_corpora import open_window_as

Key, Mod = Qt.Key, Qt.KeyboardModifier


def _start(qtbot, window) -> None:
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)  # the first user turn, its editor focused


def _transcribe(qtbot, window, text: str) -> None:
    """Type, then Ctrl+Enter: stored, and on to the next turn still to transcribe, as the annotator works."""
    type_text(qtbot, window, text)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)


def _user_texts(window) -> list[str | None]:
    return [turn.transcription for turn in parts_of(window).controller.document.sessions[0].user_turns]


def _transcribed(window) -> list[str]:
    return sorted(text for text in _user_texts(window) if text is not None)


@pytest.mark.slow
def test_a_day_of_team_work_leaves_the_log_byte_identical(make_window, raw_log: Path, qtbot):
    corpus = raw_log.parent.parent
    set_team_mode(corpus, True)
    before = {path: path.read_bytes() for path in raw_log.parent.iterdir()}
    window = open_window_as(make_window, raw_log, "alice")
    assert parts_of(window).team.action.isChecked()
    _start(qtbot, window)
    _transcribe(qtbot, window, "i want to fly to boston")
    _transcribe(qtbot, window, "on friday")
    press(qtbot, window, Key.Key_1, Mod.ControlModifier | Mod.AltModifier)  # task completed
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert not window.isWindowModified()
    _transcribe(qtbot, window, "in the morning")
    press(qtbot, window, Key.Key_Z, Mod.ControlModifier)  # the last transcription goes again
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    close_window(window)
    mine = human_path_of(raw_log, "alice")
    assert human_file_content(mine).annotations.task_completion
    window = open_window_as(make_window, raw_log, "alice")
    assert _transcribed(window) == ["i want to fly to boston", "on friday"]
    assert not window.isWindowModified(), "the annotator's own file is what is saved"
    parts_of(window).navigator.select_turn(
        parts_of(window).controller.document.sessions[0].user_turns[2], focus_editor=True
    )
    _transcribe(qtbot, window, "in the evening")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    close_window(window)
    after = {path: path.read_bytes() for path in raw_log.parent.iterdir() if path != mine}
    assert after == before, "the log, its audio and nothing else beside it changed; no .orig.xml"
    content = human_file_content(mine)
    assert content.annotator == "alice"
    assert sorted(content.annotations.transcriptions.values()) == [
        "i want to fly to boston",
        "in the evening",
        "on friday",
    ]
    assert len(content.changed) == 4 and all(when.endswith("Z") for when in content.changed.values())


@pytest.mark.slow
def test_two_annotators_leave_two_files_each_with_only_its_own_work(make_window, raw_log: Path, qtbot):
    set_team_mode(raw_log.parent, True)
    window = open_window_as(make_window, raw_log, "alice")
    _start(qtbot, window)
    _transcribe(qtbot, window, "boston please")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    close_window(window)
    window = open_window_as(make_window, raw_log, "bob")
    assert _transcribed(window) == [], "bob starts from the log, not from alice's work"
    _start(qtbot, window)
    _transcribe(qtbot, window, "austin please")
    press(qtbot, window, Key.Key_0, Mod.ControlModifier | Mod.AltModifier)
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    close_window(window)
    files = human_files_beside(raw_log)
    assert sorted(files) == ["alice", "bob"]
    alice, bob = (human_file_content(files[name]).annotations for name in ("alice", "bob"))
    assert list(alice.transcriptions.values()) == ["boston please"] and not alice.task_completion
    assert list(bob.transcriptions.values()) == ["austin please"] and list(bob.task_completion.values()) == ["0"]


@pytest.mark.slow
def test_team_work_killed_before_saving_is_restored_and_saved_to_the_annotators_file(
    make_window, raw_log: Path, tmp_path: Path, boxes
):
    set_team_mode(raw_log.parent, True)
    original = raw_log.read_bytes()
    typed = "i want to fly to boston on friday"
    lines = run_and_kill(
        raw_log,
        tmp_path,
        [{"row": 0}, {"keys": "Ctrl+Down"}, {"type": typed}, {"keys": "Ctrl+Return"}, {"wait": GENEROUS_SECONDS}],
    )
    assert lines[-1]["state"]["transcriptions"]["02"] == typed
    answers = boxes("Restore")
    window = make_window(raw_log)  # the same annotator: the login name, as in the killed window
    assert answers.seen[0].clicked == "Restore"
    assert _user_texts(window)[0] == typed
    assert parts_of(window).controller.save()
    assert raw_log.read_bytes() == original
    mine = human_path_of(raw_log, parts_of(window).controller.settings.annotator)
    assert list(human_file_content(mine).annotations.transcriptions.values()) == [typed]


@pytest.mark.slow
def test_the_menu_switches_the_corpus_and_opens_the_log_again_in_the_new_mode(main_window, raw_log: Path, qtbot):
    window = main_window
    parts_of(window).controller.settings.annotator_for_this_run = "carol"
    action = parts_of(window).team.action
    assert not action.isChecked() and parts_of(window).controller.team_work is None
    action.trigger()
    assert (raw_log.parent / MARKER_NAME).is_file() and action.isChecked()
    assert parts_of(window).controller.team_work is not None
    _start(qtbot, window)
    _transcribe(qtbot, window, "hello")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert human_path_of(raw_log, "carol").is_file()
    action.trigger()
    assert not in_team_mode(raw_log) and not action.isChecked() and parts_of(window).controller.team_work is None
    assert _transcribed(window) == [], "outside team mode the log shows its own annotations"


@pytest.mark.slow
def test_the_annotator_name_is_asked_checked_and_kept_and_team_work_reopens_as_that_name(
    make_window, raw_log: Path, qtbot, answer_modal
):
    set_team_mode(raw_log.parent, True)
    window = open_window_as(make_window, raw_log, "alice")
    _start(qtbot, window)
    _transcribe(qtbot, window, "boston")
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    shown = answer_input(qtbot, "dora")
    window.action_table.annotator_name.trigger()
    assert [held for _label, held in shown] == ["alice"]
    settings = parts_of(window).controller.settings
    assert settings.annotator_name == "dora" and settings.annotator == "dora"
    assert parts_of(window).controller.team_work.annotator == "dora" and _transcribed(window) == [], (
        "dora starts afresh"
    )
    answer_input(qtbot, "no such/name")
    box = answer_modal()
    window.action_table.annotator_name.trigger()
    qtbot.waitUntil(lambda: box.answered)
    assert box.title == "Annotator name" and "letters, digits" in box.text
    assert settings.annotator == "dora"
