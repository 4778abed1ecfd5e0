"""`annotator export PATH... --to FORMAT -o OUT`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

FORMATS = ("csv",)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    parser.add_argument("--to", choices=FORMATS, default="csv", help="output format (default: csv)")
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="OUT", help="output folder")


def run(args: argparse.Namespace) -> int:
    from annotator.cli.progress import progress
    from annotator.export.csv_export import export_csv

    summary = export_csv(list(args.paths), args.output, progress=lambda items, total=None: progress(items, "exporting", total))
    print(summary, file=sys.stderr)
    return 0
