"""Edit > Preferences (Ctrl+,) on the real window: its pages come from the one table, a change is stored
and applied at once (menu check marks, speed, Playback > Back, the editor's font, the annotator's name,
the journal folder), it is announced to the parts that follow it, and each page restores its defaults."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QComboBox, QLabel

from annotator.gui.app import parts_of
from annotator.gui.preferences.dialog import KEYS_PAGE, PreferencesDialog
from annotator.gui.preferences.table import PAGES, PREFERENCES, on_page
from annotator.gui.settings import DOUBT_ORDER, AppSettings
from annotator.gui.theme import is_dark
from tests.support.gui_keys import close_window, press, type_text

Key, Mod = Qt.Key, Qt.KeyboardModifier


def open_preferences(qtbot, window) -> PreferencesDialog:
    press(qtbot, window, Key.Key_Comma, Mod.ControlModifier)
    dialog = parts_of(window).preferences.dialog
    assert isinstance(dialog, PreferencesDialog) and dialog.isVisible()
    qtbot.waitUntil(dialog.isActiveWindow)  # the keys typed next go to the dialog
    return dialog


def choose(qtbot, box: QComboBox, value) -> None:
    """Pick VALUE's entry in BOX from the keyboard, as the annotator would."""
    box.setFocus()
    box.setCurrentIndex(0)
    for _entry in range(box.count()):
        if box.currentData() == value:
            return
        qtbot.keyClick(box, Key.Key_Down)
    assert box.currentData() == value


def enter_number(qtbot, dialog: PreferencesDialog, name: str, text: str) -> None:
    box = dialog.widgets[name].box
    box.setFocus()
    box.selectAll()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Key.Key_Return)


def test_ctrl_comma_opens_one_page_per_group_with_every_setting_of_the_table(make_window, qtbot):
    window = make_window()
    assert window.action_table.preferences in window.menus.edit.actions()
    dialog = open_preferences(qtbot, window)
    pages = [dialog.page_list.item(row).text() for row in range(dialog.page_list.count())]
    assert pages == [*PAGES, KEYS_PAGE] == ["Playback", "Editor", "Appearance", "Team", "Paths", "Keys"]
    assert set(dialog.widgets) == {p.name for p in PREFERENCES}
    for index, page in enumerate(PAGES):
        shown = dialog.pages.widget(index)
        assert {p.name for p in on_page(page)} == {
            w.preference.name for w in dialog.widgets.values() if w.parentWidget() is shown
        }
    assert {p.name for p in on_page("Playback")} == {
        "auto_play",
        "rewind_on_resume",
        "back_seconds",
        "speed",
        "normalise_loudness",
        "loudness_target",
        "pause_while_typing",
        "place_words",
        "typing_idle_seconds",
    }


def test_a_check_box_is_stored_at_once_and_its_menu_check_mark_follows(make_window, qtbot):
    window = make_window()
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Editor")
    box = dialog.widgets["prefill_automatically"].box
    assert not window.action_table.prefill_automatically.isChecked()
    box.setFocus()
    qtbot.keyClick(box, Key.Key_Space)
    assert AppSettings().prefill_automatically is True
    assert window.action_table.prefill_automatically.isChecked() and window.editor.auto_prefill
    window.action_table.prefill_automatically.trigger()  # from the menu: the dialog shows it when shown again
    dialog.hide()
    dialog.show()
    assert not box.isChecked()


def test_the_next_turn_order_and_the_speed_follow_their_menus(make_window, qtbot):
    window = make_window()
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Editor")
    choose(qtbot, dialog.widgets["next_turn_order"].box, DOUBT_ORDER)
    assert window.action_table.doubtful_first.isChecked() and AppSettings().next_turn_order == DOUBT_ORDER
    dialog.show_page("Playback")
    choose(qtbot, dialog.widgets["speed"].box, 1.5)
    assert parts_of(window).playback.speed == 1.5 and AppSettings().speed == 1.5
    assert [a.data() for a in window.menus.speeds.actions() if a.isChecked()] == [1.5]


@pytest.mark.slow
def test_back_seconds_sets_how_far_playback_back_jumps(main_window, qtbot):
    window = main_window
    dialog = open_preferences(qtbot, window)
    enter_number(qtbot, dialog, "back_seconds", "1")
    assert AppSettings().back_seconds == 1.0
    assert window.action_table.back.text() == "&Back 1 s"
    dialog.close()
    qtbot.waitUntil(window.isActiveWindow)
    parts_of(window).navigator.select_row(1, focus_editor=True)  # turn 02, 2.2 s of audio
    type_text(qtbot, window, "hi")
    parts_of(window).waveform.clicked_at.emit(2.2)
    press(qtbot, window, Key.Key_Left, Mod.ControlModifier)
    # The seek and the jump wait for the clip's played version when a worker is still making it (in a fresh
    # process, the loudness filters' first import): done then, in order.
    qtbot.waitUntil(lambda: not parts_of(window).playback.preparing)
    assert abs(parts_of(window).playback.player.position - 1.2) < 0.01


@pytest.mark.slow
def test_the_editor_font_size_applies_at_once_and_in_the_next_window(make_window, qtbot):
    window = make_window()
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Editor")
    enter_number(qtbot, dialog, "editor_font_size", "21")
    assert window.editor.text.font().pointSizeF() == 21
    close_window(window)
    window = make_window()
    assert window.editor.text.font().pointSizeF() == 21
    assert open_preferences(qtbot, window).widgets["editor_font_size"].box.value() == 21


def test_the_annotator_name_is_checked_before_it_is_stored(make_window, qtbot):
    window = make_window()
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Team")
    line = dialog.widgets["annotator_name"].line
    line.setFocus()
    qtbot.keyClicks(line, "no spaces")
    qtbot.keyClick(line, Key.Key_Return)
    problem = dialog.widgets["annotator_name"].findChild(QLabel, "name_problem")
    assert problem.isVisible() and "letters, digits" in problem.text()
    assert AppSettings().annotator_name == ""
    line.selectAll()
    qtbot.keyClicks(line, "maria")
    qtbot.keyClick(line, Key.Key_Return)
    assert not problem.isVisible()
    assert AppSettings().annotator_name == "maria" and parts_of(window).controller.settings.annotator == "maria"
    assert window.statusBar().currentMessage() == "You annotate as maria"


def test_the_journal_of_the_next_log_goes_to_the_chosen_folder(make_window, raw_log, tmp_path, qtbot):
    window = make_window()
    folder = tmp_path / "my journals"
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Paths")
    line = dialog.widgets["journal_folder"].line
    line.setFocus()
    qtbot.keyClicks(line, str(folder))
    qtbot.keyClick(line, Key.Key_Return)
    dialog.close()
    assert parts_of(window).navigator.open_path(raw_log)
    assert [p.suffix for p in folder.iterdir()] == [".lock"], "this window holds the log there"
    assert Path(parts_of(window).recovery.journal.folder) == folder


@pytest.mark.slow
def test_restore_defaults_resets_only_its_page_and_tells_the_window(make_window, qtbot):
    window = make_window()
    dialog = open_preferences(qtbot, window)
    enter_number(qtbot, dialog, "back_seconds", "5")
    enter_number(qtbot, dialog, "loudness_target", "-16")
    choose(qtbot, dialog.widgets["speed"].box, 0.75)
    dialog.show_page("Appearance")
    choose(qtbot, dialog.widgets["theme"].box, "dark")
    announced: list[str] = []
    parts_of(window).preferences.changed.connect(announced.append)
    dialog.show_page("Playback")
    qtbot.mouseClick(dialog.restore_buttons["Playback"], Qt.MouseButton.LeftButton)
    stored = AppSettings()
    assert (stored.back_seconds, stored.loudness_target, stored.speed) == (2.0, -23.0, 1.0)
    assert stored.theme == "dark", "another page keeps its setting"
    # place_words too: the GUI tests turn it off (tests/gui/conftest.py), and its default is on.
    assert sorted(announced) == ["back_seconds", "loudness_target", "place_words", "speed"]
    assert dialog.widgets["back_seconds"].box.value() == 2.0 and dialog.widgets["speed"].box.currentData() == 1.0
    assert window.action_table.back.text() == "&Back 2 s" and parts_of(window).playback.speed == 1.0


def test_a_setting_other_parts_follow_is_announced_when_changed(make_window, qtbot):
    window = make_window()
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Appearance")
    with qtbot.waitSignal(parts_of(window).preferences.changed) as announced:
        enter_number(qtbot, dialog, "zoom", "150")
    assert announced.args == ["zoom"] and AppSettings().zoom == 150


def test_the_theme_and_the_zoom_chosen_here_apply_at_once_like_the_view_menu(make_window, qtbot):
    window = make_window()
    table_size = parts_of(window).navigator.table.font().pointSizeF()
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Appearance")
    choose(qtbot, dialog.widgets["theme"].box, "dark")
    assert is_dark()
    assert window.findChild(QAction, "theme_dark").isChecked()
    enter_number(qtbot, dialog, "zoom", "150")
    assert parts_of(window).navigator.table.font().pointSizeF() == pytest.approx(table_size * 1.5, abs=0.5)
    assert parts_of(window).appearance.zoom.percent == 150


def test_the_listening_kit_takes_its_settings_from_here_at_once(make_window, qtbot):
    window = make_window()
    playback = parts_of(window).playback
    dialog = open_preferences(qtbot, window)
    dialog.show_page("Playback")
    assert playback.normalise_loudness and window.action_table.normalise_loudness.isChecked()
    for name in ("normalise_loudness", "pause_while_typing"):
        box = dialog.widgets[name].box
        box.setFocus()
        qtbot.keyClick(box, Key.Key_Space)
    enter_number(qtbot, dialog, "rewind_on_resume", "2.5")
    assert not playback.normalise_loudness and not window.action_table.normalise_loudness.isChecked()
    assert window.action_table.pause_while_typing.isChecked()
    assert playback.rewind_on_resume == 2.5
