"""A turn's words drawn on a plot of its audio (the waveform, the spectrogram): a line at each boundary, each
word's text in a strip along the top of the plot (underlined when the aligner is unsure of it; a label that would run into the
one before is left out until the plot is zoomed in), and the word
being heard shaded. A click in that strip, over a word, is a click on the word (word_at)."""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QObject, QPointF
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication

from annotator.alignment import AlignedWord
from annotator.gui.theme import theme_changes, theme_colour
from annotator.gui.widgets.time_axis import TimeViewBox

LABEL_GAP_PX = 2  # between two labels shown side by side
STRIP_MARGIN_PX = 4  # below the labels' text: the strip a click on a word may land in


class WordMarks(QObject):
    """The marks on VIEW_BOX, owned by the view that holds it (PARENT): they stop following the theme with it."""

    def __init__(self, view_box: TimeViewBox, parent: QObject):
        super().__init__(parent)
        self.view_box = view_box
        self.words: list[AlignedWord] = []
        self.labels: list[pg.TextItem] = []
        self.heard: int | None = None
        self.boundaries = pg.PlotCurveItem(connect="pairs")
        self.boundaries.setZValue(10)
        view_box.addItem(self.boundaries, ignoreBounds=True)
        self.shade = pg.LinearRegionItem(movable=False)
        self.shade.setZValue(-5)
        self.shade.hide()
        view_box.addItem(self.shade, ignoreBounds=True)
        view_box.sigRangeChanged.connect(self._place)
        view_box.sigResized.connect(self._place)
        self.restyle()
        theme_changes().changed.connect(self.restyle)

    def set_words(self, words: list[AlignedWord]) -> None:
        for label in self.labels:
            self.view_box.removeItem(label)
        self.words, self.heard = list(words), None
        self.labels = []
        for _word in self.words:
            label = pg.TextItem(anchor=(0.0, 0.0))
            label.setZValue(15)
            self.view_box.addItem(label, ignoreBounds=True)
            self.labels.append(label)
        self.restyle()
        self._place()

    def set_heard(self, index: int | None) -> None:
        """Shade word INDEX (None: none)."""
        self.heard = index if index is not None and 0 <= index < len(self.words) else None
        if self.heard is None:
            self.shade.hide()
            return
        word = self.words[self.heard]
        self.shade.setRegion((word.start, word.end))
        self.shade.show()

    def word_at(self, scene_position: QPointF) -> int | None:
        """The word whose span, in the strip along the top of the plot, holds SCENE_POSITION."""
        if not self.words:
            return None
        box = self.view_box.sceneBoundingRect()
        if not box.contains(scene_position) or scene_position.y() - box.top() > self.strip_height():
            return None
        seconds = self.view_box.mapSceneToView(scene_position).x()
        for index, word in enumerate(self.words):
            if word.start <= seconds < word.end:
                return index
        return None

    def strip_height(self) -> float:
        return QFontMetrics(QApplication.font()).height() + STRIP_MARGIN_PX

    def restyle(self) -> None:
        text = QApplication.palette().text().color()
        self.boundaries.setPen(pg.mkPen(theme_colour("word_boundary"), width=1))
        shade = theme_colour("heard_word")
        self.shade.setBrush(pg.mkBrush(shade))
        for line in self.shade.lines:
            line.setPen(pg.mkPen(None))
        for word, label in zip(self.words, self.labels):
            shown = html.escape(word.text)
            label.setHtml(f"<u>{shown}</u>" if word.unsure else shown)
            label.setColor(text)

    def _place(self, *_changed: object) -> None:
        """The labels at the top of the plot as it is shown now, the boundaries from its top to its bottom."""
        (_, _), (bottom, top) = self.view_box.viewRange()
        right_of_last = -math.inf  # where the last label shown ends, in pixels of the scene
        for word, label in zip(self.words, self.labels):
            label.setPos(word.start, top)
            left = self.view_box.mapViewToScene(QPointF(word.start, top)).x()
            fits = left >= right_of_last + LABEL_GAP_PX
            label.setVisible(fits)  # a label over the one before would make both unreadable: zoom in to see it
            if fits:
                right_of_last = left + label.boundingRect().width()
        edges = sorted({edge for word in self.words for edge in (word.start, word.end)})
        xs = np.repeat(np.asarray(edges, dtype=np.float64), 2)
        ys = np.tile(np.asarray([bottom, top], dtype=np.float64), len(edges))
        self.boundaries.setData(xs, ys, connect="pairs")
