"""The window's way to Praat and ELAN and back: File > Export to > Praat TextGrid / ELAN, File > Fold
annotations from… (one step to undo, nothing changed when the file does not fit), and File > Open
this session in Praat (the pair written to a temporary folder, Praat started on it, detached)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from praatio import textgrid
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMenu

from annotator.export.praat_elan import export_textgrid
from annotator.gui.app import parts_of
from annotator.gui.runtime.worker import TaskState
from tests.support.gui_keys import press, type_text
from tests.support.session_spans import spanning_log

TYPED = "je veux aller à Zürich"


def _exported_grid(log: Path, out: Path, text: str | None = None) -> Path:
    """LOG's TextGrid, with TEXT typed into user turn 4's transcription (as praatio saves it)."""
    export_textgrid([log], out)
    grid = next(out.glob("*.TextGrid"))
    if text is not None:
        tg = textgrid.openTextgrid(str(grid), includeEmptyIntervals=False)
        tier = tg.getTier("transcription")
        tg.replaceTier(
            "transcription", tier.new(entries=[(s, e, text if 11 < s < 12 else label) for s, e, label in tier.entries])
        )
        tg.save(str(grid), format="long_textgrid", includeBlankSpaces=True)
    return grid


def test_file_export_to_has_praat_and_elan_and_writes_the_pair(
    make_window, annotated_log, qtbot, tmp_path, answer_modal
):
    window = make_window(annotated_log)
    titles = {a.objectName(): a.text() for a in window.menus.file.findChildren(type(window.action_table.fold_from))}
    assert titles["action_export_textgrid"].startswith("Praat TextGrid")
    assert titles["action_export_eaf"].startswith("ELAN")
    for name, suffix in (("textgrid", ".TextGrid"), ("eaf", ".eaf")):
        out = tmp_path / name
        out.mkdir()
        chosen = answer_modal(file=out)
        window.findChild(type(window.action_table.fold_from), f"action_export_{name}").trigger()
        assert chosen.answered
        qtbot.waitUntil(lambda: parts_of(window).exports.task.state is TaskState.SUCCEEDED, timeout=60000)
        assert sorted(p.name for p in out.iterdir()) == [
            "index.csv",
            f"travel-20261121-001{suffix}",
            "travel-20261121-001.wav",
        ]
        assert "each with the session's WAV" in window.statusBar().currentMessage()


def _user_turn_4_text(window) -> str | None:
    return next(t for t in parts_of(window).controller.document.sessions[0].turns if t.id == "4").transcription


def test_fold_annotations_from_a_textgrid_is_one_step_to_undo(
    make_window, annotated_log, qtbot, tmp_path, answer_modal
):
    grid = _exported_grid(annotated_log, tmp_path / "praat", TYPED)
    window = make_window(annotated_log)
    assert window.action_table.fold_from.text() == "Fo&ld annotations from…"
    assert window.action_table.fold_from in window.menus.file.actions()
    chosen = answer_modal(file=grid)
    window.action_table.fold_from.trigger()
    assert chosen.answered and chosen.title == "Fold annotations from"
    assert _user_turn_4_text(window) == TYPED
    assert window.statusBar().currentMessage() == f"Folded 1 annotation(s) from {grid.name}"
    assert parts_of(window).controller.has_unsaved_work
    qtbot.waitUntil(window.isActiveWindow)  # again, once the file dialog has gone
    press(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert _user_turn_4_text(window) == "no boston massachusetts"


def test_a_textgrid_of_another_session_changes_nothing(make_window, annotated_log, corpus, qtbot, tmp_path):
    other = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    grid = _exported_grid(other, tmp_path / "praat", TYPED)
    window = make_window(annotated_log)
    assert not parts_of(window).praat_elan.fold_file(grid)
    assert window.statusBar().currentMessage().startswith(f"Not folded: {grid}: tier turns at ")
    assert "a file of another session" in window.statusBar().currentMessage()
    assert parts_of(window).controller.undo_stack.count() == 0 and not parts_of(window).controller.has_unsaved_work


def _recording_praat(folder: Path) -> Path:
    """A `praat` that records the arguments it was started with, first on a PATH of FOLDER alone."""
    folder.mkdir()
    script = folder / "praat"
    script.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > "{folder / "arguments"}"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder / "arguments"


@pytest.mark.slow
def test_open_this_session_in_praat_writes_the_pair_and_starts_praat(
    make_window, annotated_log, qtbot, tmp_path, monkeypatch
):
    recorded = _recording_praat(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    window = make_window(annotated_log)
    assert window.action_table.open_in_praat.isEnabled()
    press(qtbot, window, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)  # the first user turn, to edit
    type_text(qtbot, window, " unsaved words")
    window.action_table.open_in_praat.trigger()
    qtbot.waitUntil(recorded.is_file, timeout=10000)
    arguments = recorded.read_text(encoding="utf-8").splitlines()
    assert arguments[0] == "--open" and len(arguments) == 3
    grid, wav = Path(arguments[1]), Path(arguments[2])
    assert grid.name == "travel-20261121-001.TextGrid" and wav == grid.with_suffix(".wav")
    assert grid.parent.name.startswith("annotator-praat-") and wav.stat().st_size > 39.8 * 8000 * 4  # stereo 16-bit
    shown = textgrid.openTextgrid(str(grid), includeEmptyIntervals=False)
    assert shown.tierNames == ("turns", "recognizer", "transcription", "system")
    assert any("unsaved words" in label for _, _, label in shown.getTier("transcription").entries), (
        "the session as the window has it, unsaved typing included"
    )
    assert parts_of(window).praat_elan.started.wait(10) == 0
    assert "in Praat from" in window.statusBar().currentMessage()
    shutil.rmtree(grid.parent)


def test_without_praat_on_the_path_the_entry_is_off(make_window, annotated_log, tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    window = make_window(annotated_log)
    assert not window.action_table.open_in_praat.isEnabled()
    assert "Praat is not on the PATH" in window.action_table.open_in_praat.statusTip()


def test_a_log_open_read_only_is_not_folded_into(make_window, annotated_log, tmp_path):
    grid = _exported_grid(annotated_log, tmp_path / "praat", TYPED)
    window = make_window(annotated_log)
    parts_of(window).controller.undo_stack.read_only = True  # as a log opened read-only beside another window has it
    assert not parts_of(window).praat_elan.fold_file(grid)
    assert parts_of(window).controller.undo_stack.count() == 0 and not parts_of(window).controller.has_unsaved_work
    assert _user_turn_4_text(window) == "no boston massachusetts"


def test_the_two_entries_have_letters_of_their_own_in_the_file_menu(make_window):
    """Alt+F then the letter: a letter two entries share only moves between them (P&raat shared Open &Recent's)."""
    window = make_window()
    letters = [a.text().split("&", 1)[1][0].lower() for a in window.menus.file.actions() if "&" in a.text()]
    letters += [
        menu.title().split("&", 1)[1][0].lower()
        for menu in window.menus.file.findChildren(QMenu)
        if "&" in menu.title()
    ]  # Open Recent, Export to
    for action in (window.action_table.fold_from, window.action_table.open_in_praat):
        letter = action.text().split("&", 1)[1][0].lower()
        assert letters.count(letter) == 1, (action.text(), letters)


def test_an_annotations_csv_folds_too_and_one_undo_takes_it_all_back(make_window, annotated_log, qtbot, tmp_path):
    from annotator.annotation_files.annotation_set import AnnotationSet
    from annotator.annotation_files.fold import write_annotations

    annotations = AnnotationSet()
    annotations.add_transcription("travel:20261121:001", "4", TYPED)
    annotations.add_task_completion("travel:20261121:001", "0")
    csv_file = tmp_path / "annotations.csv"
    write_annotations(csv_file, annotations)
    window = make_window(annotated_log)
    session = parts_of(window).controller.document.sessions[0]
    assert parts_of(window).praat_elan.fold_file(csv_file)
    assert (_user_turn_4_text(window), session.task_completion) == (TYPED, "0")
    assert window.statusBar().currentMessage() == "Folded 2 annotation(s) from annotations.csv"
    press(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert (_user_turn_4_text(window), session.task_completion) == ("no boston massachusetts", "1")


def test_open_in_praat_refuses_a_session_whose_times_span_days(make_window, qtbot, tmp_path, monkeypatch):
    """No WAV of 30 days of silence (166 GB at 16 kHz): the status bar says why, no folder is made, Praat is not
    started."""
    recorded = _recording_praat(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "temporary"))
    (tmp_path / "temporary").mkdir()
    log = spanning_log(tmp_path, "etime", seconds=30 * 86400)
    window = make_window(log)
    press(qtbot, window, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=5000)
    qtbot.keyClick(QApplication.activePopupWidget(), Qt.Key.Key_P)
    qtbot.waitUntil(lambda: "Praat was not opened" in window.statusBar().currentMessage(), timeout=10000)
    said = window.statusBar().currentMessage()
    assert f"{log}: session etime: its times span 30.0 days" in said and "nothing written" in said, said
    assert not recorded.exists() and not list((tmp_path / "temporary").iterdir())


def test_the_fold_dialog_opens_on_a_filter_showing_every_file_it_takes(make_window, annotated_log, qtbot, tmp_path):
    from PySide6.QtWidgets import QFileDialog, QListView

    from tests.support.modal_answers import when_modal

    folder = tmp_path / "to-fold"
    folder.mkdir()
    names = ["session.TextGrid", "session.eaf", "annotations.csv", "session-human.xml"]
    for name in names:
        (folder / name).write_text("", encoding="utf-8")
    window = make_window(annotated_log)
    parts_of(window).controller.document.path = folder / "log-hublog.xml"  # the dialog opens in the log's folder

    def shown_names(dialog: QFileDialog) -> tuple[str, list[str]]:
        try:
            view = dialog.findChild(QListView, "listView")
            model = view.model()
            qtbot.waitUntil(lambda: model.rowCount(view.rootIndex()) >= 2)
            qtbot.wait(300)  # the folder's files are listed in the background: let every one come
            root = view.rootIndex()
            return dialog.selectedNameFilter(), sorted(
                model.index(r, 0, root).data() for r in range(model.rowCount(root))
            )
        finally:
            dialog.reject()

    seen = when_modal(QFileDialog, shown_names)
    window.action_table.fold_from.trigger()
    assert seen and seen[0][1] == sorted(names), f"the first filter ({seen[0][0]}) hides some of them"


def test_a_fold_over_unsaved_typing_asks_naming_the_turn(make_window, annotated_log, qtbot, tmp_path, boxes):
    grid = _exported_grid(annotated_log, tmp_path / "praat", TYPED)
    window = make_window(annotated_log)
    parts = parts_of(window)
    turn = next(t for t in parts.controller.document.sessions[0].turns if t.id == "4")
    parts.navigator.select_row(turn.index, focus_editor=True)
    press(qtbot, window, Qt.Key.Key_End)
    type_text(qtbot, window, " please")
    typed = "no boston massachusetts please"

    answers = boxes("Cancel")
    assert not parts.praat_elan.fold_file(grid)
    (asked,) = answers.seen
    assert asked.title == "Fold over unsaved work?" and "turn 4 (transcription)" in asked.text
    assert turn.transcription == typed, "the typing was stored before the fold, and the fold changed nothing"
    assert window.statusBar().currentMessage().startswith(f"Not folded: {grid.name} would replace unsaved work")

    answers = boxes("Fold")
    assert parts.praat_elan.fold_file(grid)
    assert [seen.title for seen in answers.seen] == ["Fold over unsaved work?"]
    assert turn.transcription == TYPED
    assert window.statusBar().currentMessage() == (
        f"Folded 1 annotation(s) from {grid.name}, replacing unsaved work in turn 4 (transcription)"
    )
    qtbot.waitUntil(window.isActiveWindow)  # again, once the question has gone
    press(qtbot, window, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert turn.transcription == typed, "one Ctrl+Z brings the typing back"


def test_a_fold_over_saved_values_asks_nothing(make_window, annotated_log, qtbot, tmp_path, boxes):
    grid = _exported_grid(annotated_log, tmp_path / "praat", TYPED)
    window = make_window(annotated_log)
    answers = boxes("Cancel")
    assert parts_of(window).praat_elan.fold_file(grid)
    assert answers.seen == [] and _user_turn_4_text(window) == TYPED
