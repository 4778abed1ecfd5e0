"""Reading a log off the GUI thread: the parse and the first facts the window shows run on a
BackgroundTask, with a progress dialog (bytes read, then the session being prepared) and a Cancel.

LogOpener.load() keeps the shape of a plain call: it runs a local event loop while the task works
and returns the loaded document, the AnnotatorError that stopped it, or None when the annotator
cancelled. What the views compute first for the shown session (its live metrics and its timeline) is
computed on the worker too and waits in LogOpener.take_prepared() for the view that shows that
session; for a long session (PREPARE_AFTER_PAINT_TURNS turns or more: seconds at 70,000 turns) the
window shows the turns once the log is parsed, and the session's turn facts, its progress and its panes
are made on a worker afterwards (gui/panes/session_panes.py). While the log loads, the window keeps painting and the progress dialog
answers, but no click reaches the window and its keys are kept until the log is shown
(gui/opening/typing_during_load.py): an action that could start another open, close or quit, or edit the log
being replaced cannot run half way through this one. Why so: docs/architecture.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PySide6.QtCore import QEventLoop, QObject, Qt, QThreadPool, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget

from annotator.analysis.metrics_live import LiveMetrics
from annotator.errors import AnnotatorError, LogReadError
from annotator.gui.opening.typing_during_load import InputBlocker, deliver
from annotator.gui.runtime.worker import BackgroundTask, TaskContext
from annotator.log.audio_refs import AudioResolver
from annotator.log.document import LogDocument
from annotator.log.elements import Session
from annotator.log.flags import session_reviewer
from annotator.log.gc_pause import gc_paused
from annotator.log.text import SHOWN_ID_CHARS, shorten
from annotator.reading.loading import parse_log_file
from annotator.timeline.data import TimelineData, build_timeline

# A log read faster than this opens without the dialog ever flashing up.
SHOW_PROGRESS_AFTER_MS = 400
_MB = 1_000_000
# The progress bar's scale: reading the file fills it to READ_SHARE, preparing the shown session the rest.
PROGRESS_STEPS, READ_SHARE = 1000, 0.9
# A session of this many turns shows its turns before its metrics and timeline are made (on a worker).
PREPARE_AFTER_PAINT_TURNS = 1000


def is_long(session: Session) -> bool:
    """Whether SESSION's metrics and timeline take long enough to be made off the GUI thread
    (about 0.3 s per 1,000 turns: 20 s at 70,000)."""
    return len(session.turns) >= PREPARE_AFTER_PAINT_TURNS


Outcome = LogDocument | AnnotatorError | None  # None: cancelled
# What the worker hands over: the document; what it prepared of the session shown first (None: nothing
# prepared, that session's panes are made after the first paint when it is long); the resolver of the log's
# audio, its folder walked (a folder of thousands of files takes a while); the session bar's marks of the
# session shown first (None: the log has no session).
Loaded = tuple[LogDocument, "PreparedSession | None", AudioResolver, "SessionMarks | None"]


@dataclass(frozen=True)
class _OfSession:
    """Something computed of SESSION on the worker, at the document's REVISION."""

    session: Session
    revision: int

    def is_for(self, session: Session) -> bool:
        """Still right for SESSION: the same session of the same document, which nothing has changed since."""
        return (
            session.document is self.session.document
            and session.index == self.session.index
            and session.document.revision == self.revision
        )


@dataclass(frozen=True)
class PreparedSession(_OfSession):
    """What the views show first of SESSION."""

    metrics: LiveMetrics
    timeline: TimelineData


@dataclass(frozen=True)
class SessionMarks(_OfSession):
    """The session bar's task completion and reviewer of SESSION: each a walk over the session's children on
    the GUI thread (15 ms apiece at 70,000 turns)."""

    task_completion: str | None
    reviewer: str | None


class _Cancelled(Exception):
    """Raised from the chunk watcher to leave the parse as soon as Cancel is pressed."""


def load_with_first_facts(path: Path, session_id: str | None, context: TaskContext) -> Loaded | AnnotatorError | None:
    """On the worker: parse PATH reporting bytes read, walk its folder for audio, then read the session bar's
    marks of the session the window will show first (SESSION_ID, else the first) and compute its turn facts,
    metrics and timeline, unless it is long (PREPARE_AFTER_PAINT_TURNS: then the last three are the panes'
    worker's). None once cancelled.

    The cycle collector is paused meanwhile: the load makes millions of objects that all survive, and
    each full collection walks them all holding the GIL, which froze the window for 0.6-1.4 s at a
    time on a 100 MB log."""
    with gc_paused():
        return _load_with_first_facts(path, session_id, context)


def _load_with_first_facts(path: Path, session_id: str | None, context: TaskContext) -> Loaded | AnnotatorError | None:
    reported = [-_MB]

    def watch(done: int, total: int) -> None:
        if context.cancelled():
            raise _Cancelled
        if done - reported[0] < _MB and done < total:
            return  # a report per MB read: the dialog has nothing new to say between them
        reported[0] = done
        share = done / total if total else 1.0
        context.progress(
            round(PROGRESS_STEPS * READ_SHARE * share),
            PROGRESS_STEPS,
            f"Reading {path.name}: {done / _MB:.0f} of {total / _MB:.0f} MB",
        )

    try:
        document = LogDocument(path, parse_log_file(path, watch))
    except _Cancelled:
        return None
    except AnnotatorError as error:
        return error
    except OSError as error:  # a read failing half way (the open itself is already a LogReadError)
        return LogReadError(path, error.strerror or str(error))
    audio = AudioResolver(document.folder)
    audio.index_folder()
    if context.cancelled() or not document.sessions:
        return None if context.cancelled() else (document, None, audio, None)
    session = document.session(session_id) if session_id is not None else None
    session = session or document.sessions[0]
    # The index of the session-level transcriptions, which the first rows' facts read (18 ms at 70,000 turns).
    document.facts_cache.session_level_annotation(session, None)
    marks = SessionMarks(session, document.revision, session.task_completion, session_reviewer(session.el))
    if len(session.turns) >= PREPARE_AFTER_PAINT_TURNS:
        # The window shows once the log is parsed: the rows it paints make their own facts, and the panes'
        # worker makes the whole session's (1.8 s at 70,000 turns), with its metrics and timeline.
        return None if context.cancelled() else (document, None, audio, marks)
    context.progress(
        round(PROGRESS_STEPS * READ_SHARE),
        PROGRESS_STEPS,
        f"Preparing session {shorten(session.id, SHOWN_ID_CHARS)} ({len(session.turns):,} turns)",
    )
    session.turn_facts()  # what the turn table, the session bar and the metrics read first
    document.facts_cache.untranscribed(session)  # the table's progress and Ctrl+Enter
    prepared = PreparedSession(session, document.revision, LiveMetrics(session), build_timeline(session, audio))
    return None if context.cancelled() else (document, prepared, audio, marks)


class LogOpener(QObject):
    """Loads one log at a time in the background for the window WINDOW (see the module's docstring)."""

    progressed = Signal(int, int, str)  # what the progress dialog shows: done, total, label
    # The AudioResolver of the log just loaded, its folder walked on the worker: said before load() returns, so
    # that the first turn's audio is found without a walk on the GUI thread.
    audio_indexed = Signal(object)

    def __init__(self, window: QWidget):
        super().__init__(window)
        self.window = window
        self.show_progress_after_ms = SHOW_PROGRESS_AFTER_MS
        self.target: Path | None = None  # the log being read, while one is
        self.dialog: QProgressDialog | None = None
        self._prepared: PreparedSession | None = None
        self._marks: SessionMarks | None = None
        self._typed: list[QKeyEvent] = []  # the keys typed during the last load, until deliver_typed()
        # A thread of its own: on the shared pool an open would queue behind a corpus scan or a
        # validation, with the window taking no keys meanwhile.
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)

    @property
    def busy(self) -> bool:
        return self.target is not None

    def load(self, path: Path, session_id: str | None = None) -> Outcome:
        """PATH read on a worker, with SESSION_ID's turn facts computed; see Outcome."""
        if self.busy:
            raise RuntimeError("LogOpener.load is already running")
        self.target = path
        task = BackgroundTask(partial(load_with_first_facts, path, session_id), self)
        outcome: list[Outcome] = [None]
        task.succeeded.connect(lambda result: outcome.__setitem__(0, result))
        task.failed.connect(lambda text: outcome.__setitem__(0, LogReadError(path, text)))
        dialog = self._make_dialog(path)
        dialog.canceled.connect(task.cancel)  # the Cancel button
        dialog.rejected.connect(task.cancel)  # Esc, which QDialog turns into reject() without canceled
        task.progressed.connect(self._show_progress)
        blocker = InputBlocker(self.window, dialog)
        loop = QEventLoop()
        task.finished.connect(loop.quit)
        app = QApplication.instance()
        assert app is not None, "a log is opened in a running application only"
        app.installEventFilter(blocker)
        try:
            task.start(self._pool)
            loop.exec()
        finally:
            self._close_dialog()
            app.removeEventFilter(blocker)
            self._typed = blocker.typed
            blocker.deleteLater()
            self.target = None
        result, outcome[0] = outcome[0], None  # the task's connections hold this list: not the document
        task.deleteLater()
        if task.is_running:  # the application is quitting: every event loop was told to end
            task.cancel()
            return None
        if isinstance(result, tuple):
            document, self._prepared, audio, self._marks = result
            self.audio_indexed.emit(audio)
            return document
        return result

    def take_prepared(self, session: Session) -> PreparedSession | None:
        """What the worker computed for SESSION, once, if it still holds; None otherwise."""
        prepared, self._prepared = self._prepared, None
        return prepared if prepared is not None and prepared.is_for(session) else None

    def take_marks(self, session: Session) -> SessionMarks | None:
        """The session bar's marks of SESSION read by the worker, once, if they still hold; None otherwise."""
        marks, self._marks = self._marks, None
        return marks if marks is not None and marks.is_for(session) else None

    def deliver_typed(self) -> None:
        """Give the keys typed during the last load to the widget that has the focus now (once)."""
        typed, self._typed = self._typed, []
        deliver(typed, self.window)

    def cancel(self) -> None:
        """Stop the log being read (the progress dialog's Cancel does the same)."""
        if self.dialog is not None:
            self.dialog.cancel()

    def _make_dialog(self, path: Path) -> QProgressDialog:
        dialog = QProgressDialog(f"Opening {path.name}", "Cancel", 0, PROGRESS_STEPS, self.window)
        dialog.setObjectName("opening_progress")
        dialog.setWindowTitle("Opening a log")
        # Not modal: InputBlocker already keeps the window from input, and a modal dialog would run the
        # event loop again inside every setValue (and be taken for a question by whatever answers those).
        dialog.setWindowModality(Qt.WindowModality.NonModal)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        dialog.setMinimumDuration(self.show_progress_after_ms)
        dialog.setValue(0)
        self.dialog = dialog
        return dialog

    def _show_progress(self, done: int, total: int, label: str) -> None:
        if self.dialog is not None:
            self.dialog.setMaximum(total)
            self.dialog.setValue(done)
            self.dialog.setLabelText(label)
        self.progressed.emit(done, total, label)

    def _close_dialog(self) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is None:
            return
        shown = dialog.isVisible()
        dialog.canceled.disconnect()
        dialog.rejected.disconnect()
        dialog.reset()  # stops the timer that would show it later
        dialog.hide()
        dialog.deleteLater()
        if shown:  # give the window back the activation the dialog took, before the caller goes on with it
            self.window.activateWindow()
            QApplication.processEvents(QEventLoop.ProcessEventsFlag.ExcludeUserInputEvents)
