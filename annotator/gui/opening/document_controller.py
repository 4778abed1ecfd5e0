"""The opened log's life: open, save, save as, export, close, and asking before discarding work.

Holds the LogDocument and the QUndoStack of its edits. It is the GUI's one
listener on the document and re-announces each AnnotationChange as
annotation_changed, the signal every Qt view connects to (docs/events.md). Every error
the user can cause (AnnotatorError) is shown in a message box naming the
file and place, and whatever was open before stays open.

Unsaved work is what the undo stack holds since the last save (its clean state,
the one unsaved flag) plus typing not yet stored (a widget registers it with add_typing_source). A log can be open
read-only (the recovery watcher's open_guard decides, when another window has
it open): then no edit reaches the undo stack and nothing is saved.

In team mode (annotator.team.mode: the corpus folder is marked) the log is opened with the
annotator's own human file folded in, and saving writes that file (annotator.team.work),
never the log; File > Team mode (gui/corpus/team_switch.py) switches the corpus's mode.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, Signal, SignalInstance
from PySide6.QtWidgets import QFileDialog, QWidget

from annotator.errors import AnnotatorError
from annotator.gui.message_box import Button, show_error
from annotator.gui.opening.guarded_undo_stack import GuardedUndoStack
from annotator.gui.opening.hand_over_passes import HandOverPasses
from annotator.gui.opening.log_paths import resolve_log_path, same_file
from annotator.gui.opening.opener import LogOpener
from annotator.gui.opening.save_questions import (
    LOG_FILTER,
    ask_overwrite_or_reload,
    ask_save_before_export,
    ask_save_path,
    ask_to_keep_work,
)
from annotator.gui.settings import AppSettings, LastPosition
from annotator.log.document import AnnotationChange, LogDocument
from annotator.log.elements import Turn
from annotator.log.gc_pause import gc_paused, hand_over_document
from annotator.team.mode import in_team_mode
from annotator.team.work import TeamWork

# A turn and the value its typing would store (None: remove); a third item names its kind, as the recovery
# journal's set_typing takes it (the concepts' typing), when it is not the transcription.
Typing = tuple[Turn, str | None] | tuple[Turn, str | None, str]
OpenGuard = Callable[[Path], str | None]  # "edit", "read-only", or None: do not open


class DocumentController(QObject):
    document_opened = Signal(object)  # LogDocument
    about_to_replace = Signal(object)  # the LogDocument about to be closed, reloaded or replaced
    document_closed = Signal()
    document_saved = Signal(object)  # the Path written
    work_discarded = Signal(object)  # LogDocument whose unsaved edits the user chose to drop
    annotation_changed = Signal(object)  # AnnotationChange, after the core announced it
    status_reported = Signal(str)  # one line for the status bar
    typing_changed = Signal()  # what pending_text() returns may have changed
    unsaved_changed = Signal(bool)  # has_unsaved_work, when it may have changed
    team_mode_changed = Signal(bool)  # whether the open log (or the corpus) is now in team mode

    def __init__(self, parent_widget: QWidget, settings: AppSettings):
        super().__init__(parent_widget)
        self.parent_widget = parent_widget
        self.settings = settings
        self.undo_stack = GuardedUndoStack(self)
        self.document: LogDocument | None = None
        self.open_guard: OpenGuard | None = None
        self.kept_on_reload: Callable[[], str] = lambda: (
            "your unsaved annotations are lost"
        )  # the recovery watcher says
        self.team_work: TeamWork | None = None  # the annotator's work in team mode, saved to their own file
        self.opener = LogOpener(parent_widget)
        self.after_hand_over = HandOverPasses()  # what an open shows after the turns (gui/opening/hand_over_passes.py)
        # Widgets holding typing not yet committed register a function storing it; it runs
        # before every save, export, close or open, so no keystroke is lost.
        self.pending_edit_flushers: list[Callable[[], object]] = []
        self.save_preparers: list[Callable[[], object]] = []  # what stores its values only when a save is made
        self.typing_sources: list[Callable[[], Typing | None]] = []
        self.undo_stack.cleanChanged.connect(self._announce_unsaved)
        self.undo_stack.refused.connect(self._refuse_edit)
        self.typing_changed.connect(self._announce_unsaved)

    @property
    def read_only(self) -> bool:
        return self.undo_stack.read_only

    def add_typing_source(self, changed: SignalInstance, source: Callable[[], Typing | None]) -> None:
        """SOURCE tells the typing a widget holds, CHANGED says when that may have changed."""
        self.typing_sources.append(source)
        changed.connect(self.typing_changed)

    def pending_text(self) -> Typing | None:
        """Typing not yet stored, counted as unsaved work and journalled like any other edit."""
        return next((typing for typing in (source() for source in self.typing_sources) if typing is not None), None)

    # --- opening and closing -------------------------------------------------
    def open_path(self, path: str | Path) -> bool:
        """Open the log at PATH (or the first log of a folder). False if it was not opened.

        The log is read in the background (gui/opening/opener.py) while this waits in a local event loop;
        what was open stays open, untouched, until the new log is ready, and stays if it is cancelled."""
        if self.refuse_while_opening():
            return False
        try:
            target = resolve_log_path(path)
        except AnnotatorError as error:
            self.show_error("Cannot open", error)
            return False
        if self.document is not None and same_file(target, self.document.path):
            return True
        mode = self.open_guard(target) if self.open_guard is not None else "edit"
        if mode is None:
            return False
        answer = self._ask_to_keep_work()
        if answer is None:
            return False
        try:
            with gc_paused():  # no collection walks the new log before the hand-over has frozen it
                return self._open_loaded(target, mode, answer)
        finally:
            self.opener.deliver_typed()  # what the annotator typed while it loaded, now the window takes keys

    def _open_loaded(self, target: Path, mode: str, answer: Button) -> bool:
        position = self._last_position(target)
        outcome = self.opener.load(target, position.session_id if position is not None else None)
        if outcome is None:
            still = f"; {self.document.path.name} stays open" if self.document is not None else ""
            self.status_reported.emit(f"Opening {target.name} was cancelled{still}")
            return False
        if isinstance(outcome, AnnotatorError):
            self.show_error("Cannot open", outcome)
            return False
        team_work = self._start_team_work(outcome, "Cannot open")
        if team_work is False:
            return False
        if answer == Button.Discard:  # only now: a cancelled open keeps the work and its journal
            self.work_discarded.emit(self.document)
        self._replace_document(outcome, read_only=mode == "read-only", team_work=team_work)
        self.settings.add_recent_file(target)
        self.status_reported.emit(f"Opened {target}{' read-only' if self.read_only else ''}")
        return True

    def refuse_while_opening(self) -> bool:
        """True (and said in the status bar) while a log is being read or its views filled after the hand-over:
        nothing may open, close or save meanwhile."""
        target = self.opener.target
        if target is not None:  # the opener is busy reading it
            self.status_reported.emit(f"Still opening {target.name}: wait for it, or Cancel it (Esc)")
            return True
        if self.after_hand_over.collecting:
            self.status_reported.emit(f"Still showing {self._open_log_name()}: wait for it")
            return True
        return False

    def may_close(self) -> bool:
        """Asked before the window closes: not while a log is being read, and not over unsaved work. A close
        asked while an open fills its views (between the hand-over's passes) is done once they are filled."""
        if self.after_hand_over.collecting:  # the log is read by then: the passes follow the hand-over
            self.status_reported.emit("Closing once the log is shown…")
            self.after_hand_over.when_done(self.parent_widget.close)
            return False
        return not self.refuse_while_opening() and self.maybe_discard()

    def open_with_dialog(self) -> bool:
        if self.refuse_while_opening():
            return False
        folder = str(self.document.folder) if self.document is not None else ""
        dialog = QFileDialog(self.parent_widget, "Open a Communicator log", folder, LOG_FILTER)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        if not dialog.exec():
            return False
        return self.open_path(dialog.selectedFiles()[0])

    def close_document(self) -> bool:
        if self.refuse_while_opening():
            return False
        if self.document is None:
            return True
        if not self.maybe_discard():
            return False
        self._replace_document(None)
        return True

    def _last_position(self, path: Path) -> LastPosition | None:
        """Where the annotator stopped in PATH (their own place in team mode), before its team work is started."""
        return self.settings.last_position(path, self.settings.team_annotator_of(path))

    def _start_team_work(self, document: LogDocument, title: str) -> TeamWork | Literal[False] | None:
        """In team mode, the annotator's work on DOCUMENT (their file folded in); None outside team
        mode; False when their file cannot be read (said in a message box)."""
        if not in_team_mode(document.path):
            return None
        try:
            return TeamWork(document, self.settings.annotator)
        except AnnotatorError as error:
            self.show_error(title, error)
            return False

    def _replace_document(
        self, document: LogDocument | None, read_only: bool = False, team_work: TeamWork | None = None
    ) -> None:
        previous = self.document
        if document is not None:
            self.after_hand_over.begin()
            # The keys typed while the log was read go to the editor the first pass shows, before the other views.
            self.after_hand_over.later("typed keys", self.opener.deliver_typed)
        try:
            self._show_document(document, read_only, team_work)
            self.after_hand_over.run()
        finally:
            hand_over_document(previous, document)  # docs/architecture.md, "Opening a log"

    def _show_document(self, document: LogDocument | None, read_only: bool, team_work: TeamWork | None) -> None:
        if self.document is not None:
            self.about_to_replace.emit(self.document)
            self.document.remove_listener(self._announce)
        if self.team_work is not None:
            self.team_work.close()
        self.team_work = team_work
        self.undo_stack.clear()
        self.undo_stack.read_only = read_only and document is not None
        self.document = document
        if document is None:
            self.document_closed.emit()
            return
        document.add_listener(self._announce)
        self.document_opened.emit(document)
        self.team_mode_changed.emit(team_work is not None)

    def _announce(self, change: AnnotationChange) -> None:
        self.annotation_changed.emit(change)

    # --- unsaved work ---------------------------------------------------------
    def flush_pending_edits(self) -> None:
        for flush in self.pending_edit_flushers:
            flush()

    @property
    def has_unsaved_work(self) -> bool:
        return self.document is not None and (not self.undo_stack.isClean() or self.pending_text() is not None)

    def _announce_unsaved(self) -> None:
        self.unsaved_changed.emit(self.has_unsaved_work)

    def _refuse_edit(self) -> None:
        self.status_reported.emit(f"{self._open_log_name()} is open read-only: nothing is changed or saved here")

    def _open_log_name(self) -> str:
        """The open log's file name, for what is said while one is open (read-only, shown after the hand-over)."""
        document = self.document
        assert document is not None, "said while a log is open"
        return document.path.name

    def maybe_discard(self) -> bool:
        """True when the current work may go: saved, nothing to save, or the user said so."""
        answer = self._ask_to_keep_work()
        if answer == Button.Discard:
            self.work_discarded.emit(self.document)
        return answer is not None

    def _ask_to_keep_work(self) -> Button | None:
        """Save, Discard (the caller says work_discarded when it really goes), Ok when there is nothing
        to save, or None: the user cancelled, or the save failed."""
        self.flush_pending_edits()
        document = self.document
        if document is None or not self.has_unsaved_work:  # no log, no unsaved work
            return Button.Ok
        answer = ask_to_keep_work(self.parent_widget, document.path.name)
        if answer == Button.Save:
            return answer if self.save() else None
        return answer if answer == Button.Discard else None

    # --- saving -----------------------------------------------------------------
    def _document_to_save(self) -> LogDocument | None:
        """The open document with the typing not yet stored stored, or None (nothing open, or
        read-only: said so)."""
        if self.document is None:
            return None
        if self.read_only:
            self._refuse_edit()
            return None
        self.flush_pending_edits()
        for prepare in self.save_preparers:
            prepare()
        return self.document

    def save(self) -> bool:
        """Write the log in place, atomically; the first save keeps the original as NAME.orig.xml."""
        document = self._document_to_save()
        if document is None:
            return False
        return self._save_team_work(self.team_work) if self.team_work is not None else self._save_log(document)

    def save_into_log(self) -> bool:
        """Save into the log itself even in team mode: an adjudication (gui/compare) is the one truth."""
        document = self._document_to_save()
        saved = document is not None and self._save_log(document)
        if saved and self.team_work is not None:
            self.team_work.log_saved()  # what the log holds now is nobody's work
        return saved

    def _save_log(self, document: LogDocument) -> bool:
        overwrite = False
        if document.changed_on_disk():
            choice = ask_overwrite_or_reload(self.parent_widget, document.path.name, self.kept_on_reload())
            if choice == Button.Discard:  # "Reload": the other program's version wins, by the user's choice
                return self._reload_instead_of_saving(document.path.name)
            if choice != Button.Save:
                return False
            overwrite = True
        try:
            document.save(overwrite=overwrite, keep_original=True)
        except AnnotatorError as error:
            self.show_error("Cannot save", error)
            return False
        self.undo_stack.setClean()
        kept = document.kept_original
        note = f" (the original is kept as {kept.name})" if kept is not None else ""
        self.status_reported.emit(" ".join([f"Saved {document.path}{note}", *document.save_notices]))
        self.document_saved.emit(document.path)
        return True

    def _reload_instead_of_saving(self, name: str) -> bool:
        """The Reload answer to a save of a log changed on disk. True (as a save) only when nothing is unsaved after
        it: the work the recovery watcher restored on the reloaded log is not saved, and whatever asked for the save
        (opening another log, a search hit, closing, an export) must not carry the annotator away from it unseen."""
        if not self.reload():
            return False
        if not self.has_unsaved_work:
            return True
        self.status_reported.emit(
            f"Reloaded {name} (changed on disk) and restored your unsaved work on it, not saved yet; "
            "nothing else was done: look at it, save it (Ctrl+S), then go on"
        )
        return False

    def _save_team_work(self, work: TeamWork) -> bool:
        try:
            work.save()
        except AnnotatorError as error:
            self.show_error("Cannot save", error)
            return False
        self.undo_stack.setClean()
        self.status_reported.emit(
            f"Saved {work.annotator}'s work to {work.file.name} (team mode: {work.doc.path.name} itself is not changed)"
        )
        self.document_saved.emit(work.file)
        return True

    def save_as(self, path: str | Path | None = None) -> bool:
        document = self._document_to_save()
        if document is None:
            return False
        if self.team_work is not None:
            self.status_reported.emit(
                f"Team mode: your work is saved to {self.team_work.file.name} with Save; "
                "the log is never written (annotator fold makes an annotated copy)"
            )
            return False
        if path is None:
            path = ask_save_path(self.parent_widget, document.path)
            if path is None:
                return False
        target = Path(path)
        if same_file(target, document.path):
            return self.save()
        previous = document.path
        document.path = target  # the document now lives there: later saves, audio and positions follow it
        try:
            document.save()
        except AnnotatorError as error:
            document.path = previous
            self.show_error("Cannot save", error)
            return False
        self.undo_stack.setClean()
        self.settings.add_recent_file(target)
        self.status_reported.emit(" ".join([f"Saved {target}", *document.save_notices]))
        self.document_saved.emit(target)
        return True

    def reload(self) -> bool:
        """Read the log again from disk, in the background like an open; the unsaved edits in memory go
        (the recovery watcher offers them back, from its journal or from memory). Cancelled, the document stays as it was."""
        document = self.document
        if document is None or self.refuse_while_opening():
            return False
        try:
            with gc_paused():  # as in open_path
                return self._reload(document)
        finally:
            self.opener.deliver_typed()

    def _reload(self, document: LogDocument) -> bool:
        position = self._last_position(document.path)
        fresh = self.opener.load(document.path, position.session_id if position is not None else None)
        if fresh is None:
            self.status_reported.emit(f"Reloading {document.path.name} was cancelled")
            return False
        if isinstance(fresh, AnnotatorError):
            self.show_error("Cannot reload", fresh)
            return False
        team_work = self._start_team_work(fresh, "Cannot reload")
        if team_work is False:
            return False
        self._replace_document(fresh, read_only=self.read_only, team_work=team_work)
        self.status_reported.emit(f"Reloaded {fresh.path}")
        return True

    # --- export -----------------------------------------------------------------
    def save_before_export(self) -> bool:
        """Export reads the file: offer to save first, or to export what is on disk."""
        answer = ask_save_before_export(self.parent_widget)
        if answer == Button.Save:
            return self.save()
        return answer == Button.Ignore

    # --- errors -------------------------------------------------------------------
    def show_error(self, title: str, error: Exception) -> None:
        self.status_reported.emit(str(error))
        show_error(self.parent_widget, title, str(error))
