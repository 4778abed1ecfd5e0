"""The spectrogram of the selected turn's audio (annotator/audio/spectrogram.py), with the play position;
a click asks to seek there, like the waveform.

One pyqtgraph ImageItem holds the whole dB image, rows from 0 Hz up, placed over its seconds and hertz so
that the time axis, the cursor and a click share the waveform's units. The colour map follows the scheme:
quiet cells take the background's end of the map, loud ones the far end.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QPalette, QResizeEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from annotator.audio.spectrogram import TOP_HZ, Spectrogram
from annotator.gui.listening.word_marks import WordMarks
from annotator.gui.theme import is_dark
from annotator.gui.widgets.time_axis import TimeAxisItem, TimeViewBox, add_cursor_line, time_plot

# Light: ink on paper, loud is dark as in Praat; dark: inferno, loud is bright. Both start at the background.
COLOUR_MAPS = {False: ("CET-L1", True), True: ("inferno", False)}  # is_dark() -> (pyqtgraph map, reversed)
AXIS_WIDTH = 52  # of the kHz axis, fixed so that a plot stacked above can leave the same margin
COMPUTING_TEXT = "Computing the spectrogram…"


def colour_map(dark: bool) -> pg.ColorMap:
    name, reverse = COLOUR_MAPS[dark]
    cmap = pg.colormap.get(name, skipCache=True)  # reverse() changes the map in place: never the shared one
    if reverse:
        cmap.reverse()
    return cmap


class KilohertzAxis(pg.AxisItem):
    """Hertz in the view, kilohertz on the labels."""

    def tickStrings(self, values, scale, spacing):
        return [f"{value * scale / 1000:g}" for value in values]


class SpectrogramView(QWidget):
    clicked_at = Signal(float)  # seconds from the start of the audio
    word_clicked = Signal(int)  # the index of the word clicked in the strip of words along the top

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.spectrogram: Spectrogram | None = None
        self._build()

    def _build(self) -> None:
        self.view_box = TimeViewBox(enableMenu=False)
        self.view_box.setMouseEnabled(x=True, y=False)
        axes = {"bottom": TimeAxisItem("bottom"), "left": KilohertzAxis("left")}
        self.plot = time_plot(self.view_box, axes, self.palette())
        frequency_axis = self.plot.getPlotItem().getAxis("left")
        frequency_axis.setLabel("kHz")
        frequency_axis.setWidth(AXIS_WIDTH)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.view_box.addItem(self.image)
        self.cursor_line = add_cursor_line(self.view_box)
        self.words = WordMarks(self.view_box, self)
        self.plot.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self._apply_scheme()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.note = QLabel(COMPUTING_TEXT, self)  # over the empty plot while the worker computes
        self.note.setObjectName("spectrogram_note")
        self.note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.note.hide()

    @property
    def duration(self) -> float:
        return self.spectrogram.duration if self.spectrogram is not None else 0.0

    def set_spectrogram(self, spectrogram: Spectrogram | None) -> None:
        """Show SPECTROGRAM over its duration, or nothing (None: no audio, or not worked out yet)."""
        self.spectrogram = spectrogram
        self.cursor_line.hide()
        self.note.hide()
        if spectrogram is None or spectrogram.levels.size == 0:
            self.image.clear()
            self.image.hide()
            return
        hop, band = spectrogram.hop, spectrogram.band
        rows, columns = spectrogram.levels.shape
        self.image.setImage(spectrogram.levels, levels=spectrogram.display_range(), autoLevels=False)
        # Each cell is centred on its window's time and its bin's frequency.
        self.image.setRect(QRectF(spectrogram.times[0] - hop / 2, -band / 2, columns * hop, rows * band))
        self.image.show()
        top = float(spectrogram.frequencies[-1])
        self.view_box.setLimits(xMin=0.0, xMax=self.duration, minXRange=min(0.005, self.duration), yMin=0.0, yMax=top)
        self.view_box.setRange(xRange=(0.0, self.duration), yRange=(0.0, min(top, TOP_HZ)), padding=0)

    def show_computing(self, duration: float) -> None:
        """Until the spectrogram of a clip of DURATION seconds is drawn: the axes over that clip and a note
        saying it is being computed (not an empty plot over a default range)."""
        self.set_spectrogram(None)
        if duration > 0:
            self.view_box.setLimits(xMin=0.0, xMax=duration, minXRange=min(0.005, duration), yMin=0.0, yMax=TOP_HZ)
            self.view_box.setRange(xRange=(0.0, duration), yRange=(0.0, TOP_HZ), padding=0)
        self.note.setGeometry(self.rect())
        self.note.raise_()
        self.note.show()

    @property
    def computing(self) -> bool:
        return not self.note.isHidden()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.note.setGeometry(self.rect())

    def set_position(self, seconds: float | None) -> None:
        """Move the play-position line (None, or nothing shown, hides it)."""
        if seconds is None or self.spectrogram is None:
            self.cursor_line.hide()
            return
        self.cursor_line.setValue(float(seconds))
        self.cursor_line.show()

    def scene_point(self, seconds: float, hertz: float = 1000.0) -> QPointF:
        return self.view_box.mapViewToScene(QPointF(seconds, hertz))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._apply_scheme()
        super().changeEvent(event)

    def _apply_scheme(self) -> None:
        self.plot.setBackground(self.palette().color(QPalette.ColorRole.Base))
        self.image.setColorMap(colour_map(is_dark()))

    def _on_scene_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self.spectrogram is None:
            return
        if not self.view_box.sceneBoundingRect().contains(event.scenePos()):
            return
        word = self.words.word_at(event.scenePos())
        if word is not None:
            self.word_clicked.emit(word)
            return
        seconds = self.view_box.mapSceneToView(event.scenePos()).x()
        self.clicked_at.emit(float(min(max(seconds, 0.0), self.duration)))
