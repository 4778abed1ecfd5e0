"""CSV cells and lines for the exports: seconds, numbers, neutralised text, RFC 4180 quoting.

Lines are joined by hand instead of with csv.writer: the events file has a
row per operation, message and event (300 000 for a 100 MB log) and
csv.writer costs three times as much per row. The output is what csv.writer
writes with lineterminator="\\n" and QUOTE_MINIMAL, except that a carriage
return inside a cell is quoted too (so no reader takes it for a line end).
"""

from __future__ import annotations

from annotator.annotation_files.csv_quoting import quote
from annotator.annotation_files.spreadsheet_cells import neutralise_cell
from annotator.log.times import NUMERAL_CHARACTERS

# neutralise_cell changes only cells starting with one of these (an apostrophe for its round trip).
RISKY_FIRST = "=+-@\t\r'"


def number(text: str | None) -> float | None:
    """The time in TEXT, else None (annotator.log.times.parse_number, inlined for speed)."""
    if text is None:
        return None
    try:
        value = float(text)
    except (TypeError, ValueError):
        return None
    if text.strip(NUMERAL_CHARACTERS):
        return None  # "1_000", "1e3", "٣": float() reads them, the standard does not
    return value if value - value == 0.0 else None  # a numeral too long for a float is no time


def seconds_cell(value: float | None) -> str:
    """A number of seconds in full precision without scientific notation; "" for None."""
    if value is None:
        return ""
    text = repr(value)
    return text if "e" not in text else f"{value:.6f}"


def duration_cell(value: float | None) -> str:
    """A difference of times: float noise below the microsecond dropped (no log is that precise).

    That is repr(round(value, 6)) (or seconds_cell of it); in the usual range the
    same digits come three times faster from formatting: both round the exact
    binary value to 6 decimals, and below 1e9 such a decimal is the shortest
    repr of its float.
    """
    if value is None:
        return ""
    if 1e-4 <= abs(value) < 1e9 or value == 0.0:
        text = f"{value:.6f}".rstrip("0")
        return text + "0" if text[-1] == "." else text
    return seconds_cell(round(value, 6))


def text_cell(value: str | None) -> str:
    """A text cell no spreadsheet runs as a formula; "" for None."""
    if not value:
        return ""
    return neutralise_cell(value) if value[0] in RISKY_FIRST else value


def value_cell(value: object) -> str:
    """A metric value: numbers as numbers, text neutralised, None empty."""
    if value is None:
        return ""
    if isinstance(value, float):
        return seconds_cell(value)
    if isinstance(value, (int, bool)):
        return str(int(value))
    return text_cell(str(value))


def csv_line(cells: list[str] | tuple[str, ...]) -> str:
    """One CSV line (with its LF) from cells that are already strings."""
    line = ",".join(cells)
    if line.count(",") != len(cells) - 1 or '"' in line or "\n" in line or "\r" in line:
        line = ",".join(map(quote, cells))
    return line + "\n"
