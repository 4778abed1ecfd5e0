"""CSV cells quoted as csv.writer quotes them (QUOTE_MINIMAL, LF line ends; a carriage return inside a cell
is quoted too, so that no reader takes it for a line end), and rows written to a stream cell by cell.

csv.writer builds each row in a buffer of four bytes a character before it hands the row on: a row
holding a huge transcription cost several times the text. A row written here costs one cell's bytes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

_MUST_QUOTE = (",", '"', "\n", "\r")


def quote(cell: str) -> str:
    """CELL quoted for CSV when it holds a separator, a quote or a line break."""
    for char in _MUST_QUOTE:
        if char in cell:
            return '"' + cell.replace('"', '""') + '"'
    return cell


def write_csv_row(stream: IO[bytes], cells: Iterable[str]) -> None:
    """One CSV line of CELLS (strings, already neutralised where they must be), in UTF-8, with its LF."""
    cells = list(cells)
    if cells == [""]:
        stream.write(b'""\n')  # as csv.writer writes it: a bare empty line is no row to a reader
        return
    separator = b""
    for cell in cells:
        stream.write(separator)
        stream.write(quote(cell).encode("utf-8"))
        separator = b","
    stream.write(b"\n")
