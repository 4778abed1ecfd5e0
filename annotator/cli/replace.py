"""`annotator replace PATH... --find X --replace Y`: replace text in the transcriptions of logs.

Every change is printed (file, session, turn: before -> after) and a summary goes to stderr;
--dry-run prints them and writes nothing. All logs are read and planned before any is written,
so a log that cannot be read (or a bad regular expression) is one line, exit 2, and nothing
changes. Each changed log is then saved in place atomically, as the window's Save does: the
first write keeps the untouched log as NAME.orig.xml. A log in team mode is refused: there,
annotations go to each annotator's own file and never into the log (docs/team.md), so the
replacement belongs in the window, where it is one undoable step saved to that file.
Before the first write every log is checked (annotator.analysis.replace_checks): a log that could
not be written, a NAME.orig.xml that is not a regular file, a replacement XML cannot store, a link
leading out of a folder given (without --force) refuse the whole run, dry run included. The logs are
then saved together: a write that fails even so (a full disk, a file too large, another program's change
meanwhile) leaves every log and every NAME.orig.xml as it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.force import add_force_argument


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="a log file or a folder of logs")
    parser.add_argument("--find", required=True, metavar="TEXT", help="the text (or with --regex, the pattern)")
    parser.add_argument(
        "--replace",
        required=True,
        metavar="TEXT",
        help="what replaces it (with --regex, \\1 or \\g<name> name a group)",
    )
    parser.add_argument("--regex", action="store_true", help="--find is a Python regular expression")
    parser.add_argument("--case-sensitive", action="store_true", help="match case (ignored by default)")
    parser.add_argument("--dry-run", action="store_true", help="print the changes and write nothing")
    add_force_argument(parser, "write through links inside a folder given that lead out of it (refused by default)")


def run(args: argparse.Namespace) -> int:
    from annotator.analysis.replace import plan_replacements
    from annotator.analysis.replace_checks import check_inside, check_rewritable, check_storable
    from annotator.analysis.search import Query, SearchError
    from annotator.corpus.paths import expand_log_paths
    from annotator.log.document import LogDocument
    from annotator.team.mode import team_marker

    query = Query(args.find, regex=args.regex, case_sensitive=args.case_sensitive)
    query.pattern()  # a bad pattern is refused before any log is read
    plans = []
    for path in expand_log_paths(args.paths):
        marker = team_marker(path)
        if marker is not None:
            raise SearchError(
                f"{path}: in team mode ({marker}): annotations go to each annotator's own file, "
                "never into the log; replace in the window instead"
            )
        if not args.force:
            check_inside(path, args.paths)
        changes = plan_replacements(LogDocument.load(path), query, args.replace)
        if changes:  # every log is checked before the first is written: all or nothing, the dry run alike
            check_storable(changes)
            check_rewritable(path)
            plans.append((path, changes))
        for change in changes:
            print(change.describe())
    count = sum(len(changes) for _, changes in plans)
    if args.dry_run:
        print(
            f"would replace {count} transcription(s) in {len(plans)} log(s) (dry run: nothing written)", file=sys.stderr
        )
        return 0
    sys.stdout.flush()  # the changes are out before any log changes: a list that cannot be printed writes nothing
    written = _write(plans)
    print(f"replaced {count} transcription(s) in {len(written)} log(s)", file=sys.stderr)
    return 0


def _write(plans: list) -> list[Path]:
    """Apply each log's changes and save them all together: a write that fails, however late, leaves every
    log as it was (annotator.log.save_together)."""
    from annotator.analysis.replace import apply_changes
    from annotator.log.document import LogDocument
    from annotator.log.save_together import save_together

    documents = []
    for path, changes in plans:
        document = LogDocument.load(path)
        apply_changes(document, changes)
        documents.append(document)
    save_together(documents)
    for document in documents:
        for notice in document.save_notices:
            print(f"annotator: note: {notice}", file=sys.stderr)
        if document.kept_original is not None:
            original = document.kept_original
            print(f"annotator: note: the original is kept as {original.name} in {original.parent}", file=sys.stderr)
    return [document.path for document in documents]
