"""The words of the shown turn placed on its own audio (docs/words.md, "In the window").

The turn is aligned off the GUI thread (a BackgroundTask) as soon as its own audio is loaded, and again when
its words change (a transcription stored, undone, replaced): the turn's text and audio file are looked up in
the alignment cache `annotator align` fills, and aligned only when it holds nothing for them; what is aligned
here is kept there too. The tasks have a thread of their own, so that an alignment never waits behind a long
task of the shared pool (a log's validation, a corpus scan); a newer request supersedes one still running,
whose result is dropped, and superseded work still queued returns at once. The aligning itself is done by a
child process (aligner_process.py), so that it never holds the GUI thread.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal

from annotator.alignment import AlignedWord, NotAligned
from annotator.alignment.cache import AlignmentCache, Outcome, alignment_key, file_digest
from annotator.alignment.outcome import NO_AUDIO, NO_WORDS, SILENT
from annotator.alignment.turns import text_to_align
from annotator.gui.listening.aligner_process import AlignerProcess
from annotator.gui.listening.playback import Playback
from annotator.gui.runtime.worker import BackgroundTask, TaskContext
from annotator.gui.settings import AppSettings
from annotator.log.document import AnnotationChange

# Reasons not worth a word in the status bar: a turn with nothing typed yet, a turn without audio or with silent
# audio (the waveform shows it already).
_QUIET_REASONS = (NO_WORDS, NO_AUDIO, SILENT)


class TurnWords(QObject):
    changed = Signal()  # words changed (a turn shown, aligned, or its words gone)
    message_shown = Signal(str)  # why the shown turn's words could not be placed

    def __init__(
        self,
        playback: Playback,
        settings: AppSettings,
        cache_file: Path | None = None,
        parent: QObject | None = None,
    ):
        super().__init__(parent)
        self.playback, self.settings = playback, settings
        self.cache_file = cache_file  # None: the user's cache (annotator.corpus_index.location)
        self.words: list[AlignedWord] = []  # of the turn whose own audio is loaded, once aligned
        self.aligned_in: float | None = None  # seconds from the request to the words, for the last turn aligned
        self._request: tuple[Path, str] | None = None  # the audio and text being aligned or shown
        self._task: BackgroundTask | None = None
        self._asked_at = 0.0
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._aligner = AlignerProcess()
        playback.clip_changed.connect(lambda *_clip: self.refresh())

    @property
    def aligning(self) -> bool:
        return self._task is not None

    def on_annotation_changed(self, change: AnnotationChange) -> None:
        """A stored transcription (or its undo) changes the shown turn's words: align them again."""
        if change.turn is not None and change.turn == self.playback.turn:
            self.refresh()

    def refresh(self) -> None:
        """Align the shown turn's own audio with its words now, unless that is what is shown or being aligned."""
        clip, turn = self.playback.clip, self.playback.turn
        # Placing words can be turned off (Preferences > Playback): no aligner process is started then; the
        # preference counts from the next turn shown.
        own = (
            self.settings.place_words
            and self.playback.plays_own_audio
            and clip is not None
            and clip.path is not None
            and turn is not None
        )
        text = text_to_align(turn.facts()) if own and turn is not None else None
        request = (clip.path, text or "") if own and clip is not None and clip.path is not None else None
        if request == self._request:
            return
        self._request = request
        self._cancel()
        self._show([])
        if request is None:
            return
        path, words = request
        cache_file, aligner = self.cache_file, self._aligner
        task = BackgroundTask(lambda context: _outcome(path, words, cache_file, aligner, context), self)
        task.succeeded.connect(lambda outcome, task=task: self._aligned(task, outcome))
        task.failed.connect(lambda message, task=task: self._failed(task, message))
        task.finished.connect(task.deleteLater)
        self._task = task
        self._asked_at = time.perf_counter()
        task.start(self._pool)

    def close(self) -> None:
        """The window closes: drop the alignment under way and stop the aligner's process."""
        self._cancel()
        self._aligner.close()

    def _cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    def _aligned(self, task: BackgroundTask, outcome: Outcome | None) -> None:
        if task is not self._task or outcome is None:
            return
        self._task = None
        self.aligned_in = time.perf_counter() - self._asked_at
        if isinstance(outcome, NotAligned):
            if outcome.reason not in _QUIET_REASONS:
                self.message_shown.emit(f"Words not placed on the audio ({outcome.reason}): {outcome}")
            return
        self._show(outcome)

    def _failed(self, task: BackgroundTask, message: str) -> None:
        if task is self._task:
            self._task = None
            self.message_shown.emit(f"Words not placed on the audio: {message}")

    def _show(self, words: list[AlignedWord]) -> None:
        if words or self.words:
            self.words = words
            self.changed.emit()


def _outcome(
    path: Path, text: str, cache_file: Path | None, aligner: AlignerProcess, context: TaskContext
) -> Outcome | None:
    """TEXT on the audio at PATH, from the cache or aligned (and then kept); None when cancelled before."""
    if context.cancelled():
        return None
    try:
        key = alignment_key(file_digest(path), text)
    except OSError as error:
        return NotAligned(NO_AUDIO, f"{path.name}: cannot be read ({error.strerror or error})")
    cache = AlignmentCache(cache_file)
    try:
        kept = cache.kept([key]).get(key)
        if kept is not None:
            return kept
        if context.cancelled():
            return None
        outcome = aligner.align(path, text)  # AlignerStopped when the window closes meanwhile: nothing kept
        cache.keep({key: outcome})
        return outcome
    finally:
        cache.close()
