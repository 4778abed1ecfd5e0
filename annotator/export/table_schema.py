"""The types of the CSV export's columns, for the typed tables (Parquet, annotator.tables()).

The tables have the CSV's columns in the CSV's order; a cell the CSV leaves
empty is null. Times, durations, rates and means are float64 seconds (or a
plain float64); counts, indexes and occurrences are integers, nullable
(pandas "Int64") where the CSV may leave them empty; everything else is text
(pandas "string"), written as in the CSV (a formula-like cell keeps its
leading apostrophe, as `annotator fold` expects).
"""

from __future__ import annotations

import io

from annotator.analysis.concept_metrics import CONCEPT_COLUMNS
from annotator.analysis.metrics import TIME_COLUMNS
from annotator.export.csv_rows import EVENT_COLUMNS, SESSION_COLUMNS, TURN_COLUMNS
from annotator.export.words_rows import WORD_COLUMNS

TEXT, FLOAT, INT, NULLABLE_INT = "string", "float64", "int64", "Int64"

_FLOATS = {
    "stime",
    "etime",
    "duration_s",
    "wer",
    "response_latency",
    *TIME_COLUMNS,
    "mean_user_words_per_turn",
    "mean_system_words_per_turn",
    "word_error_rate",
    "parse_success_rate",
    "oracle_wer",
    "nbest_truth_share",
    "doubt",
    "time_spent_s",
    *CONCEPT_COLUMNS,
    "start",  # a word's, in words.csv: seconds from the start of its turn's audio file
    "end",
    "score",
}
_ALWAYS_WRITTEN = {
    "index",
    "n_operations",
    "n_messages",
    "n_events",
    "n_transcribed",
    "session_occurrence",
    "word_index",
}
_COUNTS = {
    "n_turns",
    "n_user_turns",
    "n_system_turns",
    "turns_to_completion",
    "error_messages",
    "help_messages",
    "user_words_to_completion",
    "system_words_to_completion",
    "system_reprompts",
    "turn_occurrence",
    "nbest_rank_of_truth",
    *_ALWAYS_WRITTEN,
}


def column_type(name: str) -> str:
    if name in _FLOATS:
        return FLOAT
    if name in _ALWAYS_WRITTEN:
        return INT
    if name in _COUNTS:
        return NULLABLE_INT
    return TEXT


SCHEMAS: dict[str, dict[str, str]] = {
    table: {name: column_type(name) for name in columns}
    for table, columns in (
        ("sessions", SESSION_COLUMNS),
        ("turns", TURN_COLUMNS),
        ("events", EVENT_COLUMNS),
        ("words", WORD_COLUMNS),
    )
}


def read_table(csv: bytes, table: str):
    """A table of the CSV export (the bytes of TABLE.csv) as a pandas DataFrame with the schema's types."""
    import pandas

    schema = SCHEMAS[table]
    return pandas.read_csv(
        io.BytesIO(csv), dtype=schema, keep_default_na=False, na_values={n: [""] for n in schema}, encoding="utf-8"
    )
