"""Named item-data roles of the annotator's models (data() answers None to any other role)."""

from __future__ import annotations

from PySide6.QtCore import Qt

_BASE = Qt.ItemDataRole.UserRole

TURN_ROLE = _BASE + 1  # the row's annotator.log.elements.Turn
NEEDS_TRANSCRIPTION_ROLE = _BASE + 2  # bool: a user turn without a transcription
SPEAKER_ROLE = _BASE + 3  # "user", "system" or None
SECONDS_ROLE = _BASE + 4  # float seconds of a time column (None where unknown), for sorting and plotting
SORT_ROLE = (
    _BASE + 5
)  # a value that sorts the column sensibly (numbers as numbers, severity worst first, unknowns last)
FINDING_ROLE = _BASE + 6  # the row's annotator.analysis.validation.Finding
SUMMARY_ROLE = _BASE + 7  # the row's annotator.corpus.scan.SessionSummary
SEARCH_HIT_ROLE = _BASE + 30  # "current", "hit" or None: whether the cell holds a hit of the find bar
