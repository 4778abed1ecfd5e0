"""Ctrl+F: find in the open session's turns, the hits highlighted in the turn table, F3 / Shift+F3
stepping through them with the turn selected.

The search reads the session's cached turn facts (annotator.analysis.search), so typing in the
find box costs one pass over the session's facts, never a tree walk; the pattern runs on a worker
(gui/search/pattern_task.py) with its time limit: a slow one says "searching…" with a Cancel, and never
freezes the window. The hits follow the session shown and every annotation change (a replace, an
edit), as long as the bar is open.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QBoxLayout, QWidget

from annotator.analysis.search import (
    CONCEPTS,
    RECOGNIZER,
    REFERENCE_CONCEPTS,
    SYSTEM,
    TRANSCRIPTION,
    Hit,
    match_texts,
    session_texts,
)
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.annotating.turn_table import Column
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.search.find_bar import FindBar
from annotator.gui.search.pattern_task import PatternTask
from annotator.user_patterns import PatternError

FIELD_COLUMNS = {
    TRANSCRIPTION: Column.TRANSCRIPTION,
    RECOGNIZER: Column.RECOGNIZER,
    SYSTEM: Column.SYSTEM,
    CONCEPTS: Column.CONCEPTS,
    REFERENCE_CONCEPTS: Column.CONCEPTS,
}


class FindController(QObject):
    def __init__(self, window: MainWindow, navigator: Navigator, controller: DocumentController):
        super().__init__(window)
        self.window, self.navigator = window, navigator
        self.bar = FindBar(window)
        self.bar.hide()
        central = window.centralWidget()
        layout = central.layout() if central is not None else None
        assert isinstance(layout, QBoxLayout), "the window's central widget stacks its parts in a box"
        layout.insertWidget(1, self.bar)  # between the session bar and the table
        self.hits: list[Hit] = []
        self.at: int | None = None  # the hit stepped to
        self._return_focus: QWidget | None = None
        self._again_pending = False
        self.pending: PatternTask[list[Hit]] | None = None  # the search running on a worker
        self.bar.query_changed.connect(self.search)
        self.bar.cancel_requested.connect(self._cancel_search)
        self.bar.step_requested.connect(self.step)
        self.bar.close_requested.connect(self.close)
        navigator.session_selected.connect(lambda _session: self._search_again())
        navigator.facts_made.connect(lambda _session: self._search_again())
        controller.annotation_changed.connect(lambda _change: self._search_again())

    def open(self) -> None:
        """Ctrl+F: show the bar with its text selected, searching what it holds."""
        focused = QApplication.focusWidget()
        if not self.bar.isVisible() and focused is not None and not self.bar.isAncestorOf(focused):
            self._return_focus = focused
        self.bar.open()
        self.search()

    def close(self) -> None:
        """Escape: hide the bar and its highlights; the focus goes back where it was."""
        self.bar.hide()
        self._cancel_search()
        self.hits, self.at = [], None
        self.navigator.model.set_search_hits({}, None)
        target = self._return_focus
        self._return_focus = None
        if target is not None and target.isVisible() and target.isEnabled():
            target.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.navigator.editor.focus_text()

    def search(self, keep_turn: int | None = None) -> None:
        """Search the session for the bar's query; KEEP_TURN: stay on that turn's hit (or the next) once found."""
        self._cancel_search()
        session = self.navigator.session
        query = self.bar.query()
        self.hits, self.at = [], None
        if session is not None and query.text and self.navigator.facts_wait.counting:
            # A long session's facts are being made on a worker: searching now would make them all here first.
            self.navigator.model.set_search_hits({}, None)
            self.bar.show_searching()
            return
        if session is None or not query.text:
            self._show()
            return
        try:
            pattern = query.pattern()
        except PatternError as error:
            self._refused(str(error))
            return
        texts = session_texts(session)
        task = PatternTask(
            lambda context: match_texts(texts, pattern, cancelled=context.cancelled),
            lambda hits: self._found(hits, keep_turn),
            self._refused,
            self,
        )
        if task.running:  # else its hits are shown already
            self.pending = task
            self.navigator.model.set_search_hits({}, None)
            self.bar.show_searching(cancellable=True)

    def _found(self, hits: list[Hit], keep_turn: int | None) -> None:
        self.pending = None
        self.hits = hits
        if keep_turn is not None:
            self.at = next((k for k, hit in enumerate(hits) if hit.turn_index >= keep_turn), None)
        self._show()

    def _refused(self, message: str) -> None:
        self.pending = None
        self.bar.show_error(message)
        self.window.show_status(message)
        self.navigator.model.set_search_hits({}, None)

    def _cancel_search(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
            self.bar.show_count(None, 0)
            self.bar.count.setText("cancelled" if self.bar.text.text() else "")

    def _search_again(self) -> None:
        """The session or an annotation changed: search again once the events of now are handled, so a
        replace changing a thousand turns costs one search, not a thousand."""
        if self.bar.isVisible() and not self._again_pending:
            self._again_pending = True
            QTimer.singleShot(0, self._search_again_now)

    def _search_again_now(self) -> None:
        """The hits again, staying on the same turn's hit if any."""
        self._again_pending = False
        if not self.bar.isVisible():
            return
        self.search(keep_turn=self.hits[self.at].turn_index if self.at is not None else None)

    def step(self, step: int) -> None:
        """F3 / Shift+F3: the next or previous hit (after or before the current turn at first), its turn selected."""
        if not self.bar.isVisible():
            self.open()
        if not self.hits:
            self.window.show_status(
                "Searching the session…"
                if self.navigator.facts_wait.counting or self.pending is not None
                else "No hits in this session"
                if self.bar.query().text
                else "Type what to find"
            )
            return
        if self.at is None:
            current = self.navigator.current_turn()
            row = current.index if current is not None else -1
            if step > 0:
                self.at = next((k for k, hit in enumerate(self.hits) if hit.turn_index >= row), 0)
            else:
                self.at = next(
                    (k for k in reversed(range(len(self.hits))) if self.hits[k].turn_index < row), len(self.hits) - 1
                )
        else:
            self.at = (self.at + step) % len(self.hits)
        hit = self.hits[self.at]
        session = self.navigator.session
        assert session is not None, "the hits are of the session shown"
        self.navigator.select_turn(session.turns[hit.turn_index])
        self._show()

    def _show(self) -> None:
        cells: dict[int, set[int]] = {}
        for hit in self.hits:
            cells.setdefault(hit.turn_index, set()).add(FIELD_COLUMNS[hit.field])
        current = None
        if self.at is not None:
            hit = self.hits[self.at]
            current = (hit.turn_index, FIELD_COLUMNS[hit.field])
        self.navigator.model.set_search_hits(cells, current)
        self.bar.show_count(self.at, len(self.hits))
