"""`annotator import --from convlab|dialbb SRC -o DIR`: one Communicator log per dialogue of SRC.

The logs hold the text turns (no audio), with synthesised times marked as such, so
text corpora can be browsed and annotated like recorded sessions. All are written or
none; a log already in DIR is not replaced without --force.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.force import add_force_argument, output_guard

SOURCES = ("convlab", "dialbb")  # kept here so that building the parser imports nothing heavy


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source_format",
        choices=SOURCES,
        required=True,
        help="convlab: a data.zip, a dataset folder or a dialogues JSON file; "
        "dialbb: a test scenario (or dialbb-test output)",
    )
    parser.add_argument("source", type=Path, metavar="SRC", help="what to import")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="DIR",
        help="folder for the logs (DIR/NAME-hublog.xml, one per dialogue)",
    )
    add_force_argument(parser, "replace logs already in DIR (refused by default: they may have been annotated since)")


def run(args: argparse.Namespace) -> int:
    from annotator.cli.main import one_line
    from annotator.cli.progress import progress
    from annotator.errors import WriteError
    from annotator.imports import IMPORT_FORMATS

    guard = output_guard(args, others=[args.source])
    guard.check_folder(args.output)  # a device, FIFO or socket says what it is, whatever --force says
    if args.output.exists() and not args.output.is_dir():
        raise WriteError(f"{args.output}: the logs are written into a folder, and this is a file")
    report = IMPORT_FORMATS[args.source_format].run(
        args.source, args.output, progress=lambda items, total=None: progress(items, "importing", total), guard=guard
    )
    for warning in report.warnings:
        print(f"annotator: warning: {one_line(warning)}", file=sys.stderr)
    print(report, file=sys.stderr)
    return 0
