"""The bar above the turn table: which session, its task completion, and how far transcription got."""

from __future__ import annotations

import html
from typing import cast

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from annotator.gui.widgets.giving_way import GivingWayComboBox, GivingWayLabel
from annotator.gui.widgets.layout_boundary import LayoutBoundary, text_width_free
from annotator.log.annotations import TASK_COMPLETED, TASK_NOT_COMPLETED
from annotator.log.elements import Session
from annotator.log.text import SHOWN_ID_CHARS, shorten

COUNTING_TEXT = "Counting the user turns transcribed…"
REVIEW_HINT = "Whether the session was reviewed, and by whom (Ctrl+Shift+R)"
TASK_CHOICES = (  # (value, label); the labels name the log's values so nobody has to remember them
    (None, "unset"),
    (TASK_COMPLETED, "completed (1)"),
    (TASK_NOT_COMPLETED, "not completed (0)"),
)


class SessionBar(LayoutBoundary):
    session_chosen = Signal(int)  # index into the document's sessions
    task_completion_chosen = Signal(object)  # "1", "0" or None

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.session_label = QLabel("Session:", self)
        # The id gives way to the review and the progress where the bar lacks room (giving_way.py).
        self.sessions = GivingWayComboBox(self)
        self.sessions.setObjectName("session_selector")
        self.session_name = text_width_free(GivingWayLabel(self))  # an id of 80 wide characters would widen the window
        self.session_name.setObjectName("session_name")
        bold = self.session_name.font()
        bold.setBold(True)
        self.session_name.setFont(bold)
        task_label = QLabel("Task completion:", self)
        self.task = QComboBox(self)
        self.task.setObjectName("task_completion")
        self.task.setToolTip("The session's type_task_completion (Ctrl+Alt+1 completed, Ctrl+Alt+0 not completed)")
        for value, text in TASK_CHOICES:
            self.task.addItem(text, value)
        task_label.setBuddy(self.task)
        self.review = QLabel(self)
        self.review.setObjectName("session_review")
        self.review.setTextFormat(Qt.TextFormat.PlainText)  # a reviewer's name is shown as written
        self.review.setToolTip(REVIEW_HINT)
        self.review.setContentsMargins(12, 0, 6, 0)
        self.review.setMinimumWidth(1)  # gives way on a narrow screen rather than widen the window
        self.progress = text_width_free(QLabel(self))  # it changes at every transcription
        self.progress.setObjectName("transcription_progress")
        self.progress.setTextFormat(Qt.TextFormat.RichText)  # always: a text without tags would show its escapes
        self.progress.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

        layout = QHBoxLayout(self.body)
        layout.setContentsMargins(6, 4, 6, 2)
        layout.addWidget(self.session_label)
        layout.addWidget(self.sessions, 1)  # the room left over goes to the id first, up to its whole text
        layout.addWidget(self.session_name, 1)
        layout.addSpacing(18)
        layout.addWidget(task_label)
        layout.addWidget(self.task)
        layout.addWidget(self.review)
        layout.addWidget(self.progress)

        self.sessions.currentIndexChanged.connect(self._name_shown_session)
        self.sessions.currentIndexChanged.connect(self.session_chosen)
        self.task.activated.connect(self._task_activated)
        self.set_sessions([])

    def set_sessions(self, sessions: list[Session]) -> None:
        """The selector appears only when the log holds several sessions; otherwise the id is a label."""
        self.sessions.blockSignals(True)
        self.sessions.clear()
        labels = [
            f"{shorten(session.id, SHOWN_ID_CHARS) or '(no id)'} · {len(session.turns)} turns" for session in sessions
        ]
        self.sessions.addItems(labels)  # one insertion, not one per session
        self.sessions.set_longest(max(map(len, labels), default=0) + 1)
        self.sessions.blockSignals(False)
        several = len(sessions) > 1
        self.sessions.setVisible(several)
        self.session_name.setVisible(not several)
        shown = shorten(sessions[0].id, SHOWN_ID_CHARS) if len(sessions) == 1 else None
        self.session_name.setText("—" if shown is None else shown)
        self.session_name.setToolTip("" if shown is None else f"Session {shown}")  # whole where the bar cuts it
        self._name_shown_session()
        self.task.setEnabled(bool(sessions))

    def show_session(self, index: int) -> None:
        self.sessions.blockSignals(True)
        self.sessions.setCurrentIndex(index)
        self.sessions.blockSignals(False)
        self._name_shown_session()

    def _name_shown_session(self) -> None:
        """The selector's item whole in its tooltip, where the bar cuts it."""
        shown = self.sessions.currentText()
        self.sessions.setToolTip(f"Session {shown}" if shown else "")

    def show_task_completion(self, value: str | None) -> None:
        self.task.blockSignals(True)
        position = self.task.findData(value)
        if position < 0:  # a value of the log's own (e.g. "2"): show it rather than pretend
            while self.task.count() > len(TASK_CHOICES):
                self.task.removeItem(self.task.count() - 1)
            self.task.addItem(f"{value} (from the log)", value)
            position = self.task.count() - 1
            items = cast(QStandardItemModel, self.task.model())  # a combo box's own model
            items.item(position).setEnabled(False)  # shown, never offered: only 1 and 0 are set
        self.task.setCurrentIndex(position)
        self.task.blockSignals(False)

    def show_review(self, reviewer: str | None) -> None:
        """REVIEWER: who reviewed the session ('' unknown), None: not reviewed."""
        text = (
            "not reviewed"
            if reviewer is None
            else f"reviewed by {shorten(reviewer, SHOWN_ID_CHARS)}"
            if reviewer
            else "reviewed"
        )
        self.review.setText(text)
        self.review.setToolTip(f"{text}: {REVIEW_HINT[0].lower()}{REVIEW_HINT[1:]}")  # a long name gets cut

    def show_progress(self, transcribed: int, user_turns: int) -> None:
        left = user_turns - transcribed
        done = f"{transcribed} of {user_turns} user turns transcribed"
        rest = f"{left} to go" if left else "all done"
        self.progress.setText(f"{done} · <b>{rest}</b>" if left else f"{done} · {rest}")
        self.progress.setToolTip(f"{done} · {rest}")  # whole where a narrow window cuts the label

    def show_counting(self) -> None:
        """The progress is being counted (a long session's facts are made on a worker)."""
        self.progress.setText(COUNTING_TEXT)
        self.progress.setToolTip("")

    def show_no_log(self, text: str) -> None:
        """No log is open: no review to speak of, and TEXT (a hint longer than a narrow window leaves it) whole
        in the tooltip."""
        self.review.setText("")
        self.progress.setText(html.escape(text))
        self.progress.setToolTip(text)

    def _task_activated(self, position: int) -> None:
        self.task_completion_chosen.emit(self.task.itemData(position))
