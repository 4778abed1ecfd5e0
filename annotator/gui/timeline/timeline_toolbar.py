"""The timeline's toolbar: Fit, Zoom in, Zoom out, and the legend on the right."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QSizePolicy, QToolBar, QWidget

from annotator.gui.timeline.timeline_legend import TimelineLegend, legend_entries

ZOOM_STEP = 2.0


class TimelineToolbar(QToolBar):
    def __init__(self, parent: QWidget, fit: Callable[[], None], zoom: Callable[[float], None]):
        super().__init__("Timeline", parent)
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.fit_action = QAction("Fit", self, toolTip="Show the whole session")
        self.zoom_in_action = QAction("Zoom in", self, toolTip="Zoom in (or turn the mouse wheel over the timeline)")
        self.zoom_out_action = QAction("Zoom out", self, toolTip="Zoom out")
        self.fit_action.triggered.connect(fit)
        self.zoom_in_action.triggered.connect(lambda: zoom(1 / ZOOM_STEP))
        self.zoom_out_action.triggered.connect(lambda: zoom(ZOOM_STEP))
        self.addActions([self.fit_action, self.zoom_in_action, self.zoom_out_action])
        spacer = QWidget(self)
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.addWidget(spacer)
        self.legend = TimelineLegend(legend_entries(), self)
        self.addWidget(self.legend)
