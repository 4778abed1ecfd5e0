"""What the tests of the window's background open share: logs big enough to be read in many chunks (the sample
session repeated, one session of thousands of turns) and DuringLoad, which acts on the open's first progress
report, while the log is being read."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from annotator.gui.app import parts_of
from tests.support.repository import SAMPLE_LOGS

SAMPLE = SAMPLE_LOGS / "travel-20261121-001" / "travel-20261121-001-hublog.xml"
COPIES = 250  # about 6.5 MB: several chunks of the reader, so progress is reported before the end
LONG_TURNS = 4000  # over the opener's PREPARE_AFTER_PAINT_TURNS, about 2.6 MB: many chunks of the reader


def write_big_log(folder: Path) -> Path:
    """A multi-megabyte log in FOLDER: the sample's session repeated COPIES times, each copy with an id of its own."""
    tree = etree.parse(str(SAMPLE))
    root = tree.getroot()
    session = root.find("GC_SESSION")
    for number in range(1, COPIES):
        copy = etree.fromstring(etree.tostring(session))
        copy.set("id", f"{session.get('id')}-copy{number}")
        root.append(copy)
    path = folder / "big-hublog.xml"
    tree.write(str(path), xml_declaration=True, encoding="UTF-8")
    return path


class DuringLoad:
    """Runs ACTION once, on the first progress report of the window's open (the log is then being read)."""

    def __init__(self, window, action):
        self.window, self.action = window, action
        self.seen: list[tuple[int, int, str, bool]] = []  # done, total, label, dialog visible
        parts_of(window).controller.opener.show_progress_after_ms = 0
        parts_of(window).controller.opener.progressed.connect(self._progressed)

    def _progressed(self, done: int, total: int, label: str) -> None:
        dialog = parts_of(self.window).controller.opener.dialog
        self.seen.append((done, total, label, dialog is not None and dialog.isVisible()))
        if len(self.seen) == 1 and self.action is not None:
            self.action(dialog)
