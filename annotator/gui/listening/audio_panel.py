"""What the waveform dock holds: the turn's waveform, its spectrogram, or both stacked when there is room.

The spectrogram is worked out off the GUI thread (a BackgroundTask) when a clip arrives while it is shown,
or when it is turned on; a newer clip supersedes a computation still running, whose result is dropped. It
has a thread of its own, so that it never waits behind a long task of the shared pool (a log's validation, a
corpus scan), and superseded work still queued there returns at once. The two plots show the same stretch of
time: zooming or panning one moves the other.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QThreadPool, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from annotator.audio.spectrogram import Spectrogram, spectrogram
from annotator.gui.listening.spectrogram import AXIS_WIDTH, SpectrogramView
from annotator.gui.listening.waveform import WaveformView
from annotator.gui.runtime.worker import BackgroundTask, TaskContext
from annotator.gui.widgets.layout_boundary import LayoutBoundary

# Below this height the two plots would each be too flat to read: the spectrogram, when on, replaces the waveform.
STACKED_MIN_HEIGHT = 230


class AudioPanel(LayoutBoundary):
    message_shown = Signal(str)  # the spectrogram could not be worked out, and why

    def __init__(self, waveform: WaveformView, parent: QWidget | None = None):
        super().__init__(parent)
        self.waveform = waveform
        self.spectrogram = SpectrogramView(self)
        self.spectrogram.setObjectName("spectrogram")
        self.spectrogram_on = False
        self._clip: tuple[np.ndarray, int] | None = None  # the audio shown, while its spectrogram is not worked out
        self._task: BackgroundTask | None = None
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._position: float | None = None
        self._following = False
        layout = QVBoxLayout(self.body)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(waveform, 1)
        layout.addWidget(self.spectrogram, 1)
        for source, target in (
            (waveform.view_box, self.spectrogram.view_box),
            (self.spectrogram.view_box, waveform.view_box),
        ):
            source.sigXRangeChanged.connect(lambda _box, x_range, target=target: self._follow(target, x_range))
        self._arrange()

    @property
    def stacked(self) -> bool:
        """Whether both plots are shown, one above the other."""
        return self.waveform.isVisibleTo(self) and self.spectrogram.isVisibleTo(self)

    @property
    def computing(self) -> bool:
        return self._task is not None

    def set_clip(self, samples: np.ndarray | None, samplerate: int, message: str = "") -> None:
        """Show the audio (or MESSAGE where there is none) in the waveform, and in the spectrogram when it is on."""
        self.waveform.set_audio(samples, samplerate, message)
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.spectrogram.set_spectrogram(None)
        # The waveform shows its message in place of no samples.
        self._clip = None if samples is None or self.waveform.showing_message else (samples, int(samplerate))
        if self.spectrogram_on:
            self._compute()
        self._arrange()

    def show_spectrogram(self, on: bool) -> None:
        self.spectrogram_on = on
        if on:
            self._compute()
        self._arrange()

    def set_position(self, seconds: float | None) -> None:
        self._position = seconds
        self.waveform.set_position(seconds)
        self.spectrogram.set_position(seconds)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange()

    def _arrange(self) -> None:
        """The spectrogram while it is on and there is audio; the waveform too if there is room, or if it is off,
        or when there is no audio (its message says why)."""
        spectrogram = self.spectrogram_on and not self.waveform.showing_message
        self.spectrogram.setVisible(spectrogram)
        self.waveform.setVisible(not spectrogram or self.height() >= STACKED_MIN_HEIGHT)
        self._align_waveform(self.stacked)

    def _align_waveform(self, stacked: bool) -> None:
        """Stacked, the waveform leaves blank the margin the spectrogram's kHz axis takes, so that each moment
        is at the same x in both; alone, it keeps its whole width."""
        item = self.waveform.plot.getPlotItem()
        if not stacked:
            item.hideAxis("left")
            return
        item.showAxis("left")
        margin = item.getAxis("left")
        margin.setStyle(showValues=False, tickLength=0)
        margin.setWidth(AXIS_WIDTH)

    def _compute(self) -> None:
        if self._clip is None or self._task is not None or self.spectrogram.spectrogram is not None:
            return
        samples, samplerate = self._clip
        task = BackgroundTask(lambda context: _spectrogram_unless_cancelled(samples, samplerate, context), self)
        task.succeeded.connect(lambda result, task=task: self._computed(task, result))
        task.failed.connect(lambda message, task=task: self._failed(task, message))
        task.finished.connect(task.deleteLater)
        self._task = task
        task.start(self._pool)
        self.spectrogram.show_computing(len(samples) / samplerate if samplerate > 0 else 0.0)

    def _computed(self, task: BackgroundTask, result: Spectrogram) -> None:
        if task is not self._task:
            return
        self._task, self._clip = None, None
        shown = self.waveform.view_box.viewRange()[0]
        self.spectrogram.set_spectrogram(result)
        self._follow(self.spectrogram.view_box, shown)
        self.spectrogram.set_position(self._position)

    def _failed(self, task: BackgroundTask, message: str) -> None:
        if task is self._task:
            self._task = None
            self.spectrogram.set_spectrogram(None)
            self.message_shown.emit(f"no spectrogram: {message}")

    def _follow(self, target, x_range) -> None:
        if self._following:
            return
        self._following = True
        try:
            target.setXRange(*x_range, padding=0)
        finally:
            self._following = False


def _spectrogram_unless_cancelled(samples: np.ndarray, samplerate: int, context: TaskContext) -> Spectrogram | None:
    return None if context.cancelled() else spectrogram(samples, samplerate)
