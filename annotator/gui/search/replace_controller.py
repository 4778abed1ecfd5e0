"""Ctrl+H replaces in the transcriptions of the open log, Ctrl+Shift+H in every log of the corpus:
a preview of every change first (gui/search/replace_dialog.py), then the ticked ones applied, one
undoable step per log.

The open log's changes go on its undo stack (saved when the annotator saves, to the log or, in
team mode, to their own file). Every other log of the corpus is planned on a worker, then loaded
again, changed through the annotation writer and saved atomically with its NAME.orig.xml kept, as a
save does; a log another window has open (annotator.journal.files.others_holding) or in
team mode (where annotations never go into the log) is left alone, and the preview says so. The
other logs are changed and saved on a worker too (seconds for a corpus of big logs): the window
stays responsive, and others_saved says when they are written.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from annotator.analysis.replace import (
    PlannedChange,
    apply_changes,
    check_plan,
    plan_over,
    plan_replacements,
    transcriptions,
)
from annotator.analysis.search import TRANSCRIPTION, Query
from annotator.corpus.paths import expand_log_paths
from annotator.corpus_index.pattern_search import logs_that_may_match
from annotator.errors import AnnotatorError
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.corpus.browsing import CorpusBrowsing
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.recovery.watcher import RecoveryWatcher
from annotator.gui.runtime.worker import BackgroundTask
from annotator.gui.search.find_controller import FindController
from annotator.gui.search.pattern_task import PatternTask
from annotator.gui.search.replace_command import ReplaceInLog
from annotator.gui.search.replace_dialog import ReplaceDialog
from annotator.journal.files import others_holding
from annotator.log.document import LogDocument
from annotator.team.mode import team_marker
from annotator.user_patterns import PatternError


class ReplaceController(QObject):
    others_saved = Signal(list)  # the other logs the last replace saved, once all of them are written

    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        controller: DocumentController,
        browsing: CorpusBrowsing,
        browser: SessionBrowser,
        recovery: RecoveryWatcher,
        find: FindController,
    ):
        super().__init__(window)
        self.window, self.navigator, self.controller = window, navigator, controller
        self.browsing, self.browser, self.recovery = browsing, browser, recovery
        self.find = find
        self.dialog: ReplaceDialog | None = None
        self.task: BackgroundTask | None = None
        self.planning_here: PatternTask[list[PlannedChange]] | None = (
            None  # the open log's plan, its pattern run on a worker
        )
        self.saving: BackgroundTask | None = None

    # --- the actions -----------------------------------------------------------------------
    def replace_in_log(self) -> None:
        """Ctrl+H: the open log only."""
        document = self.navigator.document
        if document is None:
            self.window.show_status("Open a log first")
            return
        self._run(
            ReplaceDialog("Replace in this log", f"In the transcriptions of {document.path.name}", self.window),
            others=[],
        )

    def replace_in_corpus(self) -> None:
        """Ctrl+Shift+H: every log of the open corpus (else the open log)."""
        corpus, document = self.browsing.folder, self.navigator.document
        if corpus is None:
            self.replace_in_log()
            return
        others = [
            path for path in expand_log_paths([corpus]) if document is None or path.resolve() != document.path.resolve()
        ]
        self._run(
            ReplaceDialog("Replace in the corpus", f"In the transcriptions of every log in {corpus}", self.window),
            others=others,
        )

    def _run(self, dialog: ReplaceDialog, others: list[Path]) -> None:
        self.dialog = dialog
        dialog.find.setText(self.find.bar.text.text())
        dialog.preview_requested.connect(lambda: self.preview(others))
        dialog.stop_requested.connect(self._stop_preview)
        accepted = dialog.exec() == ReplaceDialog.DialogCode.Accepted
        self._cancel_planning()
        chosen = dialog.chosen() if accepted else []
        query, replacement = dialog.query(), dialog.replacement.text()
        self.dialog = None
        dialog.deleteLater()
        if chosen:
            self.apply(chosen, query, replacement)

    # --- planning --------------------------------------------------------------------------
    def preview(self, others: list[Path]) -> None:
        """The changes in the open log (its transcriptions read and the pattern run on a worker), then in
        OTHERS (read and planned on a worker); Stop or Cancel drops them."""
        dialog = self.dialog
        assert dialog is not None, "the dialog asks for its preview while it is open"
        query, replacement = dialog.query(), dialog.replacement.text()
        self._cancel_planning()
        try:
            query.pattern()
        except PatternError as error:
            dialog.set_busy(str(error))
            return
        document = self.navigator.document
        dialog.set_busy("Planning the changes in this log…", stoppable=True)
        task = PatternTask(
            lambda context: plan_over(
                transcriptions(document, walked=True) if document else [],
                query,
                replacement,
                cancelled=context.cancelled,
            ),
            lambda here: self._planned_here(here, others, query, replacement),
            self._refused,
            self,
        )
        self.planning_here = task if task.running else None

    def _planned_here(self, here: list[PlannedChange], others: list[Path], query: Query, replacement: str) -> None:
        self.planning_here = None
        dialog = self.dialog
        if dialog is None:
            return
        if not others:
            dialog.set_plan(here, {}, [])
            return
        dialog.set_busy(f"Planning the changes in {len(others)} other log(s)…", stoppable=True)
        corpus, instance = self.browsing.folder, self.recovery.instance
        # Only the logs whose transcriptions, as the corpus's index keeps them, match are read (corpus_index).
        task = BackgroundTask(
            lambda context: _plan_others(
                context,
                logs_that_may_match(others, corpus, query, (TRANSCRIPTION,)) if corpus else others,
                query,
                replacement,
                instance,
            ),
            self,
        )
        task.succeeded.connect(lambda result: self._planned(here, *result))
        task.failed.connect(self._refused)
        self.task = task
        task.start()

    def _refused(self, message: str) -> None:
        self.planning_here = None
        if self.dialog is not None:
            self.dialog.set_busy(message)

    def _stop_preview(self) -> None:
        self._cancel_planning()
        if self.dialog is not None:
            self.dialog.set_busy("Preview stopped")

    def _planned(self, here: list[PlannedChange], there: list[PlannedChange], notes: list[str]) -> None:
        if self.dialog is None:
            return
        root = self.browsing.folder
        changes = here + there
        names = {
            change: str(change.file.relative_to(root))
            if root and change.file.is_relative_to(root)
            else change.file.name
            for change in changes
        }
        self.dialog.set_plan(changes, names, notes)

    def _cancel_planning(self) -> None:
        if self.planning_here is not None:
            self.planning_here.cancel()
            self.planning_here = None
        if self.task is not None and self.task.is_running:
            self.task.cancel()
        self.task = None

    # --- applying --------------------------------------------------------------------------
    def apply(self, chosen: list[PlannedChange], query: Query, replacement: str) -> None:
        document = self.navigator.document
        by_file: dict[Path, list[PlannedChange]] = defaultdict(list)
        for change in chosen:
            by_file[change.file].append(change)
        lines: list[str] = []
        here = by_file.pop(document.path, []) if document is not None else []
        if document is not None and here and self.controller.read_only:  # changes here: of the open log
            lines.append(f"{document.path.name} is open read-only: its {len(here)} change(s) left alone")
        elif document is not None and here:
            try:
                check_plan(document, here)
            except PatternError as error:
                lines.append(str(error))
            else:
                self.controller.undo_stack.push(ReplaceInLog(document, here, query.text, replacement))
                lines.append(f"{len(here)} change(s) in {document.path.name} (unsaved: Ctrl+S saves, Ctrl+Z undoes)")
        if not by_file:
            self.window.show_status("Replace: " + "; ".join(lines))
            return
        self.window.show_status("Replace: " + "; ".join([*lines, f"saving {len(by_file)} other log(s)…"]))
        task = BackgroundTask(lambda context: _change_others(context, by_file, self.recovery.instance), self)
        task.succeeded.connect(lambda result: self._others_changed(lines, *result))
        task.failed.connect(lambda message: self.window.show_status(f"Replace: {message}"))
        self.saving = task
        task.start()

    def _others_changed(self, lines: list[str], saved: list[Path], notes: list[str]) -> None:
        if self.browsing.folder is not None:
            for path in saved:
                self.browser.refresh_log(path)
        lines = [*lines, *notes]
        if saved:
            lines.append(f"{len(saved)} other log(s) saved (each keeps its original as NAME.orig.xml)")
        self.window.show_status("Replace: " + "; ".join(lines))
        self.others_saved.emit(saved)


def _change_others(context, by_file: dict[Path, list[PlannedChange]], instance: str) -> tuple[list[Path], list[str]]:
    """On the worker: apply each log's planned changes and save it atomically (its original kept); the
    logs saved, and a note for each left alone or refused."""
    saved: list[Path] = []
    notes: list[str] = []
    for done, (path, changes) in enumerate(by_file.items(), 1):
        problem = _left_alone(path, instance)
        if problem is not None:
            notes.append(f"{path.name}: {problem}: left alone")
            continue
        try:
            other = LogDocument.load(path)
            apply_changes(other, changes)
            other.save(keep_original=True)
        except AnnotatorError as error:
            notes.append(str(error))
            continue
        saved.append(path)
        context.progress(done, len(by_file))
    return saved, notes


def _left_alone(path: Path, instance: str) -> str | None:
    """Why a log other than the open one is not changed, or None."""
    marker = team_marker(path)
    if marker is not None:
        return "in team mode (annotations go to each annotator's file, never into the log)"
    holders = others_holding(path.resolve(), instance)
    if holders:
        lock = next(iter(holders.values()))
        return f"open in another window ({lock.describe()})"
    return None


def _plan_others(
    context, paths: list[Path], query: Query, replacement: str, instance: str
) -> tuple[list[PlannedChange], list[str]]:
    """On the worker: the planned changes of PATHS and a note for each log left alone."""
    changes: list[PlannedChange] = []
    notes: list[str] = []
    for done, path in enumerate(paths, 1):
        if context.cancelled():
            break
        problem = _left_alone(path, instance)
        try:
            planned = plan_replacements(LogDocument.load(path), query, replacement)
        except AnnotatorError as error:
            notes.append(str(error))
            continue
        if planned and problem is not None:
            notes.append(f"{path.name}: {len(planned)} change(s) not offered: {problem}")
        elif planned:
            changes += planned
        context.progress(done, len(paths))
    return changes, notes
