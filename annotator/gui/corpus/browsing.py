"""The corpus the Sessions dock browses: opening a folder lists its sessions, a session chosen there (or
Ctrl+PgDown past the last session of a log) opens its log at that session, and a saved log's rows are
read again."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject

from annotator.corpus.session_filter import MineTest
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.settings import AppSettings
from annotator.log.document import LogDocument
from annotator.log.elements import Session
from annotator.log.text import SHOWN_ID_CHARS, shorten


class CorpusBrowsing(QObject):
    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        controller: DocumentController,
        browser: SessionBrowser,
        settings: AppSettings,
        show_dock,
    ):
        """SHOW_DOCK: brings the Sessions dock to the front."""
        super().__init__(window)
        self.window, self.navigator, self.browser, self.settings = window, navigator, browser, settings
        self.controller = controller
        self._show_dock = show_dock
        self.folder: Path | None = None  # the corpus open, if any
        navigator.corpus_requested.connect(self.open_corpus)
        navigator.session_selected.connect(self._mark_open)
        navigator.neighbour_session = self.neighbour_session
        controller.document_opened.connect(self._document_opened)
        controller.document_saved.connect(lambda _path: self._document_saved())
        browser.session_activated.connect(self._session_activated)
        browser.scan_failed.connect(window.show_status)
        browser.index_notice.connect(window.show_status)

    def open_corpus(self, folder: Path) -> None:
        self.folder = Path(folder)
        self._show_dock()
        self.browser.proxy.set_mine(MineTest(self.folder, self.settings.annotator))
        self.browser.scan(self.folder)

    def neighbour_session(self, step: int) -> bool | None:
        """Ctrl+PgDown past the last session of the log: the next log's session in the Sessions list; True once
        it is shown, or once the annotator has cancelled the move (the open session stays, in the list, the
        table and the status bar); False at the end of the list; None when no corpus is open."""
        if self.folder is None:
            return None
        document, session = self.navigator.document, self.navigator.session
        if document is None or session is None:
            return False
        summary = self.browser.neighbour_in_another_log(document.path, session.index, step)
        if summary is None:
            return False
        self.browser.select_session(summary.file, summary.session_index)
        self._session_activated(summary.file, summary.session_index)
        if self.navigator.document is document and self.controller.document is document:
            self.browser.mark_open(document.path, session.index)  # the list shows again what the window shows
            self.window.show_status(
                f"Still on session {shorten(session.id, SHOWN_ID_CHARS)} of {document.path.name}: "
                f"{summary.file.name} was not opened"
            )
        return True

    def open_session(self, file: Path, session_index: int) -> bool:
        """Show session SESSION_INDEX of the log FILE (opened if need be); False when the log did not open."""
        self._session_activated(file, session_index)
        document = self.navigator.document
        return document is not None and document.path.resolve() == Path(file).resolve()

    def _session_activated(self, file: Path, session_index: int) -> None:
        if not self.navigator.open_path(file):
            return
        document, shown = self.navigator.document, self.navigator.session
        if (
            document is not None
            and 0 <= session_index < len(document.sessions)
            and (shown is None or shown.index != session_index)
        ):
            self.navigator.show_session(session_index)

    def _mark_open(self, session: Session | None) -> None:
        self.browser.mark_open(
            session.document.path if session is not None else None, session.index if session is not None else 0
        )

    def _document_opened(self, document: LogDocument) -> None:
        if self.folder is not None and document.path.resolve().is_relative_to(self.folder.resolve()):
            folder = self.folder
            self.settings.set_last_log_in_corpus(folder, document.path, self.settings.team_annotator_of(folder))

    def _document_saved(self) -> None:
        if self.folder is not None and self.navigator.document is not None:
            self.browser.refresh_log(self.navigator.document.path)
