"""The adjudication's sidecar, `<OUT-stem>.adjudication.csv` beside the adjudicated log: one row per
field decided or left, saying who gave what, what was taken and why, by whom and when
(docs/agreement.md, "Adjudication"), so an adjudication can be audited and redone."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from annotator.agreement.adjudication import Decision, value_text
from annotator.agreement.csv_files import write_csv
from annotator.agreement.tables import Table
from annotator.writes.atomic import write_atomic

COLUMNS = ("session_id", "turn_id", "field", "value", "source", "annotators", "adjudicator", "time")
SUFFIX = ".adjudication.csv"


def sidecar_path(output: Path) -> Path:
    return output.with_name(output.stem + SUFFIX)


def record_rows(decisions: list[Decision], adjudicator: str, when: datetime) -> list[tuple[str, ...]]:
    time = when.astimezone(UTC).isoformat(timespec="seconds")
    return [
        (
            str(decision.session),
            decision.turn_id,
            decision.field,
            "" if decision.value is None else value_text(decision.value),
            decision.source,
            "; ".join(f"{name}={value_text(value)}" for name, value in decision.given),
            adjudicator,
            time,
        )
        for decision in decisions
    ]


def write_record(path: Path, decisions: list[Decision], adjudicator: str, when: datetime) -> None:
    """Write the sidecar atomically (cells neutralised against spreadsheet formulas, as agree's CSVs)."""
    table = Table(path.stem, "adjudication", COLUMNS, record_rows(decisions, adjudicator, when))
    write_atomic(path, lambda stream: write_csv(stream, table))


def save_with_record(
    path: Path, decisions: list[Decision], adjudicator: str, when: datetime, save_log: Callable[[], bool]
) -> bool:
    """Write the sidecar at PATH, then the adjudicated log through SAVE_LOG (False, or an exception: not
    written), so that neither is left without the other: the sidecar goes first because it is the
    smaller write and the more likely to be refused, and should the log then not be written the sidecar
    is put back as it was (removed, or its earlier content restored)."""
    before = path.read_bytes() if path.is_file() else None
    write_record(path, decisions, adjudicator, when)
    saved = False
    try:
        saved = save_log()
    finally:
        if not saved:
            if before is None:
                path.unlink(missing_ok=True)
            else:
                write_atomic(path, before)
    return saved
