"""Ctrl+Shift+F: search every log of the open corpus (else the open log) in the background, the hits
listed in the Search results dock; activating one opens its log, session and turn.

The open log is searched in the window's own document (its unsaved edits included: its sessions are
walked on the worker first, as the panes' worker walks them, safely beside the annotator's edits) and
skipped on disk; every other log is searched on a worker, in the texts the corpus's index keeps of it
when it is unchanged since, else read (annotator.corpus_index.pattern_search), a log that cannot be read
being one line in the status
summary. Cancel (or a new search) stops the worker; the hits found so far stay listed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDockWidget

from annotator.analysis.search import Hit, match_texts, walked_session_texts
from annotator.corpus.paths import expand_log_paths, file_identity
from annotator.corpus_index.pattern_search import search_logs
from annotator.errors import AnnotatorError
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.corpus.browsing import CorpusBrowsing
from annotator.gui.main_window import MainWindow
from annotator.gui.runtime.worker import BackgroundTask
from annotator.gui.search.find_controller import FindController
from annotator.gui.search.search_results import SearchResults
from annotator.user_patterns import PatternError


class CorpusSearch(QObject):
    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        browsing: CorpusBrowsing,
        find: FindController,
        results: SearchResults,
        dock: QDockWidget,
    ):
        """RESULTS: what the Search results DOCK holds (gui/docks.py)."""
        super().__init__(window)
        self.window, self.navigator, self.browsing, self.find = window, navigator, browsing, find
        self.results, self.dock = results, dock
        self.task: BackgroundTask | None = None
        self.unreadable: list[str] = []
        self.failure = ""  # the one line that stopped the last search (a pattern too slow)
        self._root: Path | None = None
        self.results.search_requested.connect(self.search)
        self.results.cancel_requested.connect(self.cancel)
        self.results.hit_activated.connect(self.open_hit)

    def open(self) -> None:
        """Ctrl+Shift+F: the dock in front, its query box focused (the find bar's text as a start)."""
        if not self.results.text.text():
            self.results.text.setText(self.find.bar.text.text())
        self.dock.show()
        self.dock.raise_()
        self.results.open()

    def scope(self) -> tuple[Path | None, list[Path]]:
        """(the folder hits are named against, what to search: the corpus's folder, else the open log)."""
        corpus, document = self.browsing.folder, self.navigator.document
        if corpus is not None:
            return corpus, [corpus]
        if document is not None:
            return document.path.parent, [document.path]
        return None, []

    def search(self) -> None:
        self.cancel()
        query = self.results.query()
        try:
            pattern = query.pattern()
        except PatternError as error:
            self.results.finish(str(error))
            self.window.show_status(str(error))
            return
        self._root, given = self.scope()
        root = self._root
        if root is None or not given:  # the scope is a folder and what is in it, or nothing
            self.results.finish("Open a log or a corpus first")
            return
        self.results.start()
        self.unreadable, self.failure = [], ""
        document = self.navigator.document
        open_sessions = list(document.sessions) if document is not None else []
        open_path = document.path if document is not None else None
        task = BackgroundTask(
            lambda context: self._work(context, open_sessions, open_path, pattern, given, query, root), self
        )
        task.published.connect(self._published)
        task.progressed.connect(lambda done, total, _label: self.results.set_progress(done, total))
        task.finished.connect(lambda: self._finished(task))
        task.failed.connect(self._failed)
        self.task = task
        task.start()

    @staticmethod
    def _work(context, open_sessions, open_path: Path | None, pattern, given: list[Path], query, root: Path) -> None:
        # Listing a corpus's logs stats each of them: on the worker, as the search, not on the GUI thread.
        paths = expand_log_paths(given)
        others = _other_than(paths, open_path) if open_path is not None else paths
        if len(others) == len(paths):
            open_sessions = []  # the open log is not among them
        # The open log is searched in the window's document, its unsaved edits included, not on disk.
        paths = others
        for session in open_sessions:
            if context.cancelled():
                return
            for hit in match_texts(
                walked_session_texts(session, session.document.path), pattern, cancelled=context.cancelled
            ):
                context.publish(hit)
        # From the corpus's index: only the logs changed since it was made are read (corpus_index).
        for item in search_logs(paths, query, root, progress=context.progress, cancelled=context.cancelled):
            context.publish(item)

    def _failed(self, message: str) -> None:
        self.failure = message
        self.window.show_status(message)

    def _published(self, items: list) -> None:
        self.unreadable += [str(item) for item in items if isinstance(item, AnnotatorError)]
        self.results.add_hits([item for item in items if isinstance(item, Hit)], self._root)

    def _finished(self, task: BackgroundTask) -> None:
        if task is not self.task:
            return
        self.task = None
        count = self.results.hit_count()
        summary = f"{count} hit{'s' if count != 1 else ''}"
        if task.state.value == "cancelled":
            summary += " (cancelled)"
        if self.failure:
            summary += f" (stopped: {self.failure})"
        if self.unreadable:
            summary += f"; {len(self.unreadable)} log(s) could not be read: {self.unreadable[0]}"
        self.results.finish(summary)

    def cancel(self) -> None:
        if self.task is not None and self.task.is_running:
            self.task.cancel()

    def open_hit(self, hit: Hit | None) -> None:
        """Open the hit's log (asking about unsaved work as any open does), its session and its turn."""
        if hit is None or hit.file is None or not self.navigator.open_path(hit.file):
            return
        document = self.navigator.document
        if document is None or hit.session_index >= len(document.sessions):
            return
        session = document.sessions[hit.session_index]
        if hit.turn_index < len(session.turns):
            self.navigator.select_turn(session.turns[hit.turn_index])


def _other_than(paths: list[Path], opened: Path) -> list[Path]:
    """PATHS but the file OPENED names, under whatever name (a link, another path to it)."""
    identity = file_identity(opened)
    return [path for path in paths if path != opened and (identity is None or file_identity(path) != identity)]
