"""The docks around the turn table, arranged for the screen on a first start (afterwards the window keeps
what the annotator made of them, gui/appearance/window_geometry.py)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QWidget

from annotator.gui.appearance.window_geometry import is_wide_screen
from annotator.gui.main_window import MainWindow

Area = Qt.DockWidgetArea
# Shares of the window for the docks on a first start; a smaller screen's one column of four tabbed docks
# needs some 350 pixels for the tabs' names.
TIMELINE_HEIGHT, WAVEFORM_WIDTH, SIDE_DOCK_WIDTH, TABBED_DOCK_WIDTH = 0.34, 0.3, 0.22, 0.27
DETAILS_WIDTH = 360


@dataclass(eq=False)
class DockedViews:
    """The views the docks hold."""

    detail: QWidget
    concepts: QWidget
    metrics: QWidget
    timeline: QWidget
    audio_panel: QWidget
    browser: QWidget
    findings: QWidget


@dataclass(eq=False)
class Docks:
    details: QDockWidget
    concepts: QDockWidget
    metrics: QDockWidget
    timeline: QDockWidget
    waveform: QDockWidget
    sessions: QDockWidget
    findings: QDockWidget

    def bring_forward(self, dock: QDockWidget) -> None:
        dock.show()
        dock.raise_()


def arrange_docks(window: MainWindow, views: DockedViews) -> Docks:
    """Details and Metrics tabbed on the right, Concepts below them on a wide screen, else one more tab
    (Ctrl+K brings it to the front); the timeline and, beside it, the waveform in a strip below the turn
    table, where the annotator works; the Sessions dock (shown for a corpus only) left of it on a wide
    screen, else one more tab beside Details, Metrics and Findings, so that the turn table keeps its width."""
    w = window
    wide = is_wide_screen(w)
    details = w.add_dock(views.detail, "Details", Area.RightDockWidgetArea, "details_dock")
    concepts = w.add_dock(views.concepts, "Concepts", Area.RightDockWidgetArea, "concepts_dock")
    if wide:  # split before the tabs: a dock split from a tabbed one would become one more tab
        w.splitDockWidget(details, concepts, Qt.Orientation.Vertical)
    metrics = w.add_dock(views.metrics, "Metrics", Area.RightDockWidgetArea, "metrics_dock")
    w.tabifyDockWidget(details, metrics)
    w.resizeDocks([details], [DETAILS_WIDTH], Qt.Orientation.Horizontal)
    timeline = w.add_dock(views.timeline, "Timeline", Area.BottomDockWidgetArea, "timeline_dock")
    waveform = w.add_dock(views.audio_panel, "Waveform", Area.BottomDockWidgetArea, "waveform_dock")
    w.splitDockWidget(timeline, waveform, Qt.Orientation.Horizontal)
    sessions = w.add_dock(
        views.browser,
        "Sessions",
        Area.LeftDockWidgetArea if wide else Area.RightDockWidgetArea,
        "sessions_dock",
        on_demand=True,
    )
    findings = w.add_dock(views.findings, "Findings", Area.RightDockWidgetArea, "findings_dock")
    w.tabifyDockWidget(metrics, findings)
    if not wide:
        w.tabifyDockWidget(findings, concepts)
        w.tabifyDockWidget(concepts, sessions)
    details.raise_()
    sessions.hide()
    docks = Docks(details, concepts, metrics, timeline, waveform, sessions, findings)
    size_docks(window, docks)
    return docks


def size_docks(window: MainWindow, docks: Docks) -> None:
    """The docks' shares of the window (at its first start, and again on View > Reset layout)."""
    w, wide = window, is_wide_screen(window)
    details, concepts, timeline, waveform, sessions = (
        docks.details,
        docks.concepts,
        docks.timeline,
        docks.waveform,
        docks.sessions,
    )
    width, height = w.width(), w.height()
    w.resizeDocks([timeline], [round(height * TIMELINE_HEIGHT)], Qt.Orientation.Vertical)
    if wide:  # Details and Concepts share the column
        half = round(height * (1 - TIMELINE_HEIGHT) / 2)
        w.resizeDocks([details, concepts], [half, half], Qt.Orientation.Vertical)
    side = [details] + ([sessions] if wide else [])
    side_width = round(width * (SIDE_DOCK_WIDTH if wide else TABBED_DOCK_WIDTH))
    w.resizeDocks(
        [timeline, waveform, *side],
        [round(width * (1 - WAVEFORM_WIDTH)), round(width * WAVEFORM_WIDTH)] + [side_width] * len(side),
        Qt.Orientation.Horizontal,
    )
