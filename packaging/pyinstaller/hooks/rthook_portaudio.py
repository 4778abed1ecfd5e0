"""Runtime hook: make sounddevice load the PortAudio copied into the build.

sounddevice asks ctypes.util.find_library("portaudio") on Linux, which only
knows the system's libraries (ldconfig), so on a machine without libportaudio2
it would give up although the build carries libportaudio.so.2. This hook runs
before the app's code (and again in the audio probe's child process) and
answers that one question with the bundled file.
"""

import ctypes.util
import os
import sys

_BUNDLED = os.path.join(getattr(sys, "_MEIPASS", ""), "libportaudio.so.2")
_system_find_library = ctypes.util.find_library


def _find_library(name):
    if name == "portaudio" and os.path.isfile(_BUNDLED):
        return _BUNDLED
    return _system_find_library(name)


ctypes.util.find_library = _find_library
