"""SIGTERM and SIGHUP (a logout, `kill`, systemd stopping the session, a closed terminal) end the window
without losing what the annotator typed.

By default either ends Python at once: the text typed in the editor in the last two seconds, not yet in
the recovery journal, was lost. Here each is turned into a call of STOP on the GUI thread: the signal
wakes the event loop through a socket (signal.set_wakeup_fd; a Python handler alone would wait until
some Python code ran), and STOP writes the journal and ends the process. Nothing is asked: the next
start offers the journal back as it does after a crash.
"""

from __future__ import annotations

import signal
import socket
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier

from annotator.writes.uninterrupted import STOPPING_SIGNALS


def _noted(_number: int, _frame) -> None:
    """The Python-level handler: the signal's number reaches the socket, which is what counts."""


class StopSignals(QObject):
    """While it lives, STOPPING_SIGNALS call STOP(number) on the GUI thread, once."""

    def __init__(self, stop: Callable[[int], None], parent: QObject):
        super().__init__(parent)
        self._stop = stop
        self._reading, self._writing = socket.socketpair()
        self._reading.setblocking(False)
        self._writing.setblocking(False)
        self._notifier = QSocketNotifier(self._reading.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)
        signal.set_wakeup_fd(self._writing.fileno(), warn_on_full_buffer=False)
        for number in STOPPING_SIGNALS:
            signal.signal(number, _noted)

    def _woken(self) -> None:
        try:
            received = self._reading.recv(256)
        except BlockingIOError:
            return
        number = next((number for number in received if number in STOPPING_SIGNALS), None)
        if number is not None:
            self._notifier.setEnabled(False)
            self._stop(number)
