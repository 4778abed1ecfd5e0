"""Keeps unsaved annotation edits in the recovery journal and offers them back after a crash.

Each edit, and the typing not yet stored, is journalled on a thread of its own
within a second of being made (annotator.journal.recovery_journal), however fast
edits come and however busy the GUI thread is. Before the document is reloaded,
closed or replaced the journal is written at once, so a Reload offers the
unsaved edits back on top of the new file. Opening a log that another window has
open asks first (recovery_questions): read-only, edit here too, or cancel; the
other window's work is never offered nor deleted here. Work of windows that died
is offered once: Restore (the default; one step on the undo stack) or Discard. Typing that was not yet stored
comes back as it was, a draft in its turn's editor (draft_restored), stored by Ctrl+Enter or a move. A save, or Discard when
closing, removes this window's journal. A journal that cannot be written is a
warning in the status bar until a write succeeds; then a Reload (or any replacement of the
document) keeps the unsaved edits in memory and offers them back on the new document, and the
changed-on-disk question says so rather than promising a journal. A lock that cannot be written is
a warning too, and is written again every LOCK_RETRY_MS until it is.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QLabel, QMainWindow, QWidget

from annotator.errors import AnnotatorError, WriteError
from annotator.file_name_text import name_from_text
from annotator.gui.annotating.undo_commands import RestoreWork
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.recovery.questions import ask_open_elsewhere, ask_restore, tell_set_aside
from annotator.gui.runtime.idle_steps import IdleSteps
from annotator.gui.theme import theme_colour
from annotator.journal.entries import AnnotationEdits, JournalEntry
from annotator.journal.files import journal_dir, new_instance, others_holding
from annotator.journal.recovery_journal import Leftovers, RecoveryJournal
from annotator.journal.values import split_draft
from annotator.log.document import LogDocument

LOCK_RETRY_MS = 5000  # a lock that could not be written is tried again this often (space freed, folder fixed)


def warning_style() -> str:
    """The banner's style sheet (its colours are the same in both schemes)."""
    return (
        f"QLabel {{ color: {theme_colour('alert_text').name()}; background: {theme_colour('alert_background').name()};"
        " padding: 1px 6px; font-weight: bold; }"
    )


class _Relay(QObject):
    """Carries the writer thread's reports to the GUI thread (a queued connection). It only sends,
    and the writer holds it, so it outlives the window without ever being used on a dead one."""

    reported = Signal(object)  # a one-line error, or None: written again


class RecoveryWatcher(QObject):
    draft_restored = Signal(object, str)  # the Turn and the text typed in its editor, not yet stored, when it died

    def __init__(self, controller: DocumentController, parent_widget: QWidget):
        super().__init__(controller)
        self.controller = controller
        self.parent_widget = parent_widget
        self.instance = new_instance()  # this window, in the names of its journals and locks
        self.journal: RecoveryJournal | None = None
        self.watched: LogDocument | None = None  # the document the journal listens to
        self._retired: RecoveryJournal | None = None  # the journal of the document being replaced
        self._baseline_reading: IdleSteps | None = None  # the journal's reading of the file's values
        self._baseline_held = False  # see hold_baseline_reading
        self._taken_over: set[str] = set()  # windows on other hosts the annotator said are gone
        # The unsaved edits of a replaced document the journal could not hold: (log, hash it had, edits).
        self._in_memory: tuple[Path, str, AnnotationEdits] | None = None
        self._journal_error: str | None = None
        self._lock_error: str | None = None
        self._lock_retry = QTimer(self)
        self._lock_retry.setInterval(LOCK_RETRY_MS)
        self._lock_retry.timeout.connect(self._hold_lock)
        self._relay = _Relay()
        self._relay.reported.connect(self._show_write_result)
        self.warning = QLabel(parent_widget)
        self.warning.setObjectName("journal_warning")
        self.warning.setStyleSheet(warning_style())
        self.warning.setWordWrap(True)
        self.warning.hide()
        if isinstance(parent_widget, QMainWindow):
            parent_widget.statusBar().addPermanentWidget(self.warning, 1)
        controller.open_guard = self.ask_how_to_open
        controller.kept_on_reload = self._kept_on_reload
        controller.about_to_replace.connect(self._before_replacing)
        controller.document_opened.connect(self._opened)
        controller.document_closed.connect(self._closed)
        controller.document_saved.connect(self._saved)
        controller.work_discarded.connect(self._discarded)
        controller.typing_changed.connect(self._typing_changed)

    # --- opening ----------------------------------------------------------------------------
    def ask_how_to_open(self, path: Path) -> str | None:
        """'edit', 'read-only' or None (do not open): asked only when another window holds PATH."""
        others = others_holding(path.resolve(), self.instance, self._journal_folder())
        if not others:
            return "edit"
        mode, self._taken_over = ask_open_elsewhere(self.parent_widget, path, others)
        return mode

    def _journal_folder(self) -> Path | None:
        """The folder Preferences > Paths names (stored as name_text), or None: the per-user data folder."""
        chosen = self.controller.settings.journal_folder
        return Path(name_from_text(chosen)) if chosen else None

    def _opened(self, document: LogDocument) -> None:
        retired, self._retired = self._retired, None
        if self.controller.read_only:
            if retired is not None:
                retired.close(release=True)
            self._taken_over = set()
            return
        # The file's values are read in slices after the turns show (journal/baseline.py), not before.
        journal = RecoveryJournal(
            document, folder=self._journal_folder(), instance=self.instance, deferred_baseline=True
        )
        self.journal = journal
        self._hold_lock()
        if retired is not None:
            retired.close(release=retired.lock_file != journal.lock_file)
        found = journal.leftovers(self._taken_over)
        self._taken_over = set()
        on_disk = list(found.entries)
        kept, self._in_memory = self._in_memory, None
        if kept is not None and kept[0] == journal.log_path:
            found.entries.append(
                journal.entry_of(journal.file, str(kept[0]), kept[1], datetime.now().astimezone(), kept[2])
            )
        journal.watch(document)
        journal.start_writing(self._report)
        self.watched = document
        self._baseline_reading = IdleSteps(self, journal.read_baseline_in_steps())
        self._baseline_reading.hold(self._baseline_held)
        if found.set_aside:
            tell_set_aside(self.parent_widget, found.set_aside)
        if found.entries:
            self._offer(journal, document, found, on_disk)

    def _offer(
        self, journal: RecoveryJournal, document: LogDocument, found: Leftovers, on_disk: list[JournalEntry]
    ) -> None:
        """Restore or Discard FOUND's entries into DOCUMENT, which JOURNAL watches; ON_DISK: those held in journal
        files (the others were in memory)."""
        try:
            if not ask_restore(self.parent_widget, found.entries):
                journal.drop(on_disk)
                return
            entries, draft = split_draft(document, found.entries)
            restored = journal.restore(document, entries)
        except AnnotatorError as error:
            self.controller.show_error("Cannot restore the unsaved work", error)
            return
        if restored:
            self.controller.undo_stack.push(RestoreWork(restored))  # one step to undo, and unsaved work
        if draft is not None:
            self.draft_restored.emit(*draft)  # typing again, as before the crash: unsaved, not stored
        try:
            journal.flush()  # in this window's journal now: the claimed ones may go
            journal.drop(on_disk)
        except AnnotatorError:
            pass  # kept, and the warning says why
        self.controller.status_reported.emit(f"Restored {len(restored)} unsaved annotation(s) of {document.path.name}")

    # --- while it is open ---------------------------------------------------------------------
    def unsaved_edits(self) -> AnnotationEdits:
        """The open log's annotations that differ from its file (typing not yet stored included); none when
        no journal watches it (no log, or open read-only)."""
        journal, document = self.journal, self.controller.document
        return journal.unsaved_edits(document) if journal is not None and document is not None else AnnotationEdits()

    def _typing_changed(self) -> None:
        if self.journal is not None:
            typing = self.controller.pending_text()
            self.journal.set_typing(*typing) if typing is not None else self.journal.set_typing(None)

    def _report(self, error: Exception | None) -> None:
        """From the writer's thread (or the GUI's, for a flush)."""
        self._relay.reported.emit(None if error is None else str(error))

    def _show_write_result(self, message: str | None) -> None:
        self._journal_error = message
        self._show_warning()

    def _show_warning(self) -> None:
        folder = self._journal_folder() or journal_dir()
        lines = []
        if self._journal_error is not None:
            lines.append(
                f"⚠ Unsaved work is not protected: the recovery journal cannot be written "
                f"({self._journal_error}). Save with Ctrl+S, and make {folder} writable (or set "
                "ANNOTATOR_DATA_DIR to a writable folder); this stays until the journal is written again."
            )
        if self._lock_error is not None:
            lines.append(
                f"⚠ Another window may open this log without being warned: this window's lock cannot be "
                f"written ({self._lock_error}); it is tried again every {LOCK_RETRY_MS // 1000} s."
            )
        self.warning.setText(" ".join(lines))
        self.warning.setToolTip(self.warning.text())
        self.warning.setVisible(bool(lines))

    def _hold_lock(self) -> None:
        """Write this window's lock on the open log; while it cannot be written, warn and try again later."""
        if self.journal is None:
            self._lock_error = None
        else:
            try:
                self.journal.hold()
                self._lock_error = None
            except AnnotatorError as error:
                self._lock_error = str(error)
        self._lock_retry.start() if self._lock_error is not None else self._lock_retry.stop()
        self._show_warning()

    def _kept_on_reload(self) -> str:
        """What the changed-on-disk question may promise for the unsaved work: the journal only once it is written."""
        if self.journal is not None:
            try:
                self.journal.flush()
                return "your unsaved annotations stay in the recovery journal and are offered back"
            except AnnotatorError:
                pass
        return (
            "your unsaved annotations are kept in this window and offered back; the recovery journal cannot be written"
        )

    def _saved(self, _path: Path) -> None:
        if self.journal is not None:
            document = self.controller.document
            assert document is not None, "what was saved is the open log"
            try:
                self.journal.saved(document)
            except AnnotatorError as error:
                self.controller.status_reported.emit(str(error))

    def _discarded(self, _document: LogDocument) -> None:
        if self.journal is not None:
            try:
                self.journal.discard()
            except AnnotatorError as error:
                self.controller.status_reported.emit(str(error))

    # --- letting go -------------------------------------------------------------------------
    def _before_replacing(self, _document: LogDocument) -> None:
        """Write the journal now: a reload offers it back, and nothing typed a moment ago is lost."""
        journal = self.journal
        if journal is None:
            return
        try:
            journal.flush()
        except AnnotatorError:  # the warning says so; the edits stay here, offered back on the new document
            edits = journal.unsaved_edits(self._watched_document())
            self._in_memory = (journal.log_path, journal.sha256, edits) if edits else None
        journal.close(release=False)
        journal.unwatch(self._watched_document())
        self._stop_baseline_reading()
        self._retired, self.journal, self.watched = journal, None, None

    def _watched_document(self) -> LogDocument:
        """The document the journal watches: _opened sets both, and both go together."""
        assert self.watched is not None, "a journal watches the open log"
        return self.watched

    def hold_baseline_reading(self, held: bool) -> None:
        """Hold the reading of the file's values while HELD: a long session's turn facts are being made on a
        worker (gui/panes/session_panes.py), and the reading would make them again on the GUI thread, each
        slice taking the interpreter from that worker (its facts came 5-10 s after the paint instead of 2)."""
        self._baseline_held = held
        if self._baseline_reading is not None:
            self._baseline_reading.hold(held)

    def _stop_baseline_reading(self) -> None:
        if self._baseline_reading is not None:
            self._baseline_reading.stop()
            self._baseline_reading.deleteLater()
            self._baseline_reading = None

    def _closed(self) -> None:
        self.release()

    def keep_for_next_start(self) -> str:
        """The process is about to end unasked (a stop signal): the editor's typing and every unsaved edit are
        written to the journal now, then released, so that the next start offers them back. What became of
        the unsaved work, in words: kept, none, or why it could not be kept."""
        self._typing_changed()
        kept, failures = False, []
        for journal in (self._retired, self.journal):
            if journal is not None:
                try:
                    journal.flush()
                except WriteError as error:
                    failures.append(str(error))  # nothing more can be done at this point but say so
                    continue
                kept = kept or journal.file.exists()  # a flush with no unsaved edits removes the file
        self.release()
        if failures:
            return f"unsaved work could not be kept: {'; '.join(failures)}"
        return "unsaved work is kept in the recovery journal" if kept else "nothing was unsaved"

    def release(self) -> None:
        """The window closes, or its log: no more writes, and its locks go."""
        for journal in (self._retired, self.journal):
            if journal is not None:
                journal.close(release=True)
        if self.journal is not None:
            self.journal.unwatch(self._watched_document())
        self._stop_baseline_reading()
        self._retired = self.journal = self.watched = None
        self._lock_retry.stop()
