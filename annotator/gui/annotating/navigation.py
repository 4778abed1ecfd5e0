"""Which session and turn are shown, and moving between them: the turn table, the transcription
editor and the session bar follow one selection, and the keys that move it land here.

Other views follow through turn_selected and session_selected (gui/workspace.py); the window's
title and status bar are the shell's (gui/main_window.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QApplication

from annotator.analysis.next_session import (
    earlier_session_to_transcribe,
    later_session_to_transcribe,
    most_doubtful_session_to_transcribe,
)
from annotator.gui.actions import ACTIONS, Actions, key_text, spec
from annotator.gui.annotating.doubtful_sessions import DoubtfulSessions
from annotator.gui.annotating.facts_wait import FactsWait
from annotator.gui.annotating.session_bar import SessionBar
from annotator.gui.annotating.transcription_editor import TranscriptionEditor
from annotator.gui.annotating.turn_table import Column, TurnTableModel, is_transcribable
from annotator.gui.annotating.turn_table_view import TurnTableView
from annotator.gui.annotating.undo_commands import (
    SetTaskCompletion,
    changed_place,
    push_if_changed,
    removed_characters_note,
)
from annotator.gui.keyboard import KeyboardOwner
from annotator.gui.listening.playback import Playback
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.opening.opener import is_long
from annotator.gui.opening.position_writer import PositionWriter
from annotator.gui.settings import DOUBT_ORDER, AppSettings, LastPosition
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.elements import Session, Turn
from annotator.log.flags import REVIEWED, session_reviewer
from annotator.log.text import SHOWN_ID_CHARS, shorten

NO_LOG_TEXT = "No log open: Ctrl+O opens one, File > Open Recent lists the last ones, or drop a log or a folder here"
# Actions that need an open log; checkable ones (settings) stay enabled.
NEEDS_A_LOG_MENUS = ("&Navigate", "Anno&tate", "&Playback")
NEEDS_A_LOG = ("save", "save_as", "export_csv", "close", "compare", "save_adjudication")


class Navigator(QObject):
    turn_selected = Signal(object)  # the Turn now selected, or None
    session_selected = Signal(object)  # the Session now shown, or None
    corpus_requested = Signal(object)  # Path of a folder of logs to browse
    facts_made = Signal(object)  # the Session shown, long: its turn facts are made now (gui/annotating/facts_wait.py)

    def __init__(
        self,
        window: MainWindow,
        controller: DocumentController,
        settings: AppSettings,
        actions: Actions,
        playback: Playback,
    ):
        super().__init__(window)
        self.window, self.controller, self.settings = window, controller, settings
        self.actions, self.playback = actions, playback
        self.undo_stack = controller.undo_stack
        self.session: Session | None = None
        # Set by the corpus browser's owner: go to the neighbouring session of another log (+1/-1), True if it
        # did, False if there is none, None when no corpus is open.
        self.neighbour_session: Callable[[int], bool | None] | None = None
        self.position_writer = PositionWriter(settings, self)
        self.doubtful_sessions = DoubtfulSessions(controller, settings)
        self.facts_wait = FactsWait()  # a long session's facts, made on a worker after the first paint
        self.session_bar = SessionBar(window)
        self.model = TurnTableModel(self.undo_stack, self)
        self.table = TurnTableView(window)
        self.table.setModel(self.model)
        self.editor = TranscriptionEditor(self.undo_stack, window)
        self.editor.setObjectName("transcription_editor")
        self.editor.auto_prefill = settings.prefill_automatically
        self.keyboard = KeyboardOwner(self)  # where typed keys go (docs/keyboard.md)
        window.set_central(self.session_bar, self.table, self.editor)
        self._connect()

    def _connect(self) -> None:
        c = self.controller
        c.document_opened.connect(self.show_document)
        c.document_closed.connect(self._show_no_document)
        c.document_saved.connect(self._on_document_saved)
        for view in (self.editor, self.model):
            c.annotation_changed.connect(view.on_annotation_changed)
        c.annotation_changed.connect(self._on_annotation_changed)
        c.unsaved_changed.connect(self.window.setWindowModified)
        c.status_reported.connect(self.window.show_status)
        c.pending_edit_flushers += [
            self.table.commit_open_editor,
            self.editor.commit_pending,
            self.position_writer.write,
        ]  # an open or reload reads the position
        self.window.closing.connect(self.position_writer.write)
        c.add_typing_source(self.editor.pending_text_changed, self.editor.pending_edit)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.model.note_reported.connect(self.window.show_status)
        self.editor.text.characters_removed.connect(self._on_characters_removed)
        self.editor.note_reported.connect(self.window.show_status)
        self.table.activated.connect(self._on_row_activated)
        self.session_bar.session_chosen.connect(self.show_session)
        self.session_bar.task_completion_chosen.connect(self.set_task_completion)

    # --- the document and session shown --------------------------------------
    @property
    def document(self) -> LogDocument | None:
        return self.controller.document

    def open_path(self, path: str | Path) -> bool:
        """Open a log; a folder is a corpus: announced (the session browser scans it) and its
        last-used log, or its first, is opened."""
        path = Path(path)
        if path.is_dir():
            self.corpus_requested.emit(path)
            last = self.settings.last_log_in_corpus(path, self.settings.team_annotator_of(path))
            if last is not None and last.is_file() and last.resolve().is_relative_to(path.resolve()):
                return self.controller.open_path(last)
        return self.controller.open_path(path)

    def show_document(self, document: LogDocument | None) -> None:
        self.position_writer.write()  # the log left: its position is read when it is opened again
        self.editor.set_turn(None)
        self.session_bar.set_sessions(document.sessions if document is not None else [])
        position = self.settings.last_position(document.path, self._position_owner()) if document is not None else None
        sessions = document.sessions if document is not None else []
        index = next((s.index for s in sessions if position is not None and s.id == position.session_id), 0)
        self.show_session(index if sessions else -1, turn_index=position.turn_index if position else None)
        self._update_title()
        self._update_enabled()
        if document is None:
            self.window.statusBar().showMessage(NO_LOG_TEXT)  # no timeout: it describes the window until a log opens

    def show_session(self, index: int, turn_index: int | None = None) -> None:
        """Show session INDEX at TURN_INDEX, or at its first user turn to transcribe (its first user turn when
        every one is transcribed, its first turn when it has none): where the annotator types first."""
        document = self.document
        session = document.sessions[index] if document is not None and 0 <= index < len(document.sessions) else None
        self.editor.set_turn(None)  # commits typing for the session left
        self.session = session
        self.facts_wait.follow(session)
        if session is not None and is_long(session):
            # Its doubts are made on the panes' worker, which an open starts in a later pass: until then the
            # doubt strip the turns are first painted with stays blank, or that paint made every turn's facts.
            self.model.doubts_pending = True
        self.model.set_session(session)
        self.session_bar.show_session(index)
        self._reflect_session()
        if session is not None and session.turns:
            if turn_index is None:
                turn_index = self.model.first_row_to_type(self.facts_wait.counting)
            self.select_row(min(max(turn_index, 0), len(session.turns) - 1), focus_editor=True)
        else:
            self._on_current_row_changed(QModelIndex(), QModelIndex())
        # Opening a log, the session's views are filled in a later pass than the turns (gui/opening/hand_over_passes.py).
        self.controller.after_hand_over.later("session views", lambda: self.session_selected.emit(session))

    def _reflect_session(self) -> None:
        session = self.session
        marks = self.controller.opener.take_marks(session) if session is not None else None  # read as it loaded
        if marks is not None:
            task_completion, reviewer = marks.task_completion, marks.reviewer
        elif session is not None:
            task_completion, reviewer = session.task_completion, session_reviewer(session.el)
        else:
            task_completion = reviewer = None
        self.session_bar.show_task_completion(task_completion)
        self.session_bar.show_review(reviewer)
        if self.document is None:
            self.session_bar.show_no_log(NO_LOG_TEXT)
        else:
            self._show_progress()

    def _show_progress(self) -> None:
        if self.facts_wait.counting:
            self.session_bar.show_counting()
        else:
            self.session_bar.show_progress(*self.model.transcription_progress())

    def session_facts_made(self, session: Session) -> None:
        """SessionPanes.facts_made: the progress can be counted, and a Ctrl+Enter that waited goes on."""
        waited = self.facts_wait.made(session, self.table.current_row())
        if session is self.session:
            self._show_progress()
            self.facts_made.emit(session)
        if waited is not None:
            waited()

    def _on_annotation_changed(self, change: AnnotationChange) -> None:
        """Reflect what CHANGE can have changed in the session bar: the session's task completion and
        reviewer are read again only when they changed (each reading walks the whole session)."""
        session = self.session
        if change.session != session:
            return
        if change.kind == "task_completion":
            self.session_bar.show_task_completion(session.task_completion)
        elif change.kind == REVIEWED:
            self.session_bar.show_review(session_reviewer(session.el))
        self._show_progress()

    def _show_no_document(self) -> None:
        self.show_document(None)

    def _on_characters_removed(self, count: int) -> None:
        self.window.show_status(removed_characters_note(count))

    def _on_document_saved(self, _path: Path) -> None:
        self._update_title()

    def _update_title(self) -> None:
        name = self.document.path.name if self.document is not None else "no log open"
        self.window.show_title(
            name + (" (read-only)" if self.controller.read_only else ""), self.controller.has_unsaved_work
        )

    def _update_enabled(self) -> None:
        has_document = self.document is not None
        for action_spec in ACTIONS:
            if action_spec.menu in NEEDS_A_LOG_MENUS or action_spec.name in NEEDS_A_LOG:
                getattr(self.actions, action_spec.name).setEnabled(has_document or action_spec.checkable)
        self.editor.set_read_only(self.controller.read_only)  # edits and saves are refused with a message

    # --- selection and moving between turns ---------------------------------------
    def current_turn(self) -> Turn | None:
        return self.model.turn_at(self.table.current_row())

    def select_row(self, row: int, focus_editor: bool = False) -> None:
        """Select ROW; with FOCUS_EDITOR (keyboard moves) the focus follows: the editor on a turn to
        transcribe, else the table (a system turn's editor is disabled and cannot keep it)."""
        focused = QApplication.focusWidget()
        typing = focused is not None and self.editor.isAncestorOf(focused)
        index = self.model.index(row, Column.TRANSCRIPTION)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        self.table.scrollTo(index)
        if focus_editor or typing:
            self._focus_editor_if_transcribable()

    def select_turn(self, turn: Turn, focus_editor: bool = False) -> None:
        """Select TURN (e.g. clicked in the timeline), switching session if it belongs to another."""
        if turn.session != self.session:
            self.show_session(turn.session.index, turn.index)
        else:
            self.select_row(turn.index, focus_editor)

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        turn = self.model.turn_at(current.row()) if current.isValid() else None
        self.editor.set_turn(turn)
        if turn is not None and self.document is not None:
            self.position_writer.note(
                self.document.path, LastPosition(turn.session.id, turn.index), self._position_owner()
            )
        self.controller.after_hand_over.later("turn views", lambda: self.turn_selected.emit(turn))

    def _position_owner(self) -> str | None:
        """Whose place in the open log the selection is: the annotator's in team mode, the log's outside it."""
        work = self.controller.team_work
        return work.annotator if work is not None else None

    def _on_row_activated(self, _index: QModelIndex) -> None:
        self._focus_editor_if_transcribable()

    def _focus_editor_if_transcribable(self) -> None:
        turn = self.current_turn()
        if turn is not None and is_transcribable(turn):
            self.editor.focus_text()
        else:
            self.table.setFocus(Qt.FocusReason.OtherFocusReason)

    def step_turn(self, step: int, users_only: bool = False) -> None:
        accept = (lambda turn: turn.speaker == "user") if users_only else None
        row = self.model.find_row(self.table.current_row(), step, accept)
        if row is None:
            self.window.show_status(self._no_turn_that_way(step, users_only))
            return
        self.select_row(row, focus_editor=True)

    def step_user_turn(self, step: int) -> None:
        self.step_turn(step, users_only=True)

    def _no_turn_that_way(self, step: int, users_only: bool) -> str:
        turn = self.current_turn()
        if turn is None:
            return "No turn is selected"
        kind = "user turn" if users_only else "turn"
        where = "after" if step > 0 else "before"
        text = (
            f"No {kind} {where} turn {shorten(turn.id, SHOWN_ID_CHARS)} in session "
            f"{shorten(turn.session.id, SHOWN_ID_CHARS)}"
        )
        if 0 <= turn.session.index + step < len(turn.session.document.sessions):
            key = key_text(spec("next_session" if step > 0 else "previous_session"))
            text += f"; {key} goes to the {'next' if step > 0 else 'previous'} session"
        return text

    def step_session(self, step: int) -> bool:
        """Show the next (+1) or previous (-1) session of this log, at its first turn, the focus in the
        editor; at either end, ask neighbour_session (the corpus) for a neighbour."""
        document = self.document
        if document is None or self.session is None:
            return False
        index = self.session.index + step
        if 0 <= index < len(document.sessions):
            self.show_session(index)
            return True
        found = self.neighbour_session(step) if self.neighbour_session is not None else None
        if found:
            return True
        first_or_last = "last" if step > 0 else "first"
        self.window.show_status(
            f"Session {shorten(self.session.id, SHOWN_ID_CHARS)} is the {first_or_last} session of "
            f"{document.path.name}" + ("" if found is not None else "; open a folder of logs to go on to the next log")
        )
        return False

    def commit_and_next(self) -> None:
        """Ctrl+Enter: store the transcription (and every edit still open: a table cell, the concepts), go to
        the next user turn still to transcribe (in log order, or the most doubtful first as the setting says),
        play it."""
        self.controller.flush_pending_edits()
        self.editor.commit()
        self.facts_wait.run(self.table.current_row(), self._go_to_next_to_transcribe, self.window.show_status)

    def next_user_row(self, row: int) -> int | None:
        """The row of the user turn Ctrl+Enter on ROW would choose next in this session (None: none left)."""
        return self.model.user_row_to_type(row, self.settings.next_turn_order == DOUBT_ORDER, self.facts_wait.counting)

    def _go_to_next_to_transcribe(self) -> None:
        row = self.next_user_row(self.table.current_row())
        if row is not None:
            self.select_row(row, focus_editor=True)
        elif not self._go_on_in_another_session():
            return
        self._play_if_auto()

    def _play_if_auto(self) -> None:
        turn = self.current_turn()
        if self.settings.auto_play and turn is not None:
            self.playback.play_turn(turn)

    def _go_on_in_another_session(self) -> bool:
        """The shown session has no user turn left to transcribe: show the next session of the log that has
        one (annotator.analysis.next_session), else the next listed session of another log in the Sessions
        list's order (sorted by Doubt, the most doubtful first), at its next such turn. False when none is left."""
        document, done = self.document, self.session
        if document is None or done is None:
            return False
        doubtful_first = self.settings.next_turn_order == DOUBT_ORDER
        if doubtful_first and not self.doubtful_sessions.is_ready(document):
            self.doubtful_sessions.when_ready(lambda: self._go_on_once_doubts_are_ready(done))
            return False
        if doubtful_first:
            index = most_doubtful_session_to_transcribe(document, done.index)
        else:
            index = later_session_to_transcribe(document, done.index)
        if index is None and self.neighbour_session is not None and self.neighbour_session(+1):
            return self._go_on_from_the_shown_session(done)
        if index is None and not doubtful_first:
            index = earlier_session_to_transcribe(document, done.index)
        if index is None:
            self.window.show_status(f"Every user turn of {document.path.name} is transcribed")
            return False
        self.show_session(index)
        if self.facts_wait.counting:  # a long session: its next turn is known once its facts are made

            def go_on() -> None:
                if self._go_on_from_the_shown_session(done):
                    self._play_if_auto()

            return self.facts_wait.run(self.table.current_row(), go_on, self.window.show_status)
        return self._go_on_from_the_shown_session(done)

    def _go_on_once_doubts_are_ready(self, done: Session) -> None:
        """The press that waited for every session's doubts: go on, unless the annotator has moved on."""
        if self.session is done and self.settings.next_turn_order == DOUBT_ORDER and self._go_on_in_another_session():
            self._play_if_auto()

    def _go_on_from_the_shown_session(self, done: Session) -> bool:
        """Select the shown session's next turn to transcribe (in the order set) and say which session was done."""
        if self.settings.next_turn_order == DOUBT_ORDER:
            row = self.model.most_doubtful_to_transcribe(-1)
        else:
            row = self.model.next_to_transcribe(-1)
        if row is None or self.session is None:
            self.window.show_status(f"Every user turn of session {shorten(done.id, SHOWN_ID_CHARS)} is transcribed")
            return False
        self.select_row(row, focus_editor=True)
        self.window.show_status(
            f"Session {shorten(done.id, SHOWN_ID_CHARS)} is transcribed; "
            f"on to session {shorten(self.session.id, SHOWN_ID_CHARS)}"
        )
        return True

    # --- editing ------------------------------------------------------------------
    def set_task_completion(self, value: str | None) -> None:
        if self.session is not None:
            push_if_changed(self.undo_stack, SetTaskCompletion(self.session, value))
        self._reflect_session()

    def undo(self) -> None:
        self.controller.flush_pending_edits()
        command = self.undo_stack.command(self.undo_stack.index() - 1)
        self.undo_stack.undo()
        self._reveal(command)

    def redo(self) -> None:
        command = self.undo_stack.command(self.undo_stack.index())
        self.undo_stack.redo()
        self._reveal(command)

    def _reveal(self, command: QUndoCommand | None) -> None:
        """Show the session and turn an undo or redo changed, so the annotator sees what happened."""
        session, turn = changed_place(command)
        if turn is not None and turn != self.current_turn():
            self.select_turn(turn)
        elif turn is None and session is not None and session != self.session:
            self.show_session(session.index)
