"""The corpus browser: one row per session of a folder of logs, scanned in the background.

scan(folder) lists the folder's sessions as child processes read them (corpus.parallel),
with a progress bar and a Cancel button; arriving rows take their place in the sort and filter,
the selection and the view stay put. A filter box narrows the rows by words and keywords
("untranscribed", "no task completion", "errors"...). Enter or a double-click on a row emits
session_activated(file, session index). The file column stays in view while the others scroll
sideways, and the session open in the window is shown in bold.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QAction, QFont, QFontMetrics, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from annotator.corpus.scan import SessionSummary
from annotator.corpus.session_filter import FILTER_KEYWORDS, parse_filter
from annotator.corpus_index.browser_rows import Refreshed, publish_browser_rows, rows_after_save
from annotator.gui.corpus.session_filter_model import SessionFilter
from annotator.gui.corpus.session_list import Column, SessionListModel
from annotator.gui.runtime.worker import BackgroundTask, TaskState
from annotator.gui.widgets.kept_in_view import kept_in_view
from annotator.gui.widgets.list_tables import set_up_list_table
from annotator.gui.widgets.pinned_column import PinnedColumnTable
from annotator.gui.widgets.roles import SUMMARY_ROLE
from annotator.markers import MarkerSet

FILE_COLUMN_SHARE = 0.5  # of the table's width at most, so that the other columns can be scrolled into view
# Widths of the short columns, as sample text in the table's font (they hold numbers and short words).
COLUMN_SAMPLES = {
    Column.SESSION: "travel:20261121:001",
    Column.TURNS: "Turns",
    Column.DURATION: "Duration",
    Column.TRANSCRIBED: "Transcribed",
    Column.TASK: "not completed",
}


class SessionBrowser(QWidget):
    session_activated = Signal(Path, int)  # file, position of the session in it (ids may repeat)
    scan_finished = Signal(bool)  # True when the whole folder was scanned; False when cancelled or failed
    scan_failed = Signal(str)  # one-line reason a scan stopped (unreadable logs do not stop it)
    log_refreshed = Signal(Path)  # that log's rows were summarised again (refresh_log)
    index_notice = Signal(str)  # one line about the corpus's index (found damaged and made again...)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("session_browser")
        self.model = SessionListModel(self)
        self.proxy = SessionFilter(self)
        self.proxy.setSourceModel(self.model)
        self._task: BackgroundTask | None = None
        self._folder: Path | None = None
        self._paths: list[Path] = []
        self._refreshing: dict[Path, BackgroundTask] = {}
        self._saved_while_unlisted: set[Path] = set()  # saved before the scan listed them: refreshed once it does
        self.markers: MarkerSet | None = None
        self._build()
        self._connect()
        self._show_scanning(False)
        self._update_count()

    # --- composition ---------------------------------------------------------
    def _build(self) -> None:
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setObjectName("session_filter")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.setPlaceholderText(
            "Filter: words in file or session id, or untranscribed, no task completion, errors…"
        )
        self.filter_edit.setToolTip(_keyword_help())
        self.filter_edit.installEventFilter(self)
        self.keyword_button = QPushButton("Show only", self)
        self.keyword_button.setToolTip("Filter keywords (they can also be typed into the filter box)")
        self.keyword_button.setMenu(self._keyword_menu())
        self.count_label = QLabel(self)
        self.count_label.setTextFormat(Qt.TextFormat.PlainText)
        self.count_label.setWordWrap(True)  # "showing 12 of 4001 (4000 sessions, 1 unreadable log)" in a narrow dock

        self.table = PinnedColumnTable(self)
        self.table.setObjectName("session_table")
        self.table.setModel(self.proxy)
        set_up_list_table(self.table)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.sortByColumn(Column.FILE, Qt.SortOrder.AscendingOrder)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        metrics = self.table.fontMetrics()
        for column, sample in COLUMN_SAMPLES.items():
            header.resizeSection(column, metrics.horizontalAdvance(sample) + 28)
        header.resizeSection(Column.FINDINGS, metrics.horizontalAdvance("12 errors, 3 warnings") + 40)
        self.file_column = self.table.pin_first_column()
        # Log names differ at their end (…-002-hublog.xml): elided, their start goes.
        self.file_column.setTextElideMode(Qt.TextElideMode.ElideLeft)
        self._widest_file = 0

        self.progress_label = QLabel(self)
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)  # it names files
        # A long file name is clipped rather than widening the dock and with it the window.
        self.progress_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setFormat("%v of %m logs")  # on the bar: the label beside it is clipped first
        self.progress_bar.setMaximumHeight(metrics.height())
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop scanning; the sessions read so far stay listed")

        counts = QHBoxLayout()  # below the filter box, which has the dock's whole width (a tab of ~300 px)
        counts.addWidget(self.keyword_button)
        counts.addWidget(self.count_label, 1)
        self.progress_row = QWidget(self)
        bottom = QHBoxLayout(self.progress_row)
        bottom.setContentsMargins(0, 0, 0, 0)
        bottom.addWidget(self.progress_label, 1)
        bottom.addWidget(self.progress_bar, 2)
        bottom.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.filter_edit)
        layout.addLayout(counts)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.progress_row)

    def _keyword_menu(self) -> QMenu:
        menu = QMenu(self)
        self._keyword_actions: dict[str, QAction] = {}
        for keyword, (meaning, _) in FILTER_KEYWORDS.items():
            action = menu.addAction(keyword)
            action.setCheckable(True)
            action.setToolTip(meaning)
            action.toggled.connect(lambda on, keyword=keyword: self._toggle_keyword(keyword, on))
            self._keyword_actions[keyword] = action
        menu.setToolTipsVisible(True)
        return menu

    def _connect(self) -> None:
        self.filter_edit.textChanged.connect(self._on_filter_changed)
        self.filter_edit.returnPressed.connect(self._focus_table)
        self.table.activated.connect(self._on_activated)
        self.cancel_button.clicked.connect(self.cancel_scan)
        for signal in (
            self.proxy.rowsInserted,
            self.proxy.rowsRemoved,
            self.proxy.modelReset,
            self.proxy.layoutChanged,
        ):
            signal.connect(self._update_count)

    # --- what the window calls ----------------------------------------------
    @property
    def folder(self) -> Path | None:
        return self._folder

    @property
    def is_scanning(self) -> bool:
        return self._task is not None and self._task.is_running

    def scan(self, folder: Path | Sequence[Path]) -> None:
        """List the sessions of FOLDER (or of a list of logs and folders), replacing what is listed."""
        self.cancel_scan()
        paths = [Path(folder)] if isinstance(folder, (str, Path)) else [Path(p) for p in folder]
        root = paths[0] if len(paths) == 1 and paths[0].is_dir() else (paths[0].parent if paths else None)
        self._folder = root
        self.model.clear(root)
        self._saved_while_unlisted.clear()
        self._widest_file = 0
        self._paths = paths
        markers = self.markers
        task = BackgroundTask(lambda context: publish_browser_rows(paths, markers, context), self)
        task.published.connect(lambda batches: self._on_rows(task, batches))
        task.progressed.connect(lambda done, total, name: self._on_progress(task, done, total, name))
        task.failed.connect(lambda message: self._on_failed(task, message))
        task.finished.connect(lambda: self._on_finished(task))
        self._task = task
        self.progress_label.setText(f"Looking for logs in {root or 'the given files'}…")
        self.progress_bar.setRange(0, 0)  # busy until the number of files is known
        self._show_scanning(True)
        task.start()
        self._update_count()  # the list was emptied before the scan ran, which said "no logs found"

    def set_markers(self, markers: MarkerSet | None) -> None:
        """Add a column per marker (hits per session) and the marker:NAME filters; rescans what is listed."""
        self.markers = markers
        self.model.set_marker_names(list(markers.names) if markers is not None else [])
        if self._paths:
            self.scan(self._paths)

    def cancel_scan(self) -> None:
        task = self._task
        if task is not None and self.is_scanning:  # is_scanning: a task, running
            task.cancel()
            self.progress_label.setText("Cancelling…")
            self.cancel_button.setEnabled(False)

    def update_session(self, summary: SessionSummary) -> None:
        """Refresh one session's row (e.g. after the annotator saved; see corpus.scan.summarize_document)."""
        self.model.update_session(summary)

    def refresh_log(self, path: Path) -> None:
        """Summarise the saved log at PATH again, with its markers, in a child process (not the window's
        tree; the GUI thread goes on) and replace its rows; a log not listed is left alone, unless the
        running scan has yet to list it."""
        path = Path(path)
        if self.model.row_of(path, 0) is None:
            if self.is_scanning:
                self._saved_while_unlisted.add(path)  # the scan may be reading it as it was before the save
            return
        if path in self._refreshing:
            self._refreshing.pop(path).cancel()
        markers, listed = self.markers, list(self._paths)
        task = BackgroundTask(lambda _context: rows_after_save(path, listed, markers), self)  # and into the index
        task.succeeded.connect(lambda rows: self._on_refreshed(task, path, rows))
        task.failed.connect(lambda message: self.scan_failed.emit(f"{path.name}: not refreshed: {message}"))
        task.finished.connect(lambda: self._forget_refresh(task, path))
        self._refreshing[path] = task
        task.start()

    def _on_refreshed(self, task: BackgroundTask, path: Path, rows: list[SessionSummary]) -> None:
        if self._refreshing.get(path) is task:
            for summary in rows:
                self.model.update_session(summary)
            self.log_refreshed.emit(path)

    def _forget_refresh(self, task: BackgroundTask, path: Path) -> None:
        task.deleteLater()
        if self._refreshing.get(path) is task:
            del self._refreshing[path]

    def select_session(self, file: Path, session_index: int) -> bool:
        """Make that session's row current (e.g. where the annotator left off); False if it is not listed."""
        row = self.model.row_of(file, session_index)
        index = self.proxy.mapFromSource(self.model.index(row, 0)) if row is not None else QModelIndex()
        if not index.isValid():
            return False
        self._set_current(index)
        return True

    def neighbour_in_another_log(self, file: Path, session_index: int, step: int) -> SessionSummary | None:
        """The first listed session of another log after (+1) or before (-1) FILE's session at
        SESSION_INDEX, in the list's current order and filter; None at the end or when it is not listed."""
        row = self.model.row_of(file, session_index)
        index = self.proxy.mapFromSource(self.model.index(row, 0)) if row is not None else QModelIndex()
        if not index.isValid():
            return None
        here = Path(file).resolve()
        position = index.row() + step
        while 0 <= position < self.proxy.rowCount():
            summary = self.proxy.index(position, 0).data(SUMMARY_ROLE)
            if Path(summary.file).resolve() != here:
                return summary
            position += step
        return None

    def mark_open(self, file: Path | None, session_index: int = 0) -> None:
        """Show the session open in the window in bold and make its row current (None: no session open)."""
        self.model.set_open_session(file, session_index)
        self._select_open_session()

    def _select_open_session(self) -> None:
        row = self.model.open_row()
        index = self.proxy.mapFromSource(self.model.index(row, 0)) if row is not None else QModelIndex()
        if index.isValid() and index.row() != self.table.currentIndex().row():
            self._set_current(index)

    # --- scanning ------------------------------------------------------------
    def _on_rows(self, task: BackgroundTask, batches: list[list[SessionSummary]]) -> None:
        if task is not self._task:
            return
        for item in batches:  # a line about the index, or a listed log read again: the rest are rows
            if isinstance(item, str):
                self.index_notice.emit(item)
            for summary in item.rows if isinstance(item, Refreshed) else ():
                self.model.update_session(summary)
        summaries = [summary for batch in batches if isinstance(batch, list) for summary in batch]
        open_was_listed = self.model.open_row() is not None
        with kept_in_view(self.table):
            self.model.append_summaries(summaries)
        self._widen_columns(summaries)
        if not open_was_listed:
            self._select_open_session()  # once, as its row arrives: the annotator may move on from it
        if not self.table.currentIndex().isValid() and self.proxy.rowCount():
            self._set_current(self.proxy.index(0, 0), scroll=False)
        for path in {summary.file for summary in summaries} & self._saved_while_unlisted:
            self._saved_while_unlisted.discard(path)
            self.refresh_log(path)

    def _on_progress(self, task: BackgroundTask, done: int, total: int, name: str) -> None:
        if task is self._task and task.is_running:
            self.progress_bar.setRange(0, total)
            self.progress_bar.setValue(done)
            self.progress_label.setText(f"Scanning {done} of {total} logs: {name}")

    def _on_failed(self, task: BackgroundTask, message: str) -> None:
        if task is self._task:
            self.scan_failed.emit(message)

    def _on_finished(self, task: BackgroundTask) -> None:
        task.deleteLater()
        if task is not self._task:
            return
        self._task = None
        self._show_scanning(False)
        self._update_count()
        self.scan_finished.emit(task.state is TaskState.SUCCEEDED)

    def _widen_columns(self, summaries: list[SessionSummary]) -> None:
        """Session ids are shown whole: the column grows to the longest id seen (never shrinks); the
        file column to the longest name, up to half of the table (see _fit_file_column)."""
        bold = QFont(self.table.font())
        bold.setBold(True)  # the open session's row
        metrics = QFontMetrics(bold)
        widest = max((metrics.horizontalAdvance(s.session_id) for s in summaries), default=0) + 16
        header = self.table.horizontalHeader()
        if widest > header.sectionSize(Column.SESSION):
            header.resizeSection(Column.SESSION, widest)
        names = (self.model.display_name(s.file) for s in summaries)
        self._widest_file = max([self._widest_file] + [metrics.horizontalAdvance(name) + 16 for name in names])
        self._fit_file_column()

    def _fit_file_column(self) -> None:
        header = self.table.horizontalHeader()
        room = round(self.table.viewport().width() * FILE_COLUMN_SHARE)
        header.resizeSection(Column.FILE, max(min(self._widest_file, room), header.sectionSizeHint(Column.FILE)))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_file_column()

    def _show_scanning(self, scanning: bool) -> None:
        self.progress_row.setVisible(scanning)
        self.cancel_button.setEnabled(scanning)

    # --- filtering, counting, activating -------------------------------------
    def _on_filter_changed(self, text: str) -> None:
        self.proxy.set_filter_text(text)
        keywords, _ = parse_filter(text)
        for keyword, action in self._keyword_actions.items():
            action.blockSignals(True)
            action.setChecked(keyword in keywords)
            action.blockSignals(False)
        self._update_count()

    def _toggle_keyword(self, keyword: str, on: bool) -> None:
        keywords, words = parse_filter(self.filter_edit.text())
        keywords = [k for k in keywords if k != keyword] + ([keyword] if on else [])
        self.filter_edit.setText(" ".join(keywords + words))

    def _update_count(self) -> None:
        total, shown = self.model.rowCount(), self.proxy.rowCount()
        unreadable = self.model.unreadable_count()
        sessions = total - unreadable
        if total == 0:
            text = "" if self.is_scanning or self._folder is None else "no logs found"
        else:
            text = f"{sessions} session{'s' if sessions != 1 else ''}"
            if unreadable:
                text += f", {unreadable} unreadable log{'s' if unreadable != 1 else ''}"
            if shown != total:
                text = f"showing {shown} of {total} ({text})"
        self.count_label.setText(text)

    def _on_activated(self, index: QModelIndex) -> None:
        summary: SessionSummary | None = index.data(SUMMARY_ROLE)
        if summary is not None:
            self.session_activated.emit(summary.file, summary.session_index)

    def _set_current(self, index: QModelIndex, scroll: bool = True) -> None:
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.table.selectionModel().setCurrentIndex(index, flags)
        if scroll:
            self.table.scrollTo(index)

    def _focus_table(self) -> None:
        self.table.setFocus(Qt.FocusReason.ShortcutFocusReason)
        if not self.table.currentIndex().isValid() and self.proxy.rowCount():
            self._set_current(self.proxy.index(0, 0))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Down in the filter box goes to the table, so the keyboard never has to leave the home row."""
        if watched is self.filter_edit and event.type() == QEvent.Type.KeyPress:
            if isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Down:
                self._focus_table()
                return True
        return super().eventFilter(watched, event)


def _keyword_help() -> str:
    lines = [f"<b>{keyword}</b>: {meaning}" for keyword, (meaning, _) in FILTER_KEYWORDS.items()]
    return "Other words must appear in the file name or session id.<br>Keywords:<br>" + "<br>".join(lines)
