"""Helpers for the scripts that the playback tests run in a fresh interpreter (audio_sandbox.py): every name here
is in the script's namespace."""

from __future__ import annotations

import json
import time

from annotator.audio import Clip, Player, PlayerState, concatenate, load_audio  # noqa: F401 - for the scripts
from annotator.errors import AudioError  # noqa: F401 - for the scripts

MAX_POLLS = 200_000


def report(**values: object) -> None:
    print("REPORT " + json.dumps(values), flush=True)


def poll_until(player: Player, done, max_polls: int = MAX_POLLS) -> int:
    """Poll like the GUI's timer until done(player); the cap counts polls, not seconds.

    The null device does not run in real time, so nothing here depends on the
    clock; the short sleep only lets the audio thread run.
    """
    for polls in range(1, max_polls + 1):
        player.poll()
        if done(player):
            return polls
        time.sleep(0.0002)
    raise AssertionError(f"not done after {max_polls} polls: {player.state}, {player.position:.3f} s")


def play_to_end(player: Player) -> int:
    player.play()
    return poll_until(player, lambda p: p.state is PlayerState.STOPPED)
