"""The waveform of the selected turn's audio, with the play position; a click asks to seek there.

Drawn by pyqtgraph with peak downsampling and clipping to the view, so a
long recording costs a couple of points per pixel, not one per sample. Where
there is no audio the widget says why (the message), instead of an empty plot.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QLabel, QStackedWidget, QVBoxLayout, QWidget

from annotator.gui.listening.word_marks import WordMarks
from annotator.gui.theme import theme_changes, theme_colour
from annotator.gui.widgets.layout_boundary import text_width_free
from annotator.gui.widgets.time_axis import (
    TimeAxisItem,
    TimeViewBox,
    add_cursor_line,
    colour_plot,
    cursor_pen,
    time_plot,
)

CHANNEL_SPACING = 2.2  # each channel gets a band of [-1, 1] (scaled to the loudest sample) plus a gap
DEFAULT_MESSAGE = "no audio"


class WaveformView(QWidget):
    clicked_at = Signal(float)  # seconds from the start of the audio
    word_clicked = Signal(int)  # the index of the word clicked in the strip of words along the top

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("waveform")
        self.samplerate = 0
        self.frames = 0
        self.channels = 0
        self.curves: list[pg.PlotDataItem] = []
        self._build()
        theme_changes().changed.connect(self.restyle)

    def _build(self) -> None:
        palette = self.palette()
        self.view_box = TimeViewBox(enableMenu=False)
        self.view_box.setMouseEnabled(x=True, y=False)
        self.plot = time_plot(self.view_box, {"bottom": TimeAxisItem("bottom")}, palette)
        item = self.plot.getPlotItem()
        item.hideAxis("left")
        item.setDownsampling(auto=True, mode="peak")
        item.setClipToView(True)
        self.cursor_line = add_cursor_line(self.view_box)
        self.words = WordMarks(self.view_box, self)
        self.plot.scene().sigMouseClicked.connect(self._on_scene_clicked)

        self.message_label = text_width_free(QLabel(DEFAULT_MESSAGE))
        self.message_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.message_label.setWordWrap(True)
        self.message_label.setAutoFillBackground(True)
        self.message_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.message_label.setBackgroundRole(QPalette.ColorRole.Base)
        self.caption = QLabel()  # a remark about audio that is shown (e.g. it was resampled)
        self.caption.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.caption.hide()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.plot)
        self.stack.addWidget(self.message_label)
        self.stack.setCurrentWidget(self.message_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.caption)
        layout.addWidget(self.stack, 1)

    def restyle(self) -> None:
        """The theme changed: the plot, the trace and the cursor in the new scheme's colours."""
        colour_plot(self.plot, QApplication.palette(self))
        pen = pg.mkPen(theme_colour("waveform"), width=1)
        for curve in self.curves:
            curve.setPen(pen)
        self.cursor_line.setPen(cursor_pen())

    @property
    def duration(self) -> float:
        return self.frames / self.samplerate if self.samplerate else 0.0

    @property
    def showing_message(self) -> bool:
        return self.stack.currentWidget() is self.message_label

    def set_audio(self, samples: np.ndarray | None, samplerate: int, message: str = "") -> None:
        """Show SAMPLES ((frames,) or (frames, channels)); with None or no frames, show MESSAGE instead."""
        for curve in self.curves:
            self.plot.removeItem(curve)
        self.curves = []
        self.cursor_line.hide()
        if samples is None or len(samples) == 0 or samplerate <= 0:
            self.samplerate = self.frames = self.channels = 0
            self.caption.hide()
            self.message_label.setText(message or DEFAULT_MESSAGE)
            self.stack.setCurrentWidget(self.message_label)
            return
        samples = np.asarray(samples)
        if samples.ndim == 1:
            samples = samples[:, np.newaxis]
        self.samplerate, self.frames, self.channels = int(samplerate), samples.shape[0], samples.shape[1]
        peak = float(np.max(np.abs(samples))) if samples.size else 0.0
        scale = 1.0 / peak if peak > 0 else 1.0
        times = np.arange(self.frames, dtype=np.float64) / self.samplerate
        pen = pg.mkPen(theme_colour("waveform"), width=1)
        for channel in range(self.channels):
            offset = -channel * CHANNEL_SPACING
            values = samples[:, channel].astype(np.float32) * np.float32(scale) + np.float32(offset)
            curve = self.plot.plot(times, values, pen=pen)
            self.curves.append(curve)
        self.caption.setText(message)
        self.caption.setVisible(bool(message))
        bottom = -(self.channels - 1) * CHANNEL_SPACING - 1.08
        self.view_box.setLimits(
            xMin=0.0, xMax=self.duration, minXRange=min(0.005, self.duration), yMin=bottom, yMax=1.08
        )
        self.view_box.setRange(xRange=(0.0, self.duration), yRange=(bottom, 1.08), padding=0)
        self.stack.setCurrentWidget(self.plot)

    def set_position(self, seconds: float | None) -> None:
        """Move the play-position line (None hides it)."""
        if seconds is None or self.showing_message:
            self.cursor_line.hide()
            return
        self.cursor_line.setValue(float(seconds))
        self.cursor_line.show()

    def scene_point(self, seconds: float, amplitude: float = 0.0) -> QPointF:
        return self.view_box.mapViewToScene(QPointF(seconds, amplitude))

    def _on_scene_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self.showing_message:
            return
        if not self.view_box.sceneBoundingRect().contains(event.scenePos()):
            return
        word = self.words.word_at(event.scenePos())
        if word is not None:
            self.word_clicked.emit(word)
            return
        seconds = self.view_box.mapSceneToView(event.scenePos()).x()
        self.clicked_at.emit(float(min(max(seconds, 0.0), self.duration)))
