"""Flags, comment and review in the window: the actions' handlers and their undo commands.

Alt+Shift+I/X/T/N/Z toggle a flag of the selected user turn, Alt+Shift+C asks for its comment,
Ctrl+Shift+R marks the session reviewed by the annotator (settings.annotator) or not. Each change is
one undo command through the one writer (annotator.log.annotations); the turn table, the session bar
and the journal hear it like any other change. The activity clock (gui/annotating/activity_clock.py) is wired
here too: it follows the selected turn and stores its time when a save is made.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QInputDialog, QLineEdit

from annotator.errors import AnnotationError
from annotator.gui.annotating.activity_clock import ActivityClock
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.annotating.undo_commands import SetValue, push_if_changed
from annotator.gui.listening.playback import Playback
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.settings import AppSettings
from annotator.log.annotations import set_comment, set_flags, set_reviewed
from annotator.log.elements import Session, Turn
from annotator.log.flags import session_reviewer, turn_comment, turn_flags
from annotator.log.text import clean_text, without_non_xml


class ToggleFlag(SetValue[tuple[str, ...]]):
    """Set or clear one flag of a turn."""

    def __init__(self, turn: Turn, flag: str):
        self.turn = turn
        self.old = turn_flags(turn.facts())
        on = flag not in self.old
        self.new = (*self.old, flag) if on else tuple(f for f in self.old if f != flag)
        super().__init__(f"Flag turn {turn.id} {flag}" if on else f"Unflag turn {turn.id} {flag}")
        self.place = (turn.session, turn)

    changes_anything = True

    def write(self, value: tuple[str, ...]) -> None:
        set_flags(self.turn, value)


class SetComment(SetValue[str | None]):
    def __init__(self, turn: Turn, comment: str):
        super().__init__(f"Comment on turn {turn.id}")
        self.turn = turn
        self.old = turn_comment(turn.facts())
        self.new = clean_text(without_non_xml(comment)[0]) or None
        self.place = (turn.session, turn)

    def write(self, value: str | None) -> None:
        set_comment(self.turn, value)


class SetReviewed(SetValue[str | None]):
    """Mark a session reviewed by REVIEWER, or (None) not reviewed."""

    def __init__(self, session: Session, reviewer: str | None):
        super().__init__("Mark the session reviewed" if reviewer is not None else "Mark the session not reviewed")
        self.session = session
        self.old = session_reviewer(session.el)
        self.new = reviewer
        self.place = (session, None)

    def write(self, value: str | None) -> None:
        set_reviewed(self.session, value)


class FlagsController:
    """The handlers of the flag, comment and review actions (gui/actions.py)."""

    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        controller: DocumentController,
        settings: AppSettings,
        playback: Playback,
    ):
        self.window = window
        self.navigator = navigator
        self.controller = controller
        self.settings = settings
        self.clock = ActivityClock(window)
        navigator.turn_selected.connect(self.clock.select)
        playback.position_changed.connect(lambda _seconds: self.clock.act())  # listening is working
        controller.save_preparers.append(self.clock.store)
        # By then a save or the annotator's choice to discard has dealt with the time counted.
        controller.about_to_replace.connect(lambda _document: self.clock.forget())

    def _user_turn(self) -> Turn | None:
        turn = self.navigator.current_turn()
        if turn is None:
            self.window.show_status("Select a turn first")
        return turn

    def toggle_flag(self, flag: str) -> None:
        turn = self._user_turn()
        if turn is not None and turn.speaker == "system":
            self.window.show_status(f"Turn {turn.id} is a system turn: flags are for what the user said")
        elif turn is not None:
            self._push(ToggleFlag(turn, flag))

    def edit_comment(self) -> None:
        turn = self._user_turn()
        if turn is None:
            return
        text, ok = QInputDialog.getText(
            self.window,
            "Comment",
            f"Comment on turn {turn.id} (empty removes it):",
            QLineEdit.EchoMode.Normal,
            turn_comment(turn.facts()) or "",
        )
        if ok:
            self._push(SetComment(turn, text))

    def toggle_reviewed(self) -> None:
        session = self.navigator.session
        if session is None:
            return
        reviewed = session_reviewer(session.el) is not None
        if self._push(SetReviewed(session, None if reviewed else self.settings.annotator)):
            self.window.show_status(
                "Session marked not reviewed" if reviewed else f"Session marked reviewed by {self.settings.annotator}"
            )

    def _push(self, command: SetValue[Any]) -> bool:
        try:
            return push_if_changed(self.controller.undo_stack, command)
        except AnnotationError as error:
            self.window.show_status(str(error))
            return False
