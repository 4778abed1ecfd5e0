"""What `annotator replace` checks in every log before it writes the first one, so that a replacement over
many logs is all or nothing (and its dry run refuses what the real run would):

- each replacement is storable: XML cannot hold a control character the replacement brings in;
- each log can be rewritten: a regular file this user may write, in a folder it may write in;
- its untouched copy can be kept: NAME.orig.xml is absent (the save makes it) or a regular file
  (a FIFO, a folder or a device there would leave the log rewritten with no copy of its original);
- a log found inside a folder given, through a link that leads out of that folder, is written only
  with --force: the change would land in a file the folder does not hold.

Every refusal is a ReplaceRefusedError naming the file (and the session and turn where there is one).
"""

from __future__ import annotations

import os
from pathlib import Path

from annotator.errors import AnnotatorError
from annotator.log.text import first_not_xml
from annotator.writes.atomic import refuse_unwritable, write_target
from annotator.writes.original_copy import check_original_keepable


class ReplaceRefusedError(AnnotatorError):
    """A log the replacement cannot be written to, or a replacement it cannot store; nothing was written."""


def check_storable(changes: list) -> None:
    """Refuse the first planned change (annotator.analysis.replace.PlannedChange) whose text XML cannot store."""
    for change in changes:
        bad = first_not_xml(change.after) if change.after is not None else None
        if bad is not None:
            raise ReplaceRefusedError(
                f"{change.file}: session {change.session_id}, turn {change.turn_id}: the "
                f"replacement leaves the control character U+{ord(bad):04X}, which XML cannot "
                "store; nothing written"
            )


def check_rewritable(log: Path) -> None:
    """Refuse LOG when it cannot be rewritten in place with its original kept (see module)."""
    target = write_target(log)
    try:
        refuse_unwritable(log, target=target)
    except AnnotatorError as error:
        raise ReplaceRefusedError(f"{error}; nothing written") from None
    folder = target.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ReplaceRefusedError(f"{log}: its folder {folder} is not writable by this user; nothing written")
    try:
        check_original_keepable(log)
    except AnnotatorError as error:
        raise ReplaceRefusedError(str(error)) from None


def check_inside(log: Path, given: list[Path]) -> None:
    """Refuse LOG, found below a folder of GIVEN, when its real file lies outside that folder (a link)."""
    real = Path(os.path.realpath(log))
    for folder in given:
        if not folder.is_dir() or not _below(log, folder):
            continue
        home = Path(os.path.realpath(folder))
        if not real.is_relative_to(home):
            raise ReplaceRefusedError(
                f"{log}: a link to {real}, outside {folder}; nothing written "
                "(use --force to write through links that leave the folders given)"
            )


def _below(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True
