"""Keep spreadsheets from running CSV cells as formulas, reversibly.

A cell starting with = + - @ tab or CR is a formula to Excel and LibreOffice
(CSV injection), so exports prefix it with an apostrophe, which spreadsheets
show as text. Plain numbers such as "-01" or "-1.5" are left alone. A cell
that already starts with apostrophes before such a character gets one more,
so that unneutralise_cell(neutralise_cell(x)) == x for every string.
"""

from __future__ import annotations

import re

_FORMULA_START = re.compile(r"'*[=+\-@\t\r]")
_NEUTRALISED = re.compile(r"'(?='*[=+\-@\t\r])")
_PLAIN_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")  # ASCII digits only


def neutralise_cell(text: str) -> str:
    """TEXT as a CSV cell that no spreadsheet runs as a formula."""
    if _FORMULA_START.match(text) and not _PLAIN_NUMBER.fullmatch(text):
        return "'" + text
    return text


def unneutralise_cell(text: str) -> str:
    """The text neutralise_cell was given: one leading apostrophe removed where it added one."""
    return text[1:] if _NEUTRALISED.match(text) else text
