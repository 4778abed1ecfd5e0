"""Docks the timeline, waveform, session browser and findings panel into the main
window and wires audio playback.

The main window knows turns, sessions and annotations; this module connects
the views that follow them and the Playback facade, so main_window.py stays a
composition of its own parts.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal

from annotator.analysis.validation import Finding, Severity, findings_with_paths_in_subprocess
from annotator.corpus.scan import summarize_document
from annotator.gui.actions import key_text, spec
from annotator.gui.export_menu import ExportMenu
from annotator.gui.main_window import MainWindow
from annotator.gui.markers_controller import MarkersController
from annotator.gui.models.findings import count_text
from annotator.gui.playback import Playback
from annotator.gui.views.findings_panel import FindingsPanel
from annotator.gui.views.session_browser import SessionBrowser
from annotator.gui.views.timeline import TimelineView
from annotator.gui.views.waveform import WaveformView
from annotator.gui.window_geometry import is_wide_screen
from annotator.gui.worker import BackgroundTask
from annotator.log.document import LogDocument
from annotator.log.elements import ElementView, Session, Turn, view_of

Area = Qt.DockWidgetArea
# Shares of the window for the docks on a first start (afterwards the window keeps what the annotator made of it);
# a smaller screen's one column of four tabbed docks needs some 350 pixels for the tabs' names.
TIMELINE_HEIGHT, WAVEFORM_WIDTH, SIDE_DOCK_WIDTH, TABBED_DOCK_WIDTH = 0.34, 0.3, 0.22, 0.27


class Workspace(QObject):
    """The timeline, the waveform and playback, following the window's selection."""

    findings_shown = Signal()  # the open log's validation came back and is shown

    def __init__(self, window: MainWindow, playback: Playback | None = None):
        super().__init__(window)
        self.window = window
        self.timeline = TimelineView(window)
        self.timeline.setObjectName("timeline")
        self.waveform = WaveformView(window)
        self.waveform.setObjectName("waveform")
        self.playback = playback if playback is not None else Playback(self)
        self._audio_offset = 0.0  # seconds from session start to the loaded clip's start
        self.browser = SessionBrowser(window)
        self.browser.setObjectName("session_browser")
        self.findings = FindingsPanel(window)
        self.findings.setObjectName("findings")
        self.corpus: Path | None = None
        self._validation: BackgroundTask | None = None
        self._finding_paths: dict[int, str | None] = {}
        self._arrange_docks()
        window.playback = self.playback
        self.playback.set_loop(window.settings.loop)
        self.playback.set_speed(window.settings.speed)
        self.markers = MarkersController(window, self.timeline, self.browser)
        self.exports = ExportMenu(window, lambda: self.corpus)
        self._connect()

    def _arrange_docks(self) -> None:
        """The timeline and, beside it, the waveform in a strip below the turn table, where the annotator
        works; the Sessions dock (shown for a corpus only) left of it on a wide screen, else one more
        tab beside Details, Session metrics and Findings, so that the turn table keeps its width."""
        w = self.window
        w.add_dock(self.timeline, "Timeline", Area.BottomDockWidgetArea, "timeline_dock")
        w.add_dock(self.waveform, "Waveform", Area.BottomDockWidgetArea, "waveform_dock")
        w.splitDockWidget(w.docks["timeline_dock"], w.docks["waveform_dock"], Qt.Orientation.Horizontal)
        wide = is_wide_screen(w)
        w.add_dock(self.browser, "Sessions", Area.LeftDockWidgetArea if wide else Area.RightDockWidgetArea,
                   "sessions_dock")
        w.add_dock(self.findings, "Findings", Area.RightDockWidgetArea, "findings_dock")
        w.tabifyDockWidget(w.docks["metrics_dock"], w.docks["findings_dock"])
        if not wide:
            w.tabifyDockWidget(w.docks["findings_dock"], w.docks["sessions_dock"])
        w.docks["details_dock"].raise_()
        w.on_demand_docks.add("sessions_dock")
        w.docks["sessions_dock"].hide()
        width, height = w.width(), w.height()
        w.resizeDocks([w.docks["timeline_dock"]], [round(height * TIMELINE_HEIGHT)], Qt.Orientation.Vertical)
        side = [w.docks["details_dock"]] + ([w.docks["sessions_dock"]] if wide else [])
        side_width = round(width * (SIDE_DOCK_WIDTH if wide else TABBED_DOCK_WIDTH))
        w.resizeDocks([w.docks["timeline_dock"], w.docks["waveform_dock"], *side],
                      [round(width * (1 - WAVEFORM_WIDTH)), round(width * WAVEFORM_WIDTH)] + [side_width] * len(side),
                      Qt.Orientation.Horizontal)

    def _connect(self) -> None:
        w, p, actions = self.window, self.playback, self.window.actions
        w.session_selected.connect(self._show_session)
        w.turn_selected.connect(self._show_turn)
        w.controller.annotation_changed.connect(lambda _change: self.timeline.refresh_turns())
        w.controller.document_opened.connect(self._document_opened)
        w.controller.document_closed.connect(lambda: self.findings.set_findings([]))
        w.controller.document_saved.connect(lambda _path: self._document_saved())
        w.corpus_requested.connect(self.open_corpus)
        self.browser.session_activated.connect(self._session_activated)
        self.browser.scan_failed.connect(lambda text: w.statusBar().showMessage(text, 8000))
        self.findings.finding_activated.connect(self._finding_activated)
        w.loop_changed.connect(p.set_loop)
        w.speed_changed.connect(p.set_speed)
        self.timeline.turn_clicked.connect(self._turn_clicked)
        self.timeline.element_clicked.connect(self._element_clicked)
        self.timeline.message_shown.connect(lambda text: w.statusBar().showMessage(text, 8000))
        self.waveform.clicked_at.connect(p.seek)
        p.clip_changed.connect(self._clip_changed)
        p.position_changed.connect(self._position_changed)
        p.message_shown.connect(lambda text: w.statusBar().showMessage(text, 8000))
        actions["play_exchange"].triggered.connect(lambda: p.play_exchange(w.current_turn()))
        actions["other_side"].triggered.connect(lambda: p.play_other_side(w.current_turn()))
        actions["next_finding"].triggered.connect(lambda: self._step_finding(+1))
        actions["previous_finding"].triggered.connect(lambda: self._step_finding(-1))
        w.neighbour_session = self._neighbour_session
        actions["fit_timeline"].triggered.connect(self.timeline.fit)

    # --- corpus and findings ------------------------------------------------------------
    def open_corpus(self, folder: Path) -> None:
        self.corpus = Path(folder)
        dock = self.window.docks["sessions_dock"]
        dock.show()
        dock.raise_()
        self.browser.scan(self.corpus)

    def _neighbour_session(self, step: int) -> bool:
        """Ctrl+PgDown past the last session of the log: the next log's session in the Sessions list."""
        document, session = self.window.document, self.window.session
        if self.corpus is None or document is None or session is None:
            return False
        summary = self.browser.neighbour_in_another_log(document.path, session.index, step)
        if summary is None:
            return False
        self.browser.select_session(summary.file, summary.session_index)
        self._session_activated(summary.file, summary.session_index)
        return self.window.document is not document

    def _session_activated(self, file: Path, session_index: int) -> None:
        if not self.window.open_path(file):
            return
        document = self.window.document
        if document is not None and 0 <= session_index < len(document.sessions) and (
                self.window.session is None or self.window.session.index != session_index):
            self.window.show_session(session_index)

    def _document_opened(self, document: LogDocument) -> None:
        if self.corpus is not None and document.path.resolve().is_relative_to(self.corpus.resolve()):
            self.window.settings.set_last_log_in_corpus(self.corpus, document.path)
        self._validate_in_background(document)

    def _validate_in_background(self, document: LogDocument) -> None:
        """Validate the file as saved in a worker (its own parse: the GUI's tree is never shared
        across threads); a finding keeps its element's path, resolved in the open tree on click."""
        self.findings.set_findings([])
        if self._validation is not None:
            self._validation.cancel()
        task = BackgroundTask(lambda _context: findings_with_paths_in_subprocess(document.path), self)
        task.succeeded.connect(lambda result: self._show_findings(document, result))
        task.failed.connect(lambda text: self.window.statusBar().showMessage(f"Validation failed: {text}", 8000))
        self._validation = task
        task.start()

    def _show_findings(self, document: LogDocument, result: list[tuple[Finding, str | None]]) -> None:
        if document is not self.window.document:
            return
        self._finding_paths = {id(finding): path for finding, path in result}
        self.findings.set_findings([finding for finding, _ in result])
        counted = count_text([finding for finding, _ in result if finding.severity in (Severity.ERROR, Severity.WARNING)])
        if counted:
            key = key_text(spec("next_finding"))
            self.window.show_status(f"{document.path.name} has {counted}: see Findings ({key}: the next one)")
        if self.corpus is not None:
            for summary in summarize_document(document, [f for f, _ in result], self.browser.markers):
                self.browser.update_session(summary)
        self.findings_shown.emit()

    def _document_saved(self) -> None:
        if self.window.document is not None:
            self._validate_in_background(self.window.document)

    def _finding_activated(self, finding: Finding) -> None:
        document = self.window.document
        path = self._finding_paths.get(id(finding))
        found = document.tree.xpath(path) if document is not None and path else []
        if not found:
            return
        element = found[0]
        turn = document.turn_containing(element)
        if turn is not None:
            self.window.select_turn(turn)
        self.window.show_element(view_of(element, document.unit), raise_details=False)

    def _step_finding(self, step: int) -> None:
        """F8 / Shift+F8: the next or previous finding, its turn selected, the Findings tab in front."""
        if not self.findings.step(step):
            self.window.show_status("No further finding that way" if self.findings.findings else "No findings in this log")
            return
        self.window.docks["findings_dock"].show()
        self.window.docks["findings_dock"].raise_()

    # --- the selection ---------------------------------------------------------------------
    def _show_session(self, session: Session | None) -> None:
        turn = self.window.current_turn()  # selected before session_selected: the timeline opens on it
        self.timeline.set_session(session, None if turn is None else turn.index)
        self._audio_offset = self._clip_start()  # the turn's clip was loaded before the timeline had its segments
        self.browser.mark_open(session.document.path if session is not None else None,
                               session.index if session is not None else 0)

    def _show_turn(self, turn: Turn | None) -> None:
        self.timeline.select_turn(None if turn is None else turn.index)
        self.playback.show_turn(turn)

    def _turn_clicked(self, index: int) -> None:
        session = self.window.session
        if session is not None and 0 <= index < len(session.turns):
            self.window.select_turn(session.turns[index])

    def _element_clicked(self, view: object) -> None:
        session = self.window.session
        if session is None or not isinstance(view, ElementView):
            return
        turn = session.turn(view.turn_key) if view.turn_key is not None else None
        if turn is not None and turn is not self.window.current_turn():
            self.window.select_turn(turn)
        self.window.show_element(view)

    def _clip_changed(self, samples, samplerate: int, message: str) -> None:
        self.waveform.set_audio(samples, samplerate, message)
        self._audio_offset = self._clip_start()

    def _clip_start(self) -> float:
        """Where the loaded audio starts on the timeline: its audio segment (when it was heard), else its turn."""
        source = self.playback.clip_source
        if source is None or self.playback.clip is None:
            return 0.0
        turn, direction = source
        start = self.timeline.audio_start(turn, direction)
        return start if start is not None else turn.session.since_start(turn.get("stime")) or 0.0

    def _position_changed(self, seconds: float) -> None:
        self.waveform.set_position(seconds)
        self.timeline.set_cursor(self._audio_offset + seconds if self.playback.clip is not None else None)

