"""`annotator info PATH...`: a human summary of each session.

A log that cannot be read is one line on stderr; the others are summarised, and the exit status is 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from annotator.cli.jobs import add_jobs_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from annotator.cli.jobs import BadFiles, file_map
    from annotator.cli.progress import progress
    from annotator.cli.search import note
    from annotator.corpus.paths import expand_log_paths
    from annotator.corpus_index.corpus import open_index
    from annotator.corpus_index.memos import Memo, memoised_map
    from annotator.errors import AnnotatorError

    paths = expand_log_paths(args.paths)
    bad = BadFiles()
    shown = 0
    store = open_index(args.paths, note)  # each unchanged log's summary is the one kept there
    outcomes = memoised_map(
        store,
        Memo("info", ""),
        described,
        paths,
        file_map=file_map(args),
        progress=lambda items, total=None: progress(items, "info", total),
    )
    for _, outcome in outcomes:
        if isinstance(outcome, AnnotatorError):
            bad.report(outcome)
            continue
        if shown:
            print()
        print(outcome)
        shown += 1
    return bad.finish()


def described(path: Path) -> str:
    """annotator.analysis.summary.describe_log, imported only when a log has to be read (a second run over
    an unchanged corpus reads none): picklable per-file work, as the FileMaps need."""
    from annotator.analysis.summary import describe_log

    return describe_log(path)
