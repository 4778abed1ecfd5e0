"""A row written cell by cell is the line csv.writer writes (QUOTE_MINIMAL, LF), and a cell holding a carriage
return, which csv.writer leaves bare, is quoted: csv.reader gives back every row as it was."""

from __future__ import annotations

import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from annotator.annotation_files.csv_quoting import write_csv_row

CELL = st.text(alphabet=st.sampled_from("ab ,\"\n\r;'=é"), max_size=8) | st.text(max_size=8)


def _written(rows: list[list[str]]) -> bytes:
    stream = io.BytesIO()
    for row in rows:
        write_csv_row(stream, row)
    return stream.getvalue()


@given(st.lists(st.lists(CELL.filter(lambda cell: "\r" not in cell), min_size=1, max_size=5), max_size=4))
def test_a_row_is_the_line_csv_writer_writes(rows: list[list[str]]):
    expected = io.StringIO()
    csv.writer(expected, lineterminator="\n").writerows(rows)
    assert _written(rows) == expected.getvalue().encode("utf-8")


@given(st.lists(st.lists(CELL, min_size=1, max_size=5), min_size=1, max_size=4))
def test_every_row_reads_back_as_it_was(rows: list[list[str]]):
    assert list(csv.reader(io.StringIO(_written(rows).decode("utf-8"), newline=""))) == rows
