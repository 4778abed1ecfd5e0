"""Rows carry their log: a row of an annotations CSV whose `file` column names a log is folded only into
that log. Sessions are found by id, and two logs may hold sessions of the same id (copies, re-recordings),
so without this a row written for one log would be folded into another that has its session id.

A row names a log by the file name its `file` cell ends in: the export writes the log's path relative to
the corpus, `extract` relative to the CSV, so the folders differ from run to run while the name stays. An
empty cell names nothing and the row goes wherever its session id leads. A row whose cell names a log
other than every one holding its session is refused, one line naming the file and the row, and nothing
is folded; a session that no log holds is left for folding to report.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from annotator.annotation_files.annotation_set import AnnotationSet
from annotator.errors import AnnotationFileError
from annotator.file_name_text import name_from_text
from annotator.log.turn_ids import strip_id


class RowForAnotherLogError(AnnotationFileError):
    """A row whose file column names another log than the one holding its session (names file and row)."""


def check_rows_name_their_logs(annotations: AnnotationSet, docs: Iterable) -> None:
    """AnnotationFileError for the first row whose file column names none of the DOCS holding its session."""
    if not annotations.named_logs:
        return
    holders: dict[str, list[Path]] = {}
    for doc in docs:
        for session in doc.sessions:
            found = holders.setdefault(strip_id(session.id), [])
            if not found or found[-1] != doc.path:
                found.append(doc.path)
    for session_id, named, where in annotations.named_logs:
        logs = holders.get(session_id, [])
        if logs and not any(_names(named, log) for log in logs):
            raise RowForAnotherLogError(
                f"{where}: the file column names {named}, not {_listed(logs)}, which holds "
                f"session {session_id}: rows written for another log are never folded "
                "(empty the file cells to fold them anyway); nothing written"
            )


def _names(cell: str, log: Path) -> bool:
    """Whether the file name CELL ends in (written as annotator.file_name_text writes names) is LOG's
    (as given, or of the file its links lead to)."""
    name = PurePosixPath(name_from_text(cell).replace("\\", "/")).name
    return name in (log.name, Path(os.path.realpath(log)).name)


def _listed(logs: list[Path]) -> str:
    return str(logs[0]) if len(logs) == 1 else f"{', '.join(map(str, logs[:-1]))} or {logs[-1]}"
