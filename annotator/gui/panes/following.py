"""The session's views follow the navigator: the session shown fills the panes (metrics, timeline, marker
lanes; a long session's after the first paint), the turn selected shows in Details, Concepts and the
timeline, every annotation change reaches them, and a click in the timeline selects what it is on."""

from __future__ import annotations

from PySide6.QtCore import QObject

from annotator.gui.actions import all_key_sequences
from annotator.gui.annotating.concepts_panel import ConceptsPanel
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.listening.cursor import PlaybackCursor
from annotator.gui.listening.playback import Playback
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.panes.detail_panel import DetailPanel
from annotator.gui.panes.docking import Docks, Follows
from annotator.gui.panes.session_panes import SessionPanes
from annotator.gui.timeline.view import TimelineView
from annotator.log.elements import ElementView, Session


class PanesFollowing(QObject):
    """Connects each pane of DOCKS to what its declaration says it follows (gui/docks.py), the metrics and the
    timeline to the session shown through PANES, and the timeline's clicks to the selection."""

    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        controller: DocumentController,
        playback: Playback,
        docks: Docks,
        panes: SessionPanes,
        cursor: PlaybackCursor,
    ):
        super().__init__(window)
        self.window, self.navigator, self.playback = window, navigator, playback
        self.docks, self.panes, self.cursor = docks, panes, cursor
        self.detail = docks.view("details", DetailPanel)
        self.concepts = docks.view("concepts", ConceptsPanel)
        timeline = docks.view("timeline", TimelineView)
        navigator.session_selected.connect(self._show_session)
        for show_session in docks.followers(Follows.SESSION):
            navigator.session_selected.connect(show_session)
        for show_turn in docks.followers(Follows.TURN):
            navigator.turn_selected.connect(show_turn)
        navigator.turn_selected.connect(playback.show_turn)
        for on_annotation_changed in docks.followers(Follows.ANNOTATIONS):
            controller.annotation_changed.connect(on_annotation_changed)
        panes.filled.connect(cursor.session_shown)  # the timeline now has the audio segments
        panes.pending_changed.connect(self._doubts_pending)
        panes.facts_made.connect(navigator.session_facts_made)
        timeline.turn_clicked.connect(self._turn_clicked)
        timeline.element_clicked.connect(self._element_clicked)
        timeline.message_shown.connect(window.show_status)
        self._connect_concepts(controller)

    def _connect_concepts(self, controller: DocumentController) -> None:
        """The panel's keys work while the focus is in it; its cell and frame being edited are stored
        before a save, a close or Ctrl+Enter, and counted as unsaved and journalled meanwhile, like the
        transcription's."""
        panel = self.concepts
        for action_spec, action in self.window.action_table:
            if action_spec.in_panel:
                panel.addAction(action)
        panel.set_passthrough_keys(all_key_sequences())
        controller.pending_edit_flushers.append(panel.commit_pending)
        controller.add_typing_source(panel.pending_text_changed, panel.pending_edit)
        panel.status_reported.connect(self.window.show_status)
        panel.shown_requested.connect(lambda: self.docks.bring_forward(self.docks.concepts))
        panel.leave_requested.connect(self.navigator.editor.focus_text)

    def current_turn_index(self) -> int | None:
        turn = self.navigator.current_turn()  # selected before session_selected: the timeline opens on it
        return None if turn is None else turn.index

    def show_element(self, view: ElementView, raise_details: bool = True) -> None:
        """Show any element (an operation clicked in the timeline, a finding's element) in the detail panel,
        brought to the front unless RAISE_DETAILS is False (the findings list stays in front while used)."""
        self.detail.show_element(view)
        if raise_details:
            self.docks.details.raise_()

    def _show_session(self, session: Session | None) -> None:
        self.panes.show(session)
        self.cursor.session_shown()  # the turn's clip was loaded before the timeline had its segments

    def _doubts_pending(self, pending: bool) -> None:
        self.navigator.model.doubts_pending = pending
        self.navigator.table.verticalHeader().viewport().update()  # the doubt strip

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
