"""Typing restored from a recovery journal goes back where it was: a draft in its turn's editor.

The journal's question is answered as the log opens (gui/recovery/watcher.py), before the navigator shows it; the
draft is kept until the log is shown, then its turn is selected and the text put in the editor as typing
not yet stored: unsaved work, not counted as transcribed, stored by Ctrl+Enter or a move as before the crash.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from annotator.gui.annotating.navigation import Navigator
from annotator.gui.recovery.watcher import RecoveryWatcher
from annotator.log.document import LogDocument
from annotator.log.elements import Turn


class RestoredDraft(QObject):
    def __init__(self, recovery: RecoveryWatcher, navigator: Navigator):
        super().__init__(navigator)
        self.navigator = navigator
        self._draft: tuple[Turn, str] | None = None
        recovery.draft_restored.connect(self._keep)
        # Connected after the navigator's own: runs once the log is shown.
        navigator.controller.document_opened.connect(self._put_back)

    def _keep(self, turn: Turn, text: str) -> None:
        self._draft = (turn, text)

    def _put_back(self, document: LogDocument) -> None:
        draft, self._draft = self._draft, None
        if draft is None or draft[0].session.document is not document:
            return
        turn, text = draft
        self.navigator.select_turn(turn, focus_editor=True)
        self.navigator.editor.set_draft(text)
