"""The start of a script that runs the real window in a fresh interpreter (for tests that need
a process of their own: real audio devices, SIGKILL). Format it with settings= and log=."""

WINDOW_PRELUDE = """
import os, signal, time
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication
QSettings.setDefaultFormat(QSettings.Format.IniFormat)
QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, {settings!r})
from annotator.gui.app import build_window, make_application, parts_of
from annotator.gui.app import parts_of
app = make_application()
window = build_window()
window.show()
window.activateWindow()
QTest.qWaitForWindowActive(window)
assert parts_of(window).navigator.open_path({log!r})
"""

# Put in WINDOW_PRELUDE before its open: the log opens on its first turn, the system's greeting, as a log
# reopened where the annotator left it there would (a log opened for the first time opens on a user turn).
OPEN_ON_THE_GREETING = """
from pathlib import Path
from annotator.gui.settings import AppSettings, LastPosition
from annotator.log.document import LogDocument
AppSettings().set_last_position(Path({log!r}), LastPosition(LogDocument.load(Path({log!r})).sessions[0].id, 0), None)
"""


def opening_on_the_greeting(prelude: str) -> str:
    """PRELUDE (WINDOW_PRELUDE) opening its log on the greeting (OPEN_ON_THE_GREETING)."""
    return prelude.replace(
        "assert parts_of(window).navigator.open_path(",
        OPEN_ON_THE_GREETING + "assert parts_of(window).navigator.open_path(",
    )


# After WINDOW_PRELUDE: play until the player has played and stopped again; the states it passed.
UNTIL_STOPPED = """
def until_stopped():
    player = parts_of(window).playback.player
    states = {{player.state.name}}  # the null device is fast: the clip may be over by the next pass
    for _ in range(200_000):  # the null device is not real time: count passes, not seconds
        app.processEvents()
        states.add(player.state.name)
        if "PLAYING" in states and player.state.name == "STOPPED":
            return states
        time.sleep(0.0005)
    raise AssertionError("playback did not end")
"""

# Playing in the scripted window: its playback and player, a real key press to the focus widget, and waiting for
# the first clip (its loudness meter's import).
PLAY_HELPERS = """
playback = parts_of(window).playback
player = playback.player

def key(k, modifiers=Qt.KeyboardModifier.NoModifier):
    QTest.keyClick(QApplication.focusWidget() or window, k, modifiers)

def until_ready():
    while playback.preparing:  # the first clip of a process waits for the loudness meter's import
        app.processEvents()
        time.sleep(0.001)
"""
