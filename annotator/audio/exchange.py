"""Exchange playback: several clips back to back (a system prompt, then the user's reply).

The clips may differ in rate and channels (prompts and recordings come from
different machines), so all are brought to the highest rate and the most
channels among them, with a short silence between them so the listener hears
where one speaker stops.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from annotator.audio.decode import Clip, ClipPart
from annotator.audio.resample import resample, with_channels
from annotator.log.exchange import EXCHANGE_GAP_SECONDS


def concatenate(clips: Sequence[Clip], gap_s: float = EXCHANGE_GAP_SECONDS) -> Clip:
    """One clip of `clips` in order with `gap_s` seconds of silence between neighbours.

    Its length is the sum of the clips' lengths plus one gap per join, and its
    `parts` say where each source file starts, for a cursor that names the
    speaker being heard.
    """
    if not clips:
        raise ValueError("concatenate needs at least one clip")
    if gap_s < 0:
        raise ValueError("the gap between clips cannot be negative")
    if len(clips) == 1:
        return clips[0]
    rate = max(clip.samplerate for clip in clips)
    channels = max(clip.channels for clip in clips)
    gap = np.zeros((int(round(gap_s * rate)), channels), dtype=np.float32)
    pieces: list[np.ndarray] = []
    parts: list[ClipPart] = []
    start = 0
    for index, clip in enumerate(clips):
        if index:
            pieces.append(gap)
            start += gap.shape[0]
        converted = with_channels(resample(clip, rate), channels)
        for part in clip.parts:
            parts.append(ClipPart(part.path, start / rate + part.start, part.duration))
        pieces.append(converted.samples)
        start += converted.frames
    return Clip(np.concatenate(pieces), rate, None, tuple(parts))
