"""Several logs saved over the files they were read from, all or nothing (`annotator replace` over a corpus).

Every log's folder is locked for saves first (annotator.writes.save_lock; in one order, so that two runs
over the same folders cannot wait on each other), then each log is checked as a save checks it (nobody
changed it since it was read, it may be written) and the first save's NAME.orig.xml is planned. Then the
copies of the originals and the logs are written together (annotator.writes.together): a write that fails,
however late, leaves every log and every NAME.orig.xml as it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

from annotator.errors import LogChangedOnDiskError
from annotator.log.document import LogDocument
from annotator.writes.atomic import refuse_unwritable
from annotator.writes.durable import Writer
from annotator.writes.original_copy import original_to_keep
from annotator.writes.save_lock import holding_save_lock, save_folder
from annotator.writes.together import write_together


def save_together(documents: Sequence[LogDocument]) -> None:
    """Save each of DOCUMENTS over its own file, the first save of each keeping NAME.orig.xml; all or nothing.

    Raises LogChangedOnDiskError or WriteError, and then no file has changed."""
    with ExitStack() as locks:
        folders = {save_folder(document.path): document.path for document in documents}
        for folder in sorted(folders):
            locks.enter_context(holding_save_lock(folders[folder]))
        contents: list[tuple[Path, bytes | Writer]] = []
        kept: list[Path | None] = []
        for document in documents:
            if document.changed_on_disk():
                raise LogChangedOnDiskError(document.path, removed=not document.path.exists())
            refuse_unwritable(document.path)
            to_keep = original_to_keep(document.path)
            if to_keep is not None:  # before its log: no log is rewritten without its original kept
                contents.append(to_keep)
            kept.append(None if to_keep is None else to_keep[0])
            contents.append((document.path, document.parsed.write_to))
        written = iter(write_together(contents))
        for document, original in zip(documents, kept, strict=True):
            if original is not None:
                next(written)
            document.kept_original = original
            document.saved_as(next(written), over_own_file=True)
