"""Agreement between annotators: whose work is which (sources), what they agree on (figures), and the
report of it (CSV files and one self-contained HTML page). Qt-free; `annotator agree` runs it."""
