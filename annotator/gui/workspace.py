"""The docks: details, concepts, session metrics, timeline, waveform, sessions and findings, following the
navigator's selection, and audio playback driven from them.

gui/navigation.py moves the selection in the turn table and the editor; this module arranges the
views that follow it, the corpus the Sessions dock browses and the validation behind Findings.
"""

from __future__ import annotations

import weakref
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal

from annotator.analysis.validation import Finding, Severity, findings_with_paths_in_subprocess
from annotator.corpus.session_filter import MineTest
from annotator.gui.actions import all_key_sequences, key_text, spec
from annotator.gui.after_paint import AfterPaint
from annotator.gui.document_controller import DocumentController
from annotator.gui.listening_kit import ListeningKit
from annotator.gui.main_window import MainWindow
from annotator.gui.models.findings import count_text
from annotator.gui.navigation import Navigator
from annotator.gui.playback import Playback
from annotator.gui.session_panes import SessionPanes
from annotator.gui.settings import AppSettings
from annotator.gui.views.audio_panel import AudioPanel
from annotator.gui.views.concepts_panel import ConceptsPanel
from annotator.gui.views.detail_panel import DetailPanel
from annotator.gui.views.findings_panel import FindingsPanel
from annotator.gui.views.metrics_panel import MetricsPanel
from annotator.gui.views.session_browser import SessionBrowser
from annotator.gui.views.timeline import TimelineView
from annotator.gui.views.waveform import WaveformView
from annotator.gui.window_geometry import is_wide_screen
from annotator.gui.worker import BackgroundTask
from annotator.log.document import LogDocument
from annotator.log.elements import ElementView, Session, Turn, view_of
from annotator.log.text import SHOWN_ID_CHARS, shorten

Area = Qt.DockWidgetArea
# Shares of the window for the docks on a first start (afterwards the window keeps what the annotator made of it);
# a smaller screen's one column of four tabbed docks needs some 350 pixels for the tabs' names.
TIMELINE_HEIGHT, WAVEFORM_WIDTH, SIDE_DOCK_WIDTH, TABBED_DOCK_WIDTH = 0.34, 0.3, 0.22, 0.27
DETAILS_WIDTH = 360


class Workspace(QObject):
    """The docked views and playback, following the navigator's selection."""

    findings_shown = Signal()  # the open log's validation came back and is shown

    def __init__(self, window: MainWindow, navigator: Navigator, controller: DocumentController,
                 playback: Playback, settings: AppSettings):
        super().__init__(window)
        self.window, self.navigator, self.controller = window, navigator, controller
        self.playback, self.settings = playback, settings
        self.detail = DetailPanel(window)
        self.concepts = ConceptsPanel(controller.undo_stack, window)
        self.metrics = MetricsPanel(window)
        self.timeline = TimelineView(window)
        self.timeline.setObjectName("timeline")
        self.panes = SessionPanes(controller, self.metrics, self.timeline, self._current_turn_index)
        self.panes.filled.connect(self._panes_filled)
        self.panes.pending_changed.connect(self._doubts_pending)
        self.panes.facts_made.connect(navigator.session_facts_made)
        self.waveform = WaveformView(window)
        self.waveform.setObjectName("waveform")
        self.audio_panel = AudioPanel(self.waveform, window)
        self.audio_panel.show_spectrogram(settings.show_spectrogram)
        self._audio_offset = 0.0  # seconds from session start to the loaded clip's start
        self.browser = SessionBrowser(window)
        self.browser.setObjectName("session_browser")
        self.findings = FindingsPanel(window)
        self.findings.setObjectName("findings")
        self.corpus: Path | None = None
        self._validation: BackgroundTask | None = None
        self._validation_start: AfterPaint | None = None  # an opened log's validation, waiting for the first paint
        self._finding_paths: dict[int, str | None] = {}
        self._arrange_docks()
        self.playback.set_loop(settings.loop)
        self.playback.set_speed(settings.speed)
        self.listening = ListeningKit(playback, settings, self.waveform, navigator.editor, window.actions, self)
        self._connect()

    def _arrange_docks(self) -> None:
        """Details and Metrics tabbed on the right, Concepts below them on a wide screen, else one
        more tab (Ctrl+K brings it to the front); the timeline and, beside it, the waveform in a
        strip below the turn table, where the annotator works; the Sessions dock (shown for a corpus only)
        left of it on a wide screen, else one more tab beside Details, Metrics and Findings, so
        that the turn table keeps its width."""
        w = self.window
        wide = is_wide_screen(w)
        self.details_dock = w.add_dock(self.detail, "Details", Area.RightDockWidgetArea, "details_dock")
        self.concepts_dock = w.add_dock(self.concepts, "Concepts", Area.RightDockWidgetArea, "concepts_dock")
        if wide:  # split before the tabs: a dock split from a tabbed one would become one more tab
            w.splitDockWidget(self.details_dock, self.concepts_dock, Qt.Orientation.Vertical)
        self.metrics_dock = w.add_dock(self.metrics, "Metrics", Area.RightDockWidgetArea, "metrics_dock")
        w.tabifyDockWidget(self.details_dock, self.metrics_dock)
        w.resizeDocks([self.details_dock], [DETAILS_WIDTH], Qt.Orientation.Horizontal)
        self.timeline_dock = w.add_dock(self.timeline, "Timeline", Area.BottomDockWidgetArea, "timeline_dock")
        self.waveform_dock = w.add_dock(self.audio_panel, "Waveform", Area.BottomDockWidgetArea, "waveform_dock")
        w.splitDockWidget(self.timeline_dock, self.waveform_dock, Qt.Orientation.Horizontal)
        self.sessions_dock = w.add_dock(self.browser, "Sessions", Area.LeftDockWidgetArea if wide else Area.RightDockWidgetArea,
                                        "sessions_dock", on_demand=True)
        self.findings_dock = w.add_dock(self.findings, "Findings", Area.RightDockWidgetArea, "findings_dock")
        w.tabifyDockWidget(self.metrics_dock, self.findings_dock)
        if not wide:
            w.tabifyDockWidget(self.findings_dock, self.concepts_dock)
            w.tabifyDockWidget(self.concepts_dock, self.sessions_dock)
        self.details_dock.raise_()
        self.sessions_dock.hide()
        w.size_docks = self.size_docks
        self.size_docks()

    def size_docks(self) -> None:
        """The docks' shares of the window (at its first start, and again on View > Reset layout)."""
        w, wide = self.window, is_wide_screen(self.window)
        width, height = w.width(), w.height()
        w.resizeDocks([self.timeline_dock], [round(height * TIMELINE_HEIGHT)], Qt.Orientation.Vertical)
        if wide:  # Details and Concepts share the column
            half = round(height * (1 - TIMELINE_HEIGHT) / 2)
            w.resizeDocks([self.details_dock, self.concepts_dock], [half, half], Qt.Orientation.Vertical)
        side = [self.details_dock] + ([self.sessions_dock] if wide else [])
        side_width = round(width * (SIDE_DOCK_WIDTH if wide else TABBED_DOCK_WIDTH))
        w.resizeDocks([self.timeline_dock, self.waveform_dock, *side],
                      [round(width * (1 - WAVEFORM_WIDTH)), round(width * WAVEFORM_WIDTH)] + [side_width] * len(side),
                      Qt.Orientation.Horizontal)

    def _connect(self) -> None:
        w, n, c, p = self.window, self.navigator, self.controller, self.playback
        n.session_selected.connect(self._show_session)
        n.turn_selected.connect(self._show_turn)
        n.corpus_requested.connect(self.open_corpus)
        for view in (self.metrics, self.detail, self.timeline, self.concepts):
            c.annotation_changed.connect(view.on_annotation_changed)
        self._connect_concepts()
        c.document_opened.connect(self._document_opened)
        c.opener.audio_indexed.connect(p.use_resolver)
        c.document_closed.connect(lambda: self.findings.set_findings([]))
        c.document_saved.connect(lambda _path: self._document_saved())
        self.browser.session_activated.connect(self._session_activated)
        self.browser.scan_failed.connect(w.show_status)
        self.findings.finding_activated.connect(self._finding_activated)
        self.timeline.turn_clicked.connect(self._turn_clicked)
        self.timeline.element_clicked.connect(self._element_clicked)
        self.timeline.message_shown.connect(w.show_status)
        self.waveform.clicked_at.connect(p.seek)
        self.audio_panel.spectrogram.clicked_at.connect(p.seek)
        self.audio_panel.message_shown.connect(w.show_status)
        p.clip_changed.connect(self._clip_changed)
        p.position_changed.connect(self._position_changed)
        p.message_shown.connect(w.show_status)

    def _connect_concepts(self) -> None:
        """The panel's keys work while the focus is in it; its cell and frame being edited are stored
        before a save, a close or Ctrl+Enter, like the transcription's."""
        w, panel = self.window, self.concepts
        for action_spec, action in w.actions:
            if action_spec.in_panel:
                panel.addAction(action)
        panel.set_passthrough_keys(all_key_sequences())
        self.controller.pending_edit_flushers.append(panel.commit_pending)
        panel.status_reported.connect(w.show_status)
        panel.shown_requested.connect(self._show_concepts_dock)
        panel.leave_requested.connect(self.navigator.editor.focus_text)

    def _show_concepts_dock(self) -> None:
        self.concepts_dock.show()
        self.concepts_dock.raise_()

    # --- playback the Playback menu asks for -------------------------------------------------
    def play_exchange(self) -> None:
        self.playback.play_exchange(self.navigator.current_turn())

    def play_other_side(self) -> None:
        self.playback.play_other_side(self.navigator.current_turn())

    def set_loop(self, on: bool) -> None:
        self.settings.loop = on
        self.playback.set_loop(on)

    def set_spectrogram_shown(self, on: bool) -> None:
        self.settings.show_spectrogram = on
        self.audio_panel.show_spectrogram(on)

    def set_speed(self, speed: float) -> None:
        self.settings.speed = speed
        self.playback.set_speed(speed)

    def show_element(self, view: ElementView, raise_details: bool = True) -> None:
        """Show any element (an operation clicked in the timeline, a finding's element) in the detail panel,
        brought to the front unless RAISE_DETAILS is False (the findings list stays in front while used)."""
        self.detail.show_element(view)
        if raise_details:
            self.details_dock.raise_()

    # --- corpus and findings ------------------------------------------------------------
    def open_corpus(self, folder: Path) -> None:
        self.corpus = Path(folder)
        self.sessions_dock.show()
        self.sessions_dock.raise_()
        self.browser.proxy.set_mine(MineTest(self.corpus, self.settings.annotator))
        self.browser.scan(self.corpus)

    def neighbour_session(self, step: int) -> bool | None:
        """Ctrl+PgDown past the last session of the log: the next log's session in the Sessions list; True once
        it is shown, or once the annotator has cancelled the move (the open session stays, in the list, the
        table and the status bar); False at the end of the list; None when no corpus is open."""
        if self.corpus is None:
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
            self.window.show_status(f"Still on session {shorten(session.id, SHOWN_ID_CHARS)} of {document.path.name}: "
                                    f"{summary.file.name} was not opened")
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
        if document is not None and 0 <= session_index < len(document.sessions) and (
                shown is None or shown.index != session_index):
            self.navigator.show_session(session_index)

    def _document_opened(self, document: LogDocument) -> None:
        if self.corpus is not None and document.path.resolve().is_relative_to(self.corpus.resolve()):
            self.settings.set_last_log_in_corpus(self.corpus, document.path)
        self.findings.set_findings([])
        if self._validation_start is not None:
            self._validation_start.cancel()
        opened = weakref.ref(document)  # a log replaced before the paint is not validated, nor kept alive
        self._validation_start = AfterPaint(self.navigator.table.viewport(), lambda: self._validate_opened(opened()))

    def _validate_opened(self, document: LogDocument | None) -> None:
        self._validation_start = None
        if document is not None and document is self.navigator.document:
            # Not before the open's last pass either (gui/hand_over_passes.py): the timeline's first paint comes then.
            self.controller.after_hand_over.later("validation", lambda: self._validate_in_background(document))

    def _validate_in_background(self, document: LogDocument) -> None:
        """Validate the file as saved in a worker (its own parse: the GUI's tree is never shared
        across threads); a finding keeps its element's path, resolved in the open tree on click."""
        self.findings.set_findings([])
        if self._validation is not None:
            self._validation.cancel()
        path, validated = document.path, weakref.ref(document)  # the task does not keep a closed log alive
        task = BackgroundTask(lambda _context: findings_with_paths_in_subprocess(path), self)
        task.succeeded.connect(lambda result: self._show_findings(validated(), result))
        task.failed.connect(lambda text: self.window.show_status(f"Validation failed: {text}"))
        self._validation = task
        task.start()

    def _show_findings(self, document: LogDocument | None, result: list[tuple[Finding, str | None]]) -> None:
        if document is None or document is not self.navigator.document:
            return
        self._finding_paths = {id(finding): path for finding, path in result}
        self.findings.set_findings([finding for finding, _ in result])
        counted = count_text([finding for finding, _ in result if finding.severity in (Severity.ERROR, Severity.WARNING)])
        if counted:
            key = key_text(spec("next_finding"))
            self.window.show_status(f"{document.path.name} has {counted}: see Findings ({key}: the next one)")
        self.findings_shown.emit()

    def _document_saved(self) -> None:
        if self.navigator.document is not None:
            self._validate_in_background(self.navigator.document)
            if self.corpus is not None:
                self.browser.refresh_log(self.navigator.document.path)

    def _finding_activated(self, finding: Finding) -> None:
        document = self.navigator.document
        path = self._finding_paths.get(id(finding))
        found = document.tree.xpath(path) if document is not None and path else []
        if not found:
            return
        element = found[0]
        turn = document.turn_containing(element)
        if turn is not None:
            self.navigator.select_turn(turn)
        self.show_element(view_of(element, document.unit), raise_details=False)

    def step_finding(self, step: int) -> None:
        """F8 / Shift+F8: the next or previous finding, its turn selected, the Findings tab in front."""
        if not self.findings.step(step):
            self.window.show_status("No further finding that way" if self.findings.findings else "No findings in this log")
            return
        self.findings_dock.show()
        self.findings_dock.raise_()

    # --- the selection ---------------------------------------------------------------------
    def _show_session(self, session: Session | None) -> None:
        self.panes.show(session)
        self._audio_offset = self._clip_start()  # the turn's clip was loaded before the timeline had its segments
        self.browser.mark_open(session.document.path if session is not None else None,
                               session.index if session is not None else 0)

    def _panes_filled(self, _session: Session) -> None:
        self._audio_offset = self._clip_start()  # the timeline now has the audio segments

    def _doubts_pending(self, pending: bool) -> None:
        self.navigator.model.doubts_pending = pending
        self.navigator.table.verticalHeader().viewport().update()  # the doubt strip

    def _current_turn_index(self) -> int | None:
        turn = self.navigator.current_turn()  # selected before session_selected: the timeline opens on it
        return None if turn is None else turn.index

    def _show_turn(self, turn: Turn | None) -> None:
        self.detail.show_turn(turn)
        self.concepts.set_turn(turn)
        self.timeline.select_turn(None if turn is None else turn.index)
        self.playback.show_turn(turn)

    def _turn_clicked(self, index: int) -> None:
        session = self.navigator.session
        if session is not None and 0 <= index < len(session.turns):
            self.navigator.select_turn(session.turns[index])

    def _element_clicked(self, view: object) -> None:
        session = self.navigator.session
        if session is None or not isinstance(view, ElementView):
            return
        turn = session.turn(view.turn_key) if view.turn_key is not None else None
        if turn is not None and turn is not self.navigator.current_turn():
            self.navigator.select_turn(turn)
        self.show_element(view)

    def _clip_changed(self, samples, samplerate: int, message: str) -> None:
        self.audio_panel.set_clip(samples, samplerate, message)
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
        self.audio_panel.set_position(seconds)
        self.timeline.set_cursor(self._audio_offset + seconds if self.playback.clip is not None else None)

