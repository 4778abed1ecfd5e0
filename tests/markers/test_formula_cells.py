"""The markers tables neutralise formula cells like every CSV the tool writes.

A log named `=HYPERLINK(...).xml` and a marker named `@SUM(A1)` reached the extracted-markers
table and both statistics tables as cells a spreadsheet runs; now they start with an
apostrophe, which annotator.annotation_files.spreadsheet_cells.unneutralise_cell removes again.
"""

from __future__ import annotations

import csv
import io
import shutil
from pathlib import Path

from annotator.annotation_files.spreadsheet_cells import unneutralise_cell
from annotator.cli.main import main
from tests.support.repository import SAMPLE_LOGS

LOG_NAME = '=HYPERLINK("evil.example";"y")'
MARKER = "@SUM(A1)"


def test_log_and_marker_names_are_neutralised_in_every_table(tmp_path: Path, capsys):
    log = tmp_path / f"{LOG_NAME}.xml"
    shutil.copyfile(SAMPLE_LOGS / "travel-20261121-003" / "travel-20261121-003-hublog.xml", log)
    config = tmp_path / "m.yml"
    config.write_text(f'"{MARKER}":\n  intent: help\n-plain:\n  not_intent: help\n', encoding="utf-8")
    status = main(
        [
            "markers",
            "--config",
            str(config),
            str(log),
            "-o",
            str(tmp_path / "markers.csv"),
            "--stats-file-prefix",
            str(tmp_path / "stats"),
        ]
    )
    assert status == 0, capsys.readouterr().err
    tables = {
        name: list(csv.DictReader(io.StringIO((tmp_path / name).read_text(encoding="utf-8"))))
        for name in ("markers.csv", "stats-per-session.csv", "stats-overall.csv")
    }
    extracted = tables["markers.csv"]
    assert {row["sender_id"] for row in extracted} == {"'" + LOG_NAME}
    assert {row["marker"] for row in extracted} == {"'" + MARKER, "'-plain"}
    assert {row["sender_id"] for row in tables["stats-per-session.csv"]} == {"'" + LOG_NAME}
    for rows in tables.values():
        markers = {row["marker"] for row in rows} - {"-"}  # Rasa's own "-" of the session count stays
        assert markers == {"'" + MARKER, "'-plain"}
        assert all(not cell.startswith(("=", "+", "@", "-")) or cell == "-" for row in rows for cell in row.values())
    assert {unneutralise_cell(row["marker"]) for row in extracted} == {MARKER, "-plain"}
    assert {row["sender_id"] for row in tables["stats-overall.csv"]} == {"all"}
