"""The main window: a composition of the parts (turn table, editor, panels, actions, controller).

Logic lives in the parts: DocumentController (files, undo stack, unsaved
work), TurnTableModel (rows, searches), TranscriptionEditor (typing and
committing), the panels (what they show). This file wires them together and
moves the selection. Colleague widgets join through add_dock(); audio joins
through the `playback` hook and the signals below.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from annotator.audio.player import BACK_SECONDS
from annotator.file_name_text import name_from_text
from annotator.gui.about import show_about
from annotator.gui.actions import (
    ACTIONS,
    ShortcutsDialog,
    all_key_sequences,
    build_actions,
    build_menus,
    key_text,
    spec,
)
from annotator.gui.document_controller import DocumentController
from annotator.gui.help_links import add_help_links
from annotator.gui.models.turn_table import Column, TurnTableModel, is_transcribable, needs_transcription
from annotator.gui.recovery import RecoveryWatcher
from annotator.gui.settings import AppSettings, LastPosition
from annotator.gui.typing_router import TypingRouter
from annotator.gui.undo_commands import SetTaskCompletion, changed_place, push_if_changed, removed_characters_note
from annotator.gui.views.detail_panel import DetailPanel
from annotator.gui.views.metrics_panel import MetricsPanel
from annotator.gui.views.session_bar import SessionBar
from annotator.gui.views.transcription_editor import TranscriptionEditor
from annotator.gui.views.turn_table_view import TurnTableView
from annotator.gui.window_geometry import fit_on_screen, restore_layout, save_layout, size_for_first_start
from annotator.log.annotations import TASK_COMPLETED, TASK_NOT_COMPLETED
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.elements import ElementView, Session, Turn
from annotator.log.text import SHOWN_ID_CHARS, shorten

APP_TITLE = "Communicator Annotator"
STATUS_SECONDS = 8
NO_LOG_TEXT = "No log open: Ctrl+O opens one, File > Open Recent lists the last ones, or drop a log or a folder here"
Area = Qt.DockWidgetArea


class PlaybackHook(Protocol):
    """What the window asks of audio playback (set `main_window.playback`; None means no audio)."""

    def toggle(self) -> None: ...
    def replay(self) -> None: ...
    def back(self, seconds: float) -> None: ...
    def play_turn(self, turn: Turn) -> None: ...


class MainWindow(QMainWindow):
    turn_selected = Signal(object)  # the Turn now selected, or None
    session_selected = Signal(object)  # the Session now shown, or None
    play_pause_requested = Signal()
    replay_requested = Signal()
    back_requested = Signal(float)  # seconds
    play_turn_requested = Signal(object)  # Turn: auto-play after Ctrl+Enter moved to it
    corpus_requested = Signal(object)  # Path of a folder of logs to browse
    loop_changed = Signal(bool)
    speed_changed = Signal(float)

    def __init__(self, settings: AppSettings | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("main_window")
        self.settings = settings if settings is not None else AppSettings()
        self.playback: PlaybackHook | None = None
        # Set by the corpus browser's owner: go to the neighbouring session of another log (+1/-1), True if it did.
        self.neighbour_session: Callable[[int], bool] | None = None
        self.session: Session | None = None
        self.controller = DocumentController(self, self.settings)
        self.recovery = RecoveryWatcher(self.controller, self)
        self.undo_stack = self.controller.undo_stack
        self.actions = build_actions(self)
        self.docks: dict[str, QDockWidget] = {}
        self.on_demand_docks: set[str] = set()  # shown when they have something to show: restore_layout hides them
        self._build_menus()
        self._build_widgets()
        self._connect()
        self.setAcceptDrops(True)
        self.statusBar()
        size_for_first_start(self)
        self._show_document(None)

    # --- composition -------------------------------------------------------
    def _build_widgets(self) -> None:
        self.session_bar = SessionBar(self)
        self.model = TurnTableModel(self.undo_stack, self)
        self.table = TurnTableView(self)
        self.table.setModel(self.model)
        self.editor = TranscriptionEditor(self.undo_stack, self)
        self.editor.setObjectName("transcription_editor")
        self.editor.auto_prefill = self.settings.prefill_automatically
        keys = all_key_sequences()
        self.editor.set_passthrough_keys(keys)
        self.table.set_passthrough_keys(keys)
        self.typing_router = TypingRouter(self, self._claim_typing)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setObjectName("table_editor_splitter")
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.editor)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 0)  # the editor keeps its lines; the table takes what the window gains
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([1_000_000, 1])  # weights: the editor starts at its minimum height
        central = QWidget(self)
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.session_bar)
        layout.addWidget(self.splitter, 1)
        self.setCentralWidget(central)
        self.detail = DetailPanel(self)
        self.metrics = MetricsPanel(self)
        self.add_dock(self.detail, "Details", Area.RightDockWidgetArea, "details_dock")
        self.add_dock(self.metrics, "Session metrics", Area.RightDockWidgetArea, "metrics_dock")
        self.tabifyDockWidget(self.docks["details_dock"], self.docks["metrics_dock"])
        self.docks["details_dock"].raise_()
        self.resizeDocks([self.docks["details_dock"]], [360], Qt.Orientation.Horizontal)

    def _build_menus(self) -> None:
        self.menus, self.recent_menu, self.speed_group = build_menus(self.menuBar(), self.actions, self)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        add_help_links(self.menus["&Help"], self)
        for action in self.speed_group.actions():
            action.setChecked(abs(action.data() - self.settings.speed) < 1e-9)
        self.actions["auto_play"].setChecked(self.settings.auto_play)
        self.actions["loop"].setChecked(self.settings.loop)
        self.actions["prefill_automatically"].setChecked(self.settings.prefill_automatically)

    def _connect(self) -> None:
        a, c = self.actions, self.controller
        handlers = {
            "open": c.open_with_dialog, "save": c.save, "save_as": c.save_as, "export_csv": c.export_csv,
            "close": c.close_document, "quit": self.close, "undo": self.undo, "redo": self.redo,
            "next_turn": lambda: self.step_turn(+1), "previous_turn": lambda: self.step_turn(-1),
            "next_user_turn": lambda: self.step_turn(+1, users_only=True),
            "previous_user_turn": lambda: self.step_turn(-1, users_only=True),
            "next_session": lambda: self.step_session(+1), "previous_session": lambda: self.step_session(-1),
            "commit_and_next": self.commit_and_next, "prefill": self.editor.prefill_from_recognizer,
            "task_completed": lambda: self.set_task_completion(TASK_COMPLETED),
            "task_not_completed": lambda: self.set_task_completion(TASK_NOT_COMPLETED),
            "task_unset": lambda: self.set_task_completion(None),
            "play_pause": self.play_pause, "replay": self.replay, "back": self.back,
            "shortcuts": self.show_shortcuts, "about": self.show_about,
        }
        for name, handler in handlers.items():
            a[name].triggered.connect(lambda _checked=False, h=handler: h())
        a["auto_play"].toggled.connect(self._set_auto_play)
        a["loop"].toggled.connect(self._set_loop)
        a["prefill_automatically"].toggled.connect(self._set_prefill_automatically)
        self.speed_group.triggered.connect(lambda action: self._set_speed(float(action.data())))
        # Bound methods, not lambdas: PySide disconnects them when the window is destroyed, and the
        # undo stack announces cleanChanged (relayed as unsaved_changed) while it is destroyed with
        # unsaved work (Quit, Discard).
        c.unsaved_changed.connect(self._on_unsaved_changed)
        self.undo_stack.canUndoChanged.connect(a["undo"].setEnabled)
        self.undo_stack.canRedoChanged.connect(a["redo"].setEnabled)
        c.document_opened.connect(self._show_document)
        c.document_closed.connect(self._show_no_document)
        c.document_saved.connect(self._on_document_saved)
        for view in (self.editor, self.metrics, self.detail, self.model):
            c.annotation_changed.connect(view.on_annotation_changed)
        c.annotation_changed.connect(self._on_annotation_changed)
        c.status_reported.connect(self.show_status)
        c.pending_edit_flushers += [self.table.commit_open_editor, self.editor.commit_pending]
        c.add_typing_source(self.editor.pending_text_changed, self.editor.pending_edit)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.model.note_reported.connect(self.show_status)
        self.editor.text.characters_removed.connect(self._on_characters_removed)
        self.table.activated.connect(self._on_row_activated)
        self.session_bar.session_chosen.connect(self.show_session)
        self.session_bar.task_completion_chosen.connect(self.set_task_completion)

    def add_dock(self, widget: QWidget, title: str, area: Area = Area.RightDockWidgetArea,
                 name: str | None = None) -> QDockWidget:
        """Dock WIDGET (timeline, waveform, corpus browser, findings...) and list it in the View menu.
        NAME (an objectName) lets the dock's place be saved with the window layout."""
        dock = QDockWidget(title, self)
        dock.setObjectName(name or f"{widget.objectName() or title.lower().replace(' ', '_')}_dock")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        self.docks[dock.objectName()] = dock
        self.menus["&View"].addAction(dock.toggleViewAction())
        return dock

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
            last = self.settings.last_log_in_corpus(path)
            if last is not None and last.is_file() and last.resolve().is_relative_to(path.resolve()):
                return self.controller.open_path(last)
        return self.controller.open_path(path)

    def _show_document(self, document: LogDocument | None) -> None:
        self.editor.set_turn(None)
        self.session_bar.set_sessions(document.sessions if document is not None else [])
        position = self.settings.last_position(document.path) if document is not None else None
        sessions = document.sessions if document is not None else []
        index = next((s.index for s in sessions if position is not None and s.id == position.session_id), 0)
        self.show_session(index if sessions else -1, turn_index=position.turn_index if position else 0)
        self._update_title()
        self._update_enabled()
        if document is None:
            self.statusBar().showMessage(NO_LOG_TEXT)  # no timeout: it describes the window until a log opens

    def show_session(self, index: int, turn_index: int = 0) -> None:
        document = self.document
        session = document.sessions[index] if document is not None and 0 <= index < len(document.sessions) else None
        self.editor.set_turn(None)  # commits typing for the session left
        self.session = session
        self.model.set_session(session)
        self.metrics.set_session(session)
        self.session_bar.show_session(index)
        self._reflect_session()
        if session is not None and session.turns:
            self.select_row(min(max(turn_index, 0), len(session.turns) - 1), focus_editor=True)
        else:
            self._on_current_row_changed(QModelIndex(), QModelIndex())
        self.session_selected.emit(session)

    def _reflect_session(self) -> None:
        session = self.session
        self.session_bar.show_task_completion(session.task_completion if session is not None else None)
        if self.document is None:
            self.session_bar.show_no_log(NO_LOG_TEXT)
        else:
            self.session_bar.show_progress(*self.model.transcription_progress())

    def _on_annotation_changed(self, change: AnnotationChange) -> None:
        if change.session == self.session:
            self._reflect_session()

    def _show_no_document(self) -> None:
        self._show_document(None)

    def _on_unsaved_changed(self, unsaved: bool) -> None:
        self.setWindowModified(unsaved)

    def _on_characters_removed(self, count: int) -> None:
        self.show_status(removed_characters_note(count))

    def show_status(self, text: str) -> None:
        self.statusBar().showMessage(text, STATUS_SECONDS * 1000)

    def _on_document_saved(self, _path: Path) -> None:
        self._update_title()

    def _update_title(self) -> None:
        name = self.document.path.name if self.document is not None else "no log open"
        name += " (read-only)" if self.controller.read_only else ""
        self.setWindowTitle(f"{name}[*] — {APP_TITLE}")
        self.setWindowModified(self.controller.has_unsaved_work)

    def _update_enabled(self) -> None:
        has_document = self.document is not None
        for action_spec in ACTIONS:
            if action_spec.menu in ("&Navigate", "&Annotate", "&Playback") or action_spec.name in (
                    "save", "save_as", "export_csv", "close"):
                self.actions[action_spec.name].setEnabled(has_document or action_spec.checkable)
        self.editor.set_read_only(self.controller.read_only)  # edits and saves are refused with a message
        self.actions["undo"].setEnabled(self.undo_stack.canUndo())
        self.actions["redo"].setEnabled(self.undo_stack.canRedo())

    # --- selection and moving between turns ---------------------------------------
    def current_turn(self) -> Turn | None:
        return self.model.turn_at(self.table.current_row())

    def select_row(self, row: int, focus_editor: bool = False) -> None:
        """Select ROW; with FOCUS_EDITOR (keyboard moves) the focus follows: the editor on a turn to
        transcribe, else the table (a system turn's editor is disabled and cannot keep it)."""
        typing = self.editor.isAncestorOf(QApplication.focusWidget())
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

    def show_element(self, view: ElementView, raise_details: bool = True) -> None:
        """Show any element (an operation clicked in the timeline, a finding's element) in the detail panel,
        brought to the front unless RAISE_DETAILS is False (the findings list stays in front while used)."""
        self.detail.show_element(view)
        if raise_details:
            self.docks["details_dock"].raise_()

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        turn = self.model.turn_at(current.row()) if current.isValid() else None
        self.editor.set_turn(turn)
        self.detail.show_turn(turn)
        if turn is not None and self.document is not None:
            self.settings.set_last_position(self.document.path, LastPosition(turn.session.id, turn.index))
        self.turn_selected.emit(turn)

    def _on_row_activated(self, _index: QModelIndex) -> None:
        self._focus_editor_if_transcribable()

    def _claim_typing(self) -> QWidget | None:
        """The editor's text box, focused, when the current turn is one to transcribe (TypingRouter)."""
        turn = self.current_turn()
        if turn is None or not is_transcribable(turn) or not self.editor.text.isEnabled():
            return None
        self.editor.focus_text()
        return self.editor.text

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
            self.show_status(self._no_turn_that_way(step, users_only))
            return
        self.select_row(row, focus_editor=True)

    def _no_turn_that_way(self, step: int, users_only: bool) -> str:
        turn = self.current_turn()
        if turn is None:
            return "No turn is selected"
        kind = "user turn" if users_only else "turn"
        where = "after" if step > 0 else "before"
        text = (f"No {kind} {where} turn {shorten(turn.id, SHOWN_ID_CHARS)} in session "
                f"{shorten(turn.session.id, SHOWN_ID_CHARS)}")
        if 0 <= turn.session.index + step < len(turn.session.document.sessions):
            key = key_text(spec("next_session" if step > 0 else "previous_session"))
            text += f"; {key} goes to the {'next' if step > 0 else 'previous'} session"
        return text

    def step_session(self, step: int) -> bool:
        """Show the next (+1) or previous (-1) session of this log, at its first turn, the focus in the
        editor; at either end, ask session_boundary_crossed's handler (the corpus) for a neighbour."""
        document = self.document
        if document is None or self.session is None:
            return False
        index = self.session.index + step
        if 0 <= index < len(document.sessions):
            self.show_session(index)
            return True
        if self.neighbour_session is not None and self.neighbour_session(step):
            return True
        first_or_last = "last" if step > 0 else "first"
        self.show_status(f"Session {shorten(self.session.id, SHOWN_ID_CHARS)} is the {first_or_last} session "
                         f"of {document.path.name}" + ("" if self.neighbour_session else "; open a folder of logs to go on to the next log"))
        return False

    def commit_and_next(self) -> None:
        """Ctrl+Enter: store the transcription, go to the next user turn still to transcribe, play it."""
        self.table.commit_open_editor()
        self.editor.commit()
        row = self.model.find_row(self.table.current_row(), +1, needs_transcription, wrap=True)
        if row is None:
            self.statusBar().showMessage("Every user turn of this session is transcribed", STATUS_SECONDS * 1000)
            return
        self.select_row(row, focus_editor=True)
        turn = self.current_turn()
        if self.settings.auto_play and turn is not None:
            self.play_turn_requested.emit(turn)
            if self.playback is not None:
                self.playback.play_turn(turn)

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

    def _reveal(self, command) -> None:
        """Show the session and turn an undo or redo changed, so the annotator sees what happened."""
        session, turn = changed_place(command)
        if turn is not None and turn != self.current_turn():
            self.select_turn(turn)
        elif turn is None and session is not None and session != self.session:
            self.show_session(session.index)

    # --- playback hooks (audio is wired by the lead) --------------------------------
    def play_pause(self) -> None:
        self.play_pause_requested.emit()
        if self.playback is not None:
            self.playback.toggle()

    def replay(self) -> None:
        self.replay_requested.emit()
        if self.playback is not None:
            self.playback.replay()

    def back(self) -> None:
        self.back_requested.emit(BACK_SECONDS)
        if self.playback is not None:
            self.playback.back(BACK_SECONDS)

    def _set_auto_play(self, on: bool) -> None:
        self.settings.auto_play = on

    def _set_loop(self, on: bool) -> None:
        self.settings.loop = on
        self.loop_changed.emit(on)

    def _set_speed(self, speed: float) -> None:
        self.settings.speed = speed
        self.speed_changed.emit(speed)

    def _set_prefill_automatically(self, on: bool) -> None:
        self.settings.prefill_automatically = on
        self.editor.auto_prefill = on

    # --- files, help, layout --------------------------------------------------------
    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        for path in self.settings.recent_files:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _checked=False, p=path: self._open_recent(p))
        self.recent_menu.setEnabled(True)
        if not self.settings.recent_files:
            self.recent_menu.addAction("(none yet)").setEnabled(False)

    def _open_recent(self, stored: str) -> None:
        path = Path(name_from_text(stored))
        if not path.exists():
            self.settings.remove_recent_file(path)
        self.open_path(path)

    def show_shortcuts(self) -> ShortcutsDialog:
        dialog = ShortcutsDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def show_about(self) -> None:
        show_about(self)

    def restore_layout(self) -> None:
        """Restore size, docks and splitter as the annotator left them, fitted to this screen (call after every add_dock)."""
        restore_layout(self, self.splitter, self.settings)
        for name in self.on_demand_docks:
            self.docks[name].hide()

    def save_layout(self) -> None:
        save_layout(self, self.splitter, self.settings)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self, lambda: fit_on_screen(self))  # once the window system has framed the window

    def closeEvent(self, event) -> None:
        if not self.controller.maybe_discard():
            event.ignore()
            return
        self.recovery.release()
        self.save_layout()
        self.settings.sync()
        event.accept()

    # --- drag and drop -------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        paths = [url.toLocalFile() for url in event.mimeData().urls() if url.isLocalFile()]
        if not paths:
            return
        event.acceptProposedAction()
        # Open after the drop returns: a message box inside a drop handler blocks the drag source.
        QTimer.singleShot(0, lambda: self.open_path(paths[0]))
