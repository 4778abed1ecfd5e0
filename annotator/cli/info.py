"""`annotator info PATH...`: a human summary of each session."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")


def run(args: argparse.Namespace) -> int:
    from annotator.analysis.summary import describe_document
    from annotator.corpus.paths import expand_log_paths
    from annotator.log.document import LogDocument

    paths = expand_log_paths(args.paths)
    for number, path in enumerate(paths):
        if number:
            print()
        print(describe_document(LogDocument.load(path)))
    return 0
