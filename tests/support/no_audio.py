"""A log whose user turns have no audio, and what the window says when asked to play one."""

from __future__ import annotations

from pathlib import Path

NOTHING_TO_PLAY = "nothing to play: no audio is loaded"


def without_user_audio(log: Path) -> Path:
    """LOG with its user turns' audio files gone: asking to play one says why not, and no audio device opens."""
    for wav in log.parent.glob("*-user.wav"):
        wav.unlink()
    return log
