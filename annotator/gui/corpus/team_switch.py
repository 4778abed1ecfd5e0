"""File > Team mode for this corpus: mark or unmark the corpus folder (annotator.team.mode) and
open the log again in the new mode, after its work so far is saved or discarded; File > Annotator
name: who the annotator is (the setting; docs/team.md)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog

from annotator.errors import AnnotatorError
from annotator.gui.opening.document_controller import DocumentController
from annotator.team.files import human_path_of
from annotator.team.mode import in_team_mode, set_team_mode
from annotator.team.names import check_annotator_name


class TeamSwitch(QObject):
    def __init__(self, controller: DocumentController, action: QAction, corpus_folder: Callable[[], Path | None]):
        super().__init__(controller)
        self.controller = controller
        self.action = action
        self.corpus_folder = corpus_folder  # the browser's corpus, None when none is open
        controller.team_mode_changed.connect(self.show_mode)

    def show_mode(self, on: bool) -> None:
        """Check the menu item as the mode is, without switching anything."""
        blocked = self.action.blockSignals(True)
        self.action.setChecked(on)
        self.action.blockSignals(blocked)

    def folder(self) -> Path | None:
        document = self.controller.document
        return self.corpus_folder() or (document.folder if document is not None else None)

    def set_team_mode(self, on: bool) -> None:
        controller = self.controller
        folder = self.folder()
        if folder is None or controller.refuse_while_opening():
            self.show_mode(False if folder is None else not on)
            return
        document = controller.document
        if on == in_team_mode(folder) and (document is None or on == (controller.team_work is not None)):
            return
        if not controller.maybe_discard():
            self.show_mode(not on)
            return
        try:
            set_team_mode(folder, on)
        except AnnotatorError as error:
            controller.show_error("Cannot change team mode", error)
            self.show_mode(not on)
            return
        if document is not None:
            controller.reload()
        self.show_mode(controller.team_work is not None if controller.document is not None else on)
        annotator = controller.settings.annotator
        where = (
            f": {annotator}'s work goes to {human_path_of(document.path, annotator).name}" if on and document else ""
        )
        controller.status_reported.emit(f"Team mode {'on' if on else 'off'} for {folder}{where}")

    def ask_annotator_name(self) -> bool:
        """Ask for the annotator's name and store it as the setting (it replaces a --annotator of this
        run too); in team mode the log is opened again, as that annotator, after the work so far is
        saved or discarded. False when nothing changed."""
        controller, settings = self.controller, self.controller.settings
        dialog = QInputDialog(controller.parent_widget)
        dialog.setWindowTitle("Annotator name")
        dialog.setLabelText("Your name, saved with your work in team mode\n(letters, digits, _ . -; up to 40):")
        dialog.setTextValue(settings.annotator)
        if not dialog.exec():
            return False
        name = dialog.textValue().strip()
        try:
            check_annotator_name(name)
        except AnnotatorError as error:
            controller.show_error("Annotator name", error)
            return False
        if name == settings.annotator:
            return False
        if controller.team_work is not None and not controller.maybe_discard():
            return False
        settings.annotator_name = name
        settings.annotator_for_this_run = None
        if controller.team_work is not None:
            controller.reload()
        controller.status_reported.emit(f"You annotate as {name}")
        return True
