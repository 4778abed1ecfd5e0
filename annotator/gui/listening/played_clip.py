"""The samples a clip is played with, made off the GUI thread when that takes long.

Normalising measures the whole clip (audio/loudness.py): 1.4 ms for a 2 s turn, 7 ms for 10 s, 153 ms for
120 s; the first measure in a process also imports pyloudnorm and scipy, seconds on a loaded machine.
Playing at another speed than 1x stretches the clip with rubberband, a process of its own: 100-240 ms for
a turn of a few seconds. A clip of SPOT_SECONDS or less at 1x, once the meter is loaded, is made on the
spot, so a turn plays exactly as soon as before. Anything else is made on a worker of its own; until it
is back the player holds nothing, so no clip is ever heard at a gain that was not measured for it. A
later make() or cancel() drops what the worker was making: the annotator has moved on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QObject, QThreadPool, Signal

from annotator.audio import Clip
from annotator.audio.loudness import load_meter, meter_loaded, played_clip
from annotator.audio.stretch import change_speed
from annotator.errors import AudioError
from annotator.gui.runtime.worker import BackgroundTask, TaskContext

# At most ~30 ms of measuring on the GUI thread (2 x the 10 s figure above, with room for a slower machine).
SPOT_SECONDS = 20.0


@dataclass(frozen=True)
class Played:
    """What the player gets for a clip."""

    clip: Clip  # normalised when asked, else the clip as recorded
    note: str  # why it plays as recorded ("" when normalised or loud enough)
    stretched: dict[float, np.ndarray] = field(default_factory=dict)  # the clip at the speed asked (Player.load)


def _made(clip: Clip, target_lufs: float | None, speed: float, context: TaskContext | None = None) -> Played | None:
    if target_lufs is not None:
        load_meter()
        if context is not None and context.cancelled():
            return None
        clip, note = played_clip(clip, target_lufs)
    else:
        note = ""
    stretched = {}
    if speed != 1.0 and not (context is not None and context.cancelled()):
        try:
            stretched[speed] = change_speed(clip.samples, clip.samplerate, speed)
        except AudioError:
            pass  # the player stretches on load, fails the same way and says why
    return Played(clip, note, stretched)


class PlayedClipMaker(QObject):
    """Makes the played version of one clip at a time (see the module's docstring)."""

    made = Signal(object)  # the Played of the clip of the last make() that waited

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._task: BackgroundTask | None = None
        self._pool = QThreadPool(self)  # not the shared pool: a corpus scan there would hold the clip back
        self._pool.setMaxThreadCount(1)

    @property
    def pending(self) -> bool:
        """Whether a clip is being made on the worker (made follows)."""
        return self._task is not None

    def make(self, clip: Clip, target_lufs: float | None, speed: float = 1.0) -> Played | None:
        """CLIP's played version, normalised to TARGET_LUFS (None: as recorded) and stretched to SPEED, when it
        is quick to make; None when it is being made on the worker instead (made is emitted then)."""
        self.cancel()
        if speed == 1.0 and (
            target_lufs is None or (meter_loaded() and clip.samples.shape[0] <= SPOT_SECONDS * clip.samplerate)
        ):
            return _made(clip, target_lufs, speed)
        task = BackgroundTask(lambda context: _made(clip, target_lufs, speed, context), self)

        def succeeded(played: Played | None) -> None:
            if played is not None:
                self._deliver(task, played)

        task.succeeded.connect(succeeded)
        task.failed.connect(
            lambda text: self._deliver(task, Played(clip, f"loudness not normalised: {text}; played as recorded"))
        )
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

    def _deliver(self, task: BackgroundTask, played: Played) -> None:
        if task is not self._task:
            return  # made for a clip the annotator has left
        self._task = None
        self.made.emit(played)
