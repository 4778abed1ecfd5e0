"""What the annotator's own loggers say at ERROR: a background task's bug is logged, not raised, so the GUI tests
(tests/gui/conftest.py) collect these records and fail on them."""

from __future__ import annotations

import logging


class ErrorRecords(logging.Handler):
    """Error records of the annotator's own loggers: a background task's bug is logged, not raised."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))
