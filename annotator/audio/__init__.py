"""Qt-free audio: decode files into clips, join them, change speed, play them.

Importing this package does not start PortAudio: that happens on the first
call that needs a device (see devices.py), so the CLI and the tests of other
packages never touch the sound system.
"""

from annotator.audio.decode import Clip, ClipPart, load_audio
from annotator.audio.exchange import concatenate
from annotator.audio.player import Player, PlayerState
from annotator.audio.resample import resample, with_channels
from annotator.audio.stretch import change_speed, stretch_available

__all__ = [
    "Clip",
    "ClipPart",
    "Player",
    "PlayerState",
    "change_speed",
    "concatenate",
    "load_audio",
    "resample",
    "stretch_available",
    "with_channels",
]
