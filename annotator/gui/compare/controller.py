"""Compare and adjudicate: File > Compare annotators (Ctrl+Shift+C) loads every annotator's file beside the
open log into the Compare dock; F6 / Shift+F6 go to the next / previous disagreement, selecting its turn in
the turn table too; Alt+A ... Alt+D take that annotator's version of the selected turn (or, on the task
completion row, of the session's task completion) as one undoable step; File > Save adjudication folds
the document into the log itself, team mode or not, and writes the sidecar LOG-STEM.adjudication.csv
(agreement.adjudication_record). The annotators' files are only read."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDockWidget

from annotator.agreement.adjudication import TASK_COMPLETION, TRANSCRIPTION, Value
from annotator.agreement.adjudication_record import save_with_record, sidecar_path
from annotator.errors import AnnotatorError
from annotator.gui.actions import key_text, spec
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.annotating.undo_commands import SetConcepts, SetTaskCompletion, SetValue, TranscribeTurn
from annotator.gui.compare.comparison import Comparison, FieldKey, field_turn, load_works
from annotator.gui.compare.model import letter
from annotator.gui.compare.view import CompareView
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.log.concepts import Concepts
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.elements import Session, Turn
from annotator.team.files import human_path_of

COMPARE_HEIGHT = 0.45  # of the window, when Compare is first shown


class CompareController(QObject):
    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        controller: DocumentController,
        view: CompareView,
        dock: QDockWidget,
    ):
        """VIEW: what the Compare DOCK holds (gui/docks.py)."""
        super().__init__(window)
        self.window, self.navigator, self.controller = window, navigator, controller
        self.view, self.dock = view, dock
        self.comparison: Comparison | None = None
        self.view.save_requested.connect(self.save_adjudication)
        self.view.row_chosen.connect(self._row_chosen)
        navigator.session_selected.connect(self._show_session)
        navigator.turn_selected.connect(self._show_turn)
        controller.about_to_replace.connect(lambda _document: self._forget())
        controller.document_closed.connect(self._forget)
        controller.annotation_changed.connect(self._note_change)
        controller.annotation_changed.connect(self.view.model.on_annotation_changed)

    # --- loading ---------------------------------------------------------------------------
    def show_compare(self) -> bool:
        """Load every annotator's file beside the open log and show them; False when there is nothing to compare."""
        document = self.controller.document
        if document is None:
            return False
        if not self.dock.isVisible():  # the table's rows need more room than the timeline's strip
            self.dock.show()
            self.window.resizeDocks(
                [self.dock], [round(self.window.height() * COMPARE_HEIGHT)], Qt.Orientation.Vertical
            )
        self.dock.raise_()
        try:
            works = load_works(document.path)
        except AnnotatorError as error:
            self._forget()
            self.controller.show_error("Cannot compare", error)
            return False
        if len(works) < 2:
            pattern = human_path_of(document.path, "NAME").name
            found = f" (only {works[0].name}'s)" if works else ""
            return self._nothing_to_compare(
                f"No two annotators' files beside {document.path.name}{found}: "
                f"Compare reads {pattern}, one per annotator"
            )
        self.comparison = Comparison(document, works)
        self._show_session(self.navigator.session)
        self._show_turn(self.navigator.current_turn())
        key = key_text(spec("next_disagreement"))
        count = sum(1 for key_ in self.comparison.decisions if self.comparison.disagrees(key_))
        self.window.show_status(
            f"Comparing {', '.join(self.comparison.names)}: {count} disagreement(s) in "
            f"{document.path.name}; {key} goes to the next"
        )
        return True

    def _nothing_to_compare(self, text: str) -> bool:
        self.comparison = None
        self.view.model.show(None, None)
        self.view.show_message(text)
        self.window.show_status(text)
        return False

    def _forget(self) -> None:
        if self.comparison is not None:
            self.comparison = None
            self.view.model.show(None, None)
            self.view.show_message(
                f"Compare: {key_text(spec('compare'))} loads every annotator's file beside the open log"
            )

    def _note_change(self, change: AnnotationChange) -> None:
        if self.comparison is not None:
            self.comparison.note_change(change)

    def _show_session(self, session: Session | None) -> None:
        if self.comparison is None:
            return
        self.view.model.show(self.comparison, session)
        names = ", ".join(f"{letter(at)}: {name}" for at, name in enumerate(self.comparison.names))
        keys = f"Alt+A…Alt+{letter(len(self.comparison.names) - 1)}"
        self.view.show_message(
            f"{names}. {key_text(spec('next_disagreement'))} / "
            f"{key_text(spec('previous_disagreement'))}: next / previous disagreement; "
            f"{keys}: take that annotator's version; or edit in the editor"
        )

    def _show_turn(self, turn: Turn | None) -> None:
        if self.comparison is not None and turn is not None:
            row = self.view.model.row_of_turn(turn.index)
            if row is not None:
                self.view.select_row(row)

    def _row_chosen(self, row: int) -> None:
        turn = self.view.model.rows[row].turn
        if turn is not None:
            self.navigator.select_turn(turn)

    # --- going from one disagreement to the next -----------------------------------------
    def _not_open(self) -> bool:
        return self._open_comparison() is None

    def _open_comparison(self) -> Comparison | None:
        """What is compared; None, said in the status bar, when nothing is."""
        if self.comparison is not None:
            return self.comparison
        self.window.show_status(f"Nothing is compared: {key_text(spec('compare'))} compares the annotators' files")
        return None

    def step_disagreement(self, step: int) -> bool:
        if self._not_open():
            return False
        model = self.view.model
        row = self._start(step) + step
        while 0 <= row < model.rowCount() and not model.disagrees(row):
            row += step
        if not 0 <= row < model.rowCount():
            where = "after" if step > 0 else "before"
            self.window.show_status(f"No disagreement {where} this row in this session")
            return False
        self.view.select_row(row)
        turn = model.rows[row].turn
        if turn is not None:
            self.navigator.select_turn(turn, focus_editor=True)
        return True

    def _start(self, step: int) -> int:
        """Where the search starts: the task completion row when it is selected, else the turn selected in the
        turn table (a system turn: between the user turns around it), else the selected row or an end."""
        model, current = self.view.model, self.view.current_row()
        turn = self.navigator.current_turn()
        if turn is None or (current is not None and current == model.task_row()):
            return current if current is not None else (-1 if step > 0 else model.rowCount())
        row = model.row_of_turn(turn.index)
        if row is not None:
            return row
        after = model.rows_before(turn.index)  # the first row of a turn after this one
        return after - 1 if step > 0 else after

    # --- taking a version -------------------------------------------------------------------
    def take(self, annotator: int) -> bool:
        comparison, model = self._open_comparison(), self.view.model
        if comparison is None:
            return False
        if annotator >= len(comparison.names):
            self.window.show_status(f"There is no annotator {letter(annotator)}: {len(comparison.names)} are compared")
            return False
        row = self.view.current_row()
        if row is None:
            self.window.show_status("Select a turn to take a version of")
            return False
        name = comparison.names[annotator]
        commands = self._take_commands(comparison, model.rows[row].keys(), name)
        if not commands:
            self.window.show_status(f"{name} gave nothing different here")
            return False
        self.controller.flush_pending_edits()
        self._push(commands, f"Take {name}'s version")
        return True

    def _take_commands(self, comparison: Comparison, keys: tuple[FieldKey, ...], name: str) -> list[SetValue[Any]]:
        commands = []
        for key in keys:
            value = comparison.given(key).get(name)
            if value is None:
                continue
            command = self._command(key, value)
            if command.changes_anything or comparison.taken.get(key) != name:
                comparison.note_taken(key, name)
            if command.changes_anything:
                commands.append(command)
        return commands

    def _command(self, key: FieldKey, value: Value | None) -> SetValue[Any]:
        """The command setting field KEY to VALUE, a value of that field: a task completion's or a transcription's
        is a text, concepts' are Concepts."""
        document = self.controller.document
        assert document is not None, "a comparison is of the open log"
        session = document.sessions[key[0]]
        if key[2] == TASK_COMPLETION:
            return SetTaskCompletion(session, cast("str | None", value))
        turn = field_turn(session, key)
        if key[2] == TRANSCRIPTION:
            return TranscribeTurn(turn, cast("str | None", value))
        return SetConcepts(turn, cast("Concepts | None", value), "Take concepts")

    def _push(self, commands: list[SetValue[Any]], text: str) -> None:
        stack = self.controller.undo_stack
        if len(commands) == 1:
            commands[0].setText(f"{text} ({commands[0].text()})")
            stack.push(commands[0])
            return
        stack.beginMacro(text)
        for command in commands:
            stack.push(command)
        stack.endMacro()

    # --- saving ---------------------------------------------------------------------------------
    def _saved_into(self, document: LogDocument) -> bool:
        """Whether the log was written and is still the document compared (a reload answers no)."""
        return self.controller.save_into_log() and self.controller.document is document

    def save_adjudication(self) -> bool:
        """Take the agreed values nobody changed (one undoable step), write the log itself (NAME.orig.xml
        kept on the first save) and the sidecar beside it."""
        comparison = self._open_comparison()
        if comparison is None:
            return False
        self.controller.flush_pending_edits()
        agreed = [
            command
            for key, value in comparison.agreed_to_take()
            if (command := self._command(key, value)).changes_anything
        ]
        if agreed:
            self._push(agreed, "Take the agreed values")
        document = comparison.document
        record = sidecar_path(document.path)
        try:
            saved = save_with_record(
                record,
                comparison.record(),
                self.controller.settings.annotator,
                datetime.now(UTC),
                lambda: self._saved_into(document),
            )
        except AnnotatorError as error:
            self.controller.show_error("Cannot write the adjudication record", error)
            return False
        if not saved:
            return False  # not written, or the user chose to reload the log changed on disk
        self.window.show_status(f"Adjudication saved into {document.path.name}; decisions recorded in {record.name}")
        return True
