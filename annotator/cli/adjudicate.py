"""`annotator adjudicate LOG [NAME=PATH...] (--prefer NAME | --majority) -o OUT`: one truth out of several
annotators' work, folded into LOG's content as GC_ANNOT (docs/agreement.md, "Adjudication")."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.force import add_force_argument, output_guard

EPILOG = (
    "Turns and sessions the rule cannot decide are listed on stdout, one line each, and left as LOG has "
    "them; the exit status is 0 even when some are left. The decisions are recorded in "
    "OUT-STEM.adjudication.csv beside OUT."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.add_argument("log", type=Path, metavar="LOG", help="the log to adjudicate (one file)")
    parser.add_argument(
        "works",
        nargs="*",
        metavar="NAME=PATH",
        help="one annotator's work, as for `annotator agree`; none: the per-annotator "
        "X-human-NAME.xml files beside LOG (team mode)",
    )
    rule = parser.add_mutually_exclusive_group(required=True)
    rule.add_argument("--prefer", metavar="NAME", help="where annotators disagree, take NAME's value")
    rule.add_argument(
        "--majority", action="store_true", help="where annotators disagree, take the value more than half of them gave"
    )
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="OUT", help="the adjudicated log")
    parser.add_argument("--adjudicator", metavar="NAME", help="who adjudicates (default: the login name)")
    add_force_argument(parser)


def run(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from annotator.agreement.adjudication import adjudicate, describe
    from annotator.agreement.adjudication_record import save_with_record, sidecar_path
    from annotator.agreement.sources import gather, parse_specs, read_file_work
    from annotator.annotation_files.fold import fold
    from annotator.annotation_files.row_logs import check_rows_name_their_logs
    from annotator.errors import AnnotatorError
    from annotator.log.document import LogDocument
    from annotator.team.names import login_name

    if not args.log.is_file():
        raise AnnotatorError(f"{args.log}: not a log file (adjudicate takes one log)")
    specs = parse_specs(args.works or [str(args.log)])
    inputs = [file for spec in specs for file in spec.files]
    if not args.works and args.log in inputs:
        raise AnnotatorError(
            f"{args.log}: no per-annotator human files (X-human-NAME.xml) beside this log; "
            "give the annotators' work as NAME=PATH"
        )
    record = sidecar_path(args.output)
    guard = output_guard(args, logs=[args.log], others=inputs)
    guard.check_file(args.output)
    guard.check_file(record)
    works = gather(specs, lambda files: [read_file_work(file) for file in files])
    names = [work.name for work in works]
    if len(works) < 2:
        raise AnnotatorError(
            f"adjudication needs the work of at least two annotators; found {', '.join(names) or 'none'}"
        )
    if args.prefer is not None and args.prefer not in names:
        raise AnnotatorError(f"--prefer {args.prefer}: not one of the annotators ({', '.join(names)})")
    doc = LogDocument.load(args.log)
    for work in works:  # a row written for another log never takes part (annotator.annotation_files.row_logs)
        check_rows_name_their_logs(work.annotations, [doc])
    result = adjudicate(works, args.prefer, doc.sessions)
    changes = fold(doc, result.chosen)
    when = datetime.now(UTC)
    save_with_record(
        record,
        result.decisions,
        args.adjudicator or login_name(),
        when,
        lambda: bool(doc.save(args.output, keep_original=True)),
    )
    for decision in result.left:
        print(describe(decision))
    decided = len(result.decisions) - len(result.left)
    print(f"{decided} value(s) decided ({changes} changed in the log), {len(result.left)} left for a person")
    sys.stdout.flush()
    for notice in doc.save_notices:
        print(f"annotator: note: {notice}", file=sys.stderr)
    if doc.kept_original is not None:
        print(
            f"annotator: note: the original is kept as {doc.kept_original.name} in {doc.kept_original.parent}",
            file=sys.stderr,
        )
    return 0
