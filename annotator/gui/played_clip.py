"""The samples a clip is played with, made off the GUI thread when measuring its loudness takes long.

Normalising measures the whole clip (audio/loudness.py): 1.4 ms for a 2 s turn, 7 ms for 10 s, 153 ms for
120 s; the first measure in a process also imports pyloudnorm and scipy, seconds on a loaded machine. A
clip of SPOT_SECONDS or less, once the meter is loaded, is made on the spot, so a turn plays exactly as
soon as before. Anything else is made on a worker of its own; until it is back the player holds nothing,
so no clip is ever heard at a gain that was not measured for it. A later make() or cancel() drops what
the worker was making: the annotator has moved on.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QThreadPool, Signal

from annotator.audio import Clip
from annotator.audio.loudness import load_meter, meter_loaded, played_clip
from annotator.gui.worker import BackgroundTask, TaskContext

# At most ~30 ms of measuring on the GUI thread (2 x the 10 s figure above, with room for a slower machine).
SPOT_SECONDS = 20.0
Made = tuple[Clip, str]  # the clip to play, and why it plays as recorded ("" when normalised or loud enough)


def _made_on_worker(clip: Clip, target_lufs: float, context: TaskContext) -> Made | None:
    load_meter()
    return None if context.cancelled() else played_clip(clip, target_lufs)


class PlayedClipMaker(QObject):
    """Makes the played version of one clip at a time (see the module's docstring)."""

    made = Signal(object, str)  # the played Clip and its note, for the clip of the last make() that waited

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._task: BackgroundTask | None = None
        self._pool = QThreadPool(self)  # not the shared pool: a corpus scan there would hold the clip back
        self._pool.setMaxThreadCount(1)

    @property
    def pending(self) -> bool:
        """Whether a clip is being made on the worker (made follows)."""
        return self._task is not None

    def make(self, clip: Clip, target_lufs: float | None) -> Made | None:
        """CLIP's played version normalised to TARGET_LUFS (None: as recorded) when it is quick to make;
        None when it is being made on the worker instead (made is emitted then)."""
        self.cancel()
        if target_lufs is None:
            return clip, ""
        if meter_loaded() and clip.samples.shape[0] <= SPOT_SECONDS * clip.samplerate:
            return played_clip(clip, target_lufs)
        task = BackgroundTask(lambda context: _made_on_worker(clip, target_lufs, context), self)
        task.succeeded.connect(lambda result: result is not None and self._deliver(task, *result))
        task.failed.connect(lambda text: self._deliver(
            task, clip, f"loudness not normalised: {text}; played as recorded"))
        task.finished.connect(task.deleteLater)
        self._task = task
        task.start(self._pool)
        return None

    def wait(self, timeout_ms: int = -1) -> bool:
        """Block until the worker is idle (results it made may still be queued). For shutdown and tests."""
        return self._pool.waitForDone(timeout_ms)

    def cancel(self) -> None:
        """Drop what the worker is making (its result is never delivered)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()

    def _deliver(self, task: BackgroundTask, played: Clip, note: str) -> None:
        if task is not self._task:
            return  # made for a clip the annotator has left
        self._task = None
        self.made.emit(played, note)
