"""A thin strip under the waveform marking where the clip holds speech (audio/voice_activity.py), so the
annotator sees silence, and speech where there should be none, at a glance.

The detector runs on a worker thread (gui/runtime/worker.py) for each clip shown; a newer clip supersedes an older
one's result. The strip shares the waveform's time axis (pyqtgraph's X link), so it pans and zooms with it.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QSizePolicy, QVBoxLayout, QWidget

from annotator.audio.voice_activity import speech_intervals
from annotator.gui.listening.waveform import WaveformView
from annotator.gui.runtime.worker import BackgroundTask
from annotator.gui.theme import theme_colour

STRIP_HEIGHT = 9  # pixels: a band, not a second plot


class VoiceActivityStrip(QWidget):
    intervals_shown = Signal(list)  # the (start, end) seconds of speech now drawn

    def __init__(self, waveform: WaveformView, parent: QWidget | None = None):
        super().__init__(parent)
        self.waveform = waveform
        self.intervals: list[tuple[float, float]] = []
        self._task: BackgroundTask | None = None
        self.plot = pg.PlotWidget(enableMenu=False)
        item = self.plot.getPlotItem()
        for axis in ("left", "bottom"):
            item.hideAxis(axis)
        item.hideButtons()
        item.setMouseEnabled(x=False, y=False)
        item.layout.setContentsMargins(0, 0, 0, 0)
        item.getViewBox().setYRange(0.0, 1.0, padding=0)
        item.getViewBox().setXLink(waveform.view_box)
        self.plot.setBackground(None)
        self.plot.setFixedHeight(STRIP_HEIGHT)
        self.plot.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.plot.setToolTip("Where the voice-activity detector found speech")
        self.bars = pg.BarGraphItem(
            x0=[], x1=[], y0=[], y1=[], pen=pg.mkPen(None), brush=theme_colour("voice_activity")
        )
        self.plot.addItem(self.bars)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot)
        self.hide()

    def set_audio(self, samples: np.ndarray | None, samplerate: int, _message: str = "") -> None:
        """Find the speech in SAMPLES off the GUI thread; with no audio, hide the strip."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._show([])
        if samples is None or len(samples) == 0 or samplerate <= 0:
            self.hide()
            return
        self.show()
        task = BackgroundTask(lambda _context: speech_intervals(samples, samplerate), self)
        task.succeeded.connect(lambda intervals: self._finished(task, intervals))
        self._task = task
        task.start()

    def _finished(self, task: BackgroundTask, intervals: list[tuple[float, float]]) -> None:
        if task is self._task:  # not a clip shown before
            self._task = None
            self._show(intervals)

    def _show(self, intervals: list[tuple[float, float]]) -> None:
        self.intervals = list(intervals)
        starts = [start for start, _ in intervals]
        ends = [end for _, end in intervals]
        self.bars.setOpts(
            x0=starts, x1=ends, y0=[0.15] * len(starts), y1=[0.85] * len(starts), brush=theme_colour("voice_activity")
        )
        self.intervals_shown.emit(self.intervals)
