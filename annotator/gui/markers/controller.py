"""Markers in the app: Markers > Load markers… puts each marker's hits on a timeline lane
(clicking a tick selects the element) and a column per marker into the session browser,
whose filter then understands marker:NAME and !marker:NAME."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QFileDialog

from annotator.errors import AnnotatorError
from annotator.gui.annotating.navigation import Navigator
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.main_window import MainWindow
from annotator.gui.opening.document_controller import DocumentController
from annotator.gui.timeline.view import TimelineView
from annotator.log.elements import Session, view_of
from annotator.markers import MarkerSet, apply_markers, load_markers, shipped_kpis_path

REAPPLY_DELAY_MS = 300  # annotations change markers (task_completion, text_matches): re-run after edits settle


class MarkersController(QObject):
    def __init__(
        self,
        window: MainWindow,
        navigator: Navigator,
        controller: DocumentController,
        timeline: TimelineView,
        browser: SessionBrowser,
    ):
        super().__init__(window)
        self.window, self.navigator, self.controller = window, navigator, controller
        self.timeline, self.browser = timeline, browser
        self.markers: MarkerSet | None = None
        self._hits: tuple[object, int, list] | None = None  # (document, revision, hits): one run per edit state
        self._reapply = QTimer(self)
        self._reapply.setSingleShot(True)
        self._reapply.setInterval(REAPPLY_DELAY_MS)
        self._reapply.timeout.connect(self.show_hits)
        navigator.session_selected.connect(lambda _session: self.show_hits())
        controller.annotation_changed.connect(lambda _change: self._reapply.start())

    def load_with_dialog(self) -> bool:
        path, _ = QFileDialog.getOpenFileName(
            self.window,
            "Load marker definitions",
            str(shipped_kpis_path().parent),
            "Marker definitions (*.yml *.yaml);;All files (*)",
        )
        return self.load(Path(path)) if path else False

    def load_kpis(self) -> bool:
        return self.load(shipped_kpis_path())

    def load(self, path: Path) -> bool:
        try:
            markers = load_markers(path)
        except AnnotatorError as error:
            self.controller.show_error("Cannot load markers", error)
            return False
        self.markers = markers
        self._hits = None
        self.browser.set_markers(markers)
        self.show_hits()
        self.window.show_status(f"Loaded {len(markers)} marker(s) from {path.name}")
        return True

    def clear(self) -> None:
        self.markers = None
        self.browser.set_markers(None)
        self.timeline.clear_marker_lanes()

    def show_hits(self) -> None:
        """One lane per marker with the hits of the session shown."""
        self.timeline.clear_marker_lanes()
        session: Session | None = self.navigator.session
        if self.markers is None or session is None:
            return
        document = session.document
        if self._hits is None or self._hits[0] is not document or self._hits[1] != document.revision:
            self._hits = (document, document.revision, apply_markers(self.markers, document))
        hits = [hit for hit in self._hits[2] if hit.session_index == session.index]
        for name in self.markers.names:
            points = [
                (_seconds(hit, session), view_of(hit.element, session.unit)) for hit in hits if hit.marker == name
            ]
            self.timeline.add_marker_lane(name, points)


def _seconds(hit, session: Session) -> float:
    """Where a hit sits on the timeline; an untimed element (GC_ANNOT) at its turn's start, else at 0."""
    if hit.seconds is not None:
        return hit.seconds
    turn = session.document.turn_containing(hit.element)
    start = session.since_start(turn.get("stime")) if turn is not None else None
    return start if start is not None else 0.0
