"""Logs whose DOCTYPE names an external DTD, and a local server that counts who connects to it.

A log may name the standard's DTD (`<!DOCTYPE GC_LOG SYSTEM "gc_log.dtd">`, a PUBLIC id, a
path, a URL); the annotator must open it without ever reading what it names. The tests make
every such read observable: the URL is served by ConnectionCounter, a real socket on
127.0.0.1 that counts connections; the named file holds an entity declaration that would
reach that socket if parsed; a FIFO as the named file would block whoever opened it.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

from lxml import etree

from tests.support.xml_builders import session, system_turn, user_turn

# The root element as lxml writes it, so that an unedited log comes out byte for byte as it went in.
BODY = (
    etree.tostring(
        etree.fromstring(
            "<GC_LOG>"
            + session("s1", [system_turn("1", 1000, "Where to?"), user_turn("2", 1002, "boston")])
            + "</GC_LOG>"
        ),
        encoding="unicode",
    )
    + "\n"
)


def doctype_log(doctype: str, encoding: str = "UTF-8") -> str:
    """A small valid log with DOCTYPE (written as given, spacing and all) after the declaration."""
    return f'<?xml version="1.0" encoding="{encoding}"?>\n{doctype}\n{BODY}'


class ConnectionCounter:
    """A TCP listener on 127.0.0.1 that accepts, counts and closes every connection."""

    def __init__(self):
        self.connections = 0
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._socket.bind(("127.0.0.1", 0))
        self._socket.listen(16)
        self._socket.settimeout(0.1)
        self.port = self._socket.getsockname()[1]
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/gc_log.dtd"

    def _serve(self) -> None:
        while not self._stopped.is_set():
            try:
                connection, _ = self._socket.accept()
            except (TimeoutError, OSError):
                continue
            self.connections += 1
            connection.close()

    def __enter__(self) -> ConnectionCounter:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stopped.set()
        self._thread.join()
        self._socket.close()

    def probe(self) -> None:
        """Connect once ourselves: proves the counter counts (a test of 'no connection' must be able to fail)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=2):
            pass


def poisoned_dtd(folder: Path, counter: ConnectionCounter, name: str = "gc_log.dtd") -> Path:
    """A DTD file that, if anyone parsed it, would fetch the counter's URL and declare an entity."""
    path = folder / name
    path.write_text(
        f'<!ENTITY % remote SYSTEM "{counter.url}">\n%remote;\n<!ENTITY poison "read">\nthis is not a DTD at all <<<\n',
        encoding="utf-8",
    )
    return path
