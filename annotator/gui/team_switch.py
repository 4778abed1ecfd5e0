"""File > Team mode for this corpus: mark or unmark the corpus folder (annotator.team.mode) and
open the log again in the new mode, after its work so far is saved or discarded."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from annotator.errors import AnnotatorError
from annotator.gui.document_controller import DocumentController
from annotator.team.files import human_path_of
from annotator.team.mode import in_team_mode, set_team_mode


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
        where = f": {annotator}'s work goes to {human_path_of(document.path, annotator).name}" if on and document else ""
        controller.status_reported.emit(f"Team mode {'on' if on else 'off'} for {folder}{where}")
