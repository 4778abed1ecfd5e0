"""`annotator fold LOG [ANNOTATIONS...] -o OUT`: fold annotations into logs as GC_ANNOT.

LOG may be a folder, then OUT is a folder that mirrors it. With no annotation
file, the MITRE `*-human.xml` beside each `*-hublog.xml` is folded into that
log. A Praat TextGrid or ELAN file (annotator.export.tier_fold) lends its
transcription and concepts tiers to the session whose turns it shows. Annotation
rows naming sessions or turns the logs do not have, or naming an id several
sessions (turns) share without saying which, are an error and nothing is written. Folding a folder writes all the logs or none; nothing
replaces an input or an existing log without --force. A fold that writes over
its input log (--force, OUT the log itself or the folder itself) first keeps
the untouched log as NAME.orig.xml, as the window's Save does, unless that copy
exists already (annotator.writes.original_copy); in a folder, with the folded logs.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.cli.force import add_force_argument, output_guard

if TYPE_CHECKING:
    from annotator.outputs.staging import StagedFolder


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, metavar="LOG", help="a log file or a folder of logs")
    parser.add_argument(
        "annotations",
        nargs="*",
        type=Path,
        metavar="ANNOTATIONS",
        help="turns.csv / sessions.csv / annotations CSV / MITRE *-human.xml / a TextGrid or EAF "
        "of `annotator export --to textgrid|eaf` (its transcription and concepts tiers)",
    )
    parser.add_argument(
        "-o", "--output", type=Path, required=True, metavar="OUT", help="the folded log (a folder when LOG is a folder)"
    )
    add_force_argument(parser)


def run(args: argparse.Namespace) -> int:
    from annotator.annotation_files.annotation_set import AnnotationSet
    from annotator.annotation_files.fold import (
        default_annotation_file,
        fold_human_files_beside,
        fold_many,
    )
    from annotator.annotation_files.row_logs import RowForAnotherLogError
    from annotator.corpus.paths import expand_log_paths
    from annotator.errors import AnnotationFileError
    from annotator.export.tier_fold import TierFileReader
    from annotator.log.document import LogDocument
    from annotator.outputs.staging import StagedFolder

    folder_mode = args.log.is_dir()
    log_paths = expand_log_paths([args.log])
    given = list(args.annotations)
    beside = [found for path in log_paths if (found := default_annotation_file(path)) is not None]
    if not given and not beside:
        raise AnnotationFileError(f"{args.log}: no annotation file given and no *-human.xml beside the log")
    guard = output_guard(args, logs=[args.log], others=given or beside)
    if folder_mode:  # checked before any log is read (and again as the logs are moved into place)
        guard.check_folder(args.output)
    else:
        guard.check_file(args.output)
    docs = [LogDocument.load(path) for path in log_paths]
    if given:
        reader = TierFileReader(docs)
        annotations = AnnotationSet.merged([reader.read(path) for path in given])
        try:
            changes = fold_many(docs, annotations)
        except RowForAnotherLogError:
            raise  # it names its file and row
        except AnnotationFileError as error:
            raise AnnotationFileError(f"{', '.join(map(str, given))}: {error}") from None
    else:  # each log with its own *-human.xml: one log's sessions never take another's annotations
        changes, _ = fold_human_files_beside(docs)
    kept: list[Path] = []
    if folder_mode:
        with ExitStack() as held, StagedFolder(args.output, guard) as staged:  # all the folded logs, or none
            for doc in docs:
                relative = doc.path.relative_to(args.log)
                kept += _stage_original(staged, args.output, relative, doc.path)
                doc.save(staged.path(relative))
            # locked from the check to the moves into place only: a window's Save waits seconds, not the whole fold
            _hold_unchanged(held, [doc for doc in docs if _folded_in_place(args, doc)])
    else:
        docs[0].save(args.output, keep_original=True)
        kept += [docs[0].kept_original] if docs[0].kept_original is not None else []
    for doc in docs:
        for notice in doc.save_notices:
            print(f"annotator: note: {notice}", file=sys.stderr)
    for original in kept:
        print(f"annotator: note: the original is kept as {original.name} in {original.parent}", file=sys.stderr)
    print(f"folded {changes} annotation(s) into {len(docs)} log(s)", file=sys.stderr)
    return 0


def _folded_in_place(args: argparse.Namespace, doc) -> bool:
    """Whether the folder fold writes DOC's log over itself (OUT is LOG's folder, or holds it the same way)."""
    return _replaces(args.output / doc.path.relative_to(args.log), doc.path)


def _replaces(final: Path, log: Path) -> bool:
    """Whether the staged folder's entry FINAL is LOG: a link there is replaced, not the file it names, so
    only a regular file that is LOG is folded in place."""
    return not final.is_symlink() and os.path.realpath(final) == os.path.realpath(log)


def _hold_unchanged(held: ExitStack, docs: list) -> None:
    """Take the save lock of every folder of DOCS (in one order, so two folds never wait on each other),
    then refuse when one of them changed since it was read: under the locks, no save comes in between."""
    from annotator.errors import LogChangedOnDiskError
    from annotator.writes.save_lock import holding_save_lock, save_folder

    for folder in sorted({save_folder(doc.path): doc.path for doc in docs}.items()):
        held.enter_context(holding_save_lock(folder[1]))
    for doc in docs:
        if doc.changed_on_disk():
            raise LogChangedOnDiskError(doc.path, removed=not doc.path.exists())


def _stage_original(staged: StagedFolder, output: Path, relative: Path, log: Path) -> list[Path]:
    """When the fold replaces LOG itself, stage its NAME.orig.xml beside it (unless one exists)."""
    from annotator.writes.original_copy import original_to_keep

    final = output / relative
    if not _replaces(final, log):
        return []
    found = original_to_keep(final)
    if found is None:
        return []
    copy = relative.with_name(found[0].name)
    staged.write(copy, found[1])
    return [output / copy]
