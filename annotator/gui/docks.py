"""Every dock around the turn table, declared once: what it holds, its title, where it goes on a wide and on a
smaller screen, whether it shows at a first start, and what it follows. The window reads this table
(app.build_annotator): it makes each view, docks it and lists it in the View menu (panes/docking.py), arranges
the docks for the screen, sizes them on a first start and on View > Reset layout (size_docks), and connects
each view to what it follows (panes/following.py). A new pane is a module of its feature holding its view,
and one line below (docs/architecture.md shows one).

On a wide screen Details and Metrics (and Findings) are tabs on the right with Concepts below them, the Sessions
dock on the left; on a smaller one Concepts and Sessions are more tabs beside Details, so that the turn table
keeps its width. The timeline and, beside it, the waveform are a strip below the turn table, where the
annotator works; Compare and the corpus search's hits are more tabs of that strip, shown when asked for."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QUndoStack

from annotator.gui.annotating.concepts_panel import ConceptsPanel
from annotator.gui.appearance.window_geometry import is_wide_screen
from annotator.gui.compare.view import CompareView
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.listening.audio_panel import AudioPanel
from annotator.gui.listening.waveform import WaveformView
from annotator.gui.main_window import MainWindow
from annotator.gui.panes.detail_panel import DetailPanel
from annotator.gui.panes.docking import Docks, Follows, Pane, PaneMaking, Spot, dock_panes
from annotator.gui.panes.findings_panel import FindingsPanel
from annotator.gui.panes.metrics_panel import MetricsPanel
from annotator.gui.search.search_results import SearchResults
from annotator.gui.timeline.view import TimelineView

RIGHT, LEFT, BOTTOM = (
    Qt.DockWidgetArea.RightDockWidgetArea,
    Qt.DockWidgetArea.LeftDockWidgetArea,
    Qt.DockWidgetArea.BottomDockWidgetArea,
)
BESIDE = Qt.Orientation.Horizontal
TURN, ANNOTATIONS = Follows.TURN, Follows.ANNOTATIONS

# The Metrics and the Timeline follow the session shown through panes/session_panes.py, which makes a long
# session's after the first paint; the Compare and Search results views are driven by their controllers.
PANES = (
    Pane("details", "Details", lambda m: DetailPanel(m.window), Spot(RIGHT), follows=TURN | ANNOTATIONS),
    Pane(
        "concepts",
        "Concepts",
        lambda m: ConceptsPanel(m.undo_stack, m.window),
        Spot(RIGHT, split_from="details"),
        narrow=Spot(RIGHT, tab_of="findings"),
        follows=TURN | ANNOTATIONS,
    ),
    Pane("metrics", "Metrics", lambda m: MetricsPanel(m.window), Spot(RIGHT, tab_of="details"), follows=ANNOTATIONS),
    Pane("timeline", "Timeline", lambda m: TimelineView(m.window), Spot(BOTTOM), follows=TURN | ANNOTATIONS),
    Pane(
        "waveform",
        "Waveform",
        lambda m: AudioPanel(WaveformView(m.window), m.window),
        Spot(BOTTOM, split_from="timeline", orientation=BESIDE),
    ),
    Pane(
        "sessions",
        "Sessions",
        lambda m: SessionBrowser(m.window),
        Spot(LEFT),
        narrow=Spot(RIGHT, tab_of="concepts"),
        shown=False,
    ),
    Pane("findings", "Findings", lambda m: FindingsPanel(m.window), Spot(RIGHT, tab_of="metrics")),
    Pane("compare", "Compare", lambda m: CompareView(m.window), Spot(BOTTOM, tab_of="timeline"), shown=False),
    Pane(
        "search_results",
        "Search results",
        lambda m: SearchResults(m.window),
        Spot(BOTTOM, tab_of="timeline"),
        shown=False,
    ),
)

# Shares of the window for the docks on a first start; a smaller screen's one column of tabbed docks needs
# some 350 pixels for the tabs' names.
TIMELINE_HEIGHT, WAVEFORM_WIDTH, SIDE_DOCK_WIDTH, TABBED_DOCK_WIDTH = 0.34, 0.3, 0.22, 0.27


def arrange_docks(window: MainWindow, undo_stack: QUndoStack) -> Docks:
    """The docks of PANES, made (the Concepts panel's edits go on UNDO_STACK), arranged for this screen and sized."""
    docks = dock_panes(window, PANES, PaneMaking(window, undo_stack), is_wide_screen(window))
    size_docks(window, docks)
    return docks


def size_docks(window: MainWindow, docks: Docks) -> None:
    """The docks' shares of the window (at its first start, and again on View > Reset layout)."""
    w, wide = window, is_wide_screen(window)
    width, height = w.width(), w.height()
    w.resizeDocks([docks.timeline], [round(height * TIMELINE_HEIGHT)], Qt.Orientation.Vertical)
    if wide:  # Details and Concepts share the column
        half = round(height * (1 - TIMELINE_HEIGHT) / 2)
        w.resizeDocks([docks.details, docks.concepts], [half, half], Qt.Orientation.Vertical)
    side = [docks.details] + ([docks.sessions] if wide else [])
    side_width = round(width * (SIDE_DOCK_WIDTH if wide else TABBED_DOCK_WIDTH))
    w.resizeDocks(
        [docks.timeline, docks.waveform, *side],
        [round(width * (1 - WAVEFORM_WIDTH)), round(width * WAVEFORM_WIDTH)] + [side_width] * len(side),
        Qt.Orientation.Horizontal,
    )
