"""The window's preferences: every change is stored, announced as `changed(name)` and applied at once.

Parts of the window that follow a setting connect to `changed` and read the setting again (the theme,
the zoom, the listening kit); what existed before the dialog (menu check marks, speed, Playback > Back,
the editor's font, the annotator's name) is applied here. The window's keys live here too (`keys`):
after a rebind the live actions take their new keys and the text fields let the new keys through.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QApplication, QMainWindow

from annotator.gui.keyboard import present
from annotator.gui.preferences.dialog import PreferencesDialog
from annotator.gui.preferences.key_bindings import KeyBindings
from annotator.gui.preferences.keys_dialog import ShortcutsDialog
from annotator.gui.preferences.table import on_page
from annotator.gui.settings import DOUBT_ORDER, AppSettings

if TYPE_CHECKING:  # the parts' own packages import this one's neighbours; only their types are needed here
    from annotator.gui.actions import Actions, Menus
    from annotator.gui.annotating.concepts_panel import ConceptsPanel
    from annotator.gui.annotating.navigation import Navigator
    from annotator.gui.appearance.appearance import Appearance
    from annotator.gui.listening.listening_kit import ListeningKit
    from annotator.gui.listening.playback import Playback
    from annotator.gui.listening.playback_menu import PlaybackMenu
    from annotator.gui.opening.document_controller import DocumentController


class PreferencesParts(Protocol):
    """What a change of setting reaches in the composed window (gui/app.py's Annotator)."""

    actions: Actions
    menus: Menus
    navigator: Navigator
    concepts: ConceptsPanel
    playback: Playback
    playback_menu: PlaybackMenu
    listening: ListeningKit
    appearance: Appearance
    controller: DocumentController


# Settings the listening kit (gui/listening/listening_kit.py) takes again when one changes.
LISTENING_SETTINGS = (
    "rewind_on_resume",
    "normalise_loudness",
    "loudness_target",
    "pause_while_typing",
    "typing_idle_seconds",
)


class Preferences(QObject):
    changed = Signal(str)  # the AppSettings attribute just stored

    def __init__(self, window: QMainWindow, settings: AppSettings, parts: PreferencesParts):
        super().__init__(window)
        self.window, self.settings, self.parts = window, settings, parts
        self.keys = KeyBindings(settings, self)
        self.dialog: PreferencesDialog | None = None
        self.keys_dialog: ShortcutsDialog | None = None
        self._apply = {
            "auto_play": lambda: parts.actions.auto_play.setChecked(settings.auto_play),
            "prefill_automatically": lambda: parts.actions.prefill_automatically.setChecked(
                settings.prefill_automatically
            ),
            "next_turn_order": lambda: parts.actions.doubtful_first.setChecked(settings.next_turn_order == DOUBT_ORDER),
            "speed": self._apply_speed,
            "back_seconds": self._apply_back_seconds,
            "editor_font_size": self._apply_text_size,
            "zoom": self._apply_text_size,
            "theme": lambda: parts.appearance.set_theme(settings.theme),
            **dict.fromkeys(LISTENING_SETTINGS, self._apply_listening),
            "annotator_name": self._apply_annotator_name,
        }
        self.changed.connect(self._applied)
        self.keys.changed.connect(self.apply_keys)

    def start(self) -> None:
        """Apply what the stored settings say that the window does not show by itself."""
        self.apply_keys()
        self._apply_back_seconds()

    # --- changing ------------------------------------------------------------------------
    def set(self, name: str, value) -> None:
        """Store VALUE as setting NAME and announce it (the annotator's name first asks to keep the
        work of a team log, which is opened again as the new annotator)."""
        if value == getattr(self.settings, name):
            return
        if name == "annotator_name" and not self._may_change_annotator():
            self.changed.emit(name)  # the dialog shows the name still in use
            return
        setattr(self.settings, name, value)
        self.changed.emit(name)

    def restore(self, page: str) -> None:
        """Every setting of PAGE back to its default: the stored value is removed, so a later version's
        default reaches it."""
        for preference in on_page(page):
            differs = getattr(self.settings, preference.name) != preference.default
            if differs and preference.name == "annotator_name" and not self._may_change_annotator():
                continue
            self.settings.qsettings.remove(getattr(AppSettings, preference.name).key)
            if differs:
                self.changed.emit(preference.name)

    # --- the dialogs -------------------------------------------------------------------
    def reset_layout(self) -> None:
        self.parts.actions.reset_layout.trigger()

    def show(self) -> PreferencesDialog:
        if self.dialog is None:
            self.dialog = PreferencesDialog(self, self.window)
        present(self.dialog, self.window)
        return self.dialog

    def show_keys(self) -> ShortcutsDialog:
        """The keyboard dialog, on the keys as they are now (a new one each time: unsaved edits go)."""
        if self.keys_dialog is not None:
            self.keys_dialog.close()
        self.keys_dialog = ShortcutsDialog(QApplication.activeWindow() or self.window, self.keys)
        self.keys_dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.keys_dialog.destroyed.connect(lambda: setattr(self, "keys_dialog", None))
        present(self.keys_dialog, self.keys_dialog.parentWidget() or self.window)
        return self.keys_dialog

    # --- applying --------------------------------------------------------------------------
    def apply_keys(self) -> None:
        parts = self.parts
        self.keys.apply(parts.actions)
        window_keys = self.keys.window_sequences()
        parts.navigator.editor.set_passthrough_keys(window_keys)
        parts.navigator.table.set_passthrough_keys(window_keys)
        parts.concepts.set_passthrough_keys(window_keys)

    def _applied(self, name: str) -> None:
        apply = self._apply.get(name)
        if apply is not None:
            apply()

    def _apply_speed(self) -> None:
        for action in self.parts.menus.speeds.actions():
            action.setChecked(abs(action.data() - self.settings.speed) < 1e-9)
        self.parts.playback_menu.set_speed(self.settings.speed)

    def _apply_back_seconds(self) -> None:
        seconds = self.settings.back_seconds
        self.parts.playback.back_seconds = seconds
        self.parts.actions.back.setText(f"&Back {seconds:g} s")

    def _apply_text_size(self) -> None:
        """The editor's font size and the zoom: the zoom scales the size the settings give the editor."""
        self.parts.appearance.zoom.set_zoom(self.settings.zoom)

    def _apply_listening(self) -> None:
        """The listening kit's settings, and the Playback menu's check marks that show two of them."""
        self.parts.listening.apply_settings()
        self.parts.actions.normalise_loudness.setChecked(self.settings.normalise_loudness)
        self.parts.actions.pause_while_typing.setChecked(self.settings.pause_while_typing)

    def _may_change_annotator(self) -> bool:
        controller = self.parts.controller
        return controller.team_work is None or controller.maybe_discard()

    def _apply_annotator_name(self) -> None:
        controller = self.parts.controller
        self.settings.annotator_for_this_run = None
        if controller.team_work is not None:
            controller.reload()
        controller.status_reported.emit(f"You annotate as {self.settings.annotator}")
