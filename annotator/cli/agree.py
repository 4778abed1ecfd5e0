"""`annotator agree PATH... [-o report.html] [--csv DIR]`: agreement between annotators (docs/agreement.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.counts import count_of
from annotator.cli.force import add_force_argument, output_guard
from annotator.cli.jobs import add_jobs_arguments

DEFAULT_TOP = 20


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "works",
        nargs="+",
        metavar="[NAME=]PATH",
        help="one annotator's work: a human-annotation file, an annotations CSV, an annotated log or "
        "a folder of them; or a corpus whose logs have per-annotator X-human-NAME.xml beside them",
    )
    parser.add_argument("-o", "--output", type=Path, metavar="REPORT.html", help="write the HTML report here")
    parser.add_argument("--csv", type=Path, metavar="DIR", help="write the figures as CSV files into DIR")
    parser.add_argument(
        "--top",
        type=count_of("turns"),
        default=DEFAULT_TOP,
        metavar="N",
        help=f"list the N most disagreeing turns (default {DEFAULT_TOP})",
    )
    add_force_argument(parser)
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from annotator.agreement.csv_files import write_csv_files
    from annotator.agreement.figures import agreement
    from annotator.agreement.report import report_html
    from annotator.agreement.sources import argument_paths, gather, parse_specs, read_file_work
    from annotator.agreement.tables import all_tables, pairs_table
    from annotator.cli.jobs import file_map
    from annotator.cli.progress import progress
    from annotator.corpus.parallel import first_results, raise_if_failed
    from annotator.errors import AnnotatorError
    from annotator.writes.atomic import write_atomic

    if args.output is not None and args.output.suffix.lower() not in (".html", ".htm"):
        raise AnnotatorError(f"{args.output}: the report must end in .html")
    specs = parse_specs(args.works)
    inputs = [file for spec in specs for file in spec.files]
    guard = output_guard(args, others=[*inputs, *argument_paths(args.works)])  # the folders given are inputs too
    if args.output is not None:
        guard.check_file(args.output)
    if args.csv is not None:
        guard.check_folder(args.csv)

    def read_files(files: list[Path]):
        failed: list[AnnotatorError] = []
        outcomes = file_map(args)(read_file_work, files, lambda items, total=None: progress(items, "reading", total))
        # Each work under the path as given: a Dask worker was sent its absolute path.
        works = [replace(work, path=path) for path, work in first_results(outcomes, failed)]
        raise_if_failed(failed)
        return works

    works = gather(specs, read_files)
    if len(works) < 2:
        named = ", ".join(f"{work.name} ({len(work.paths)} file(s))" for work in works)
        raise AnnotatorError(f"agreement needs the work of at least two annotators; found {len(works)}: {named}")
    _refuse_without_common_sessions(works)
    figures = agreement(works)
    if args.output is not None:
        html = report_html(figures, args.top, {work.name: [str(path) for path in work.paths] for work in works})
        write_atomic(args.output, html.encode("utf-8"))
    if args.csv is not None:
        write_csv_files(args.csv, all_tables(figures, args.top), guard)
    _print_pairs(pairs_table(figures))
    return 0


def _refuse_without_common_sessions(works) -> None:
    """Agreement is measured on the sessions two annotators share: with none shared, every figure would
    be over 0 turns, which says nothing; one line naming the works instead."""
    from itertools import combinations

    from annotator.errors import AnnotatorError

    sessions = [{ref.id for ref in work.annotations.session_refs} for work in works]
    if not any(first & second for first, second in combinations(sessions, 2)):
        named = ", ".join(
            f"{work.name} ({', '.join(map(str, work.paths[:2]))}{', ...' if len(work.paths) > 2 else ''})"
            for work in works
        )
        raise AnnotatorError(f"no two annotators share a session, so there is nothing to compare: {named}")


def _print_pairs(table) -> None:
    """The pairs table on stdout, tab-separated: the figures at a glance."""
    for row in [table.columns, *table.rows]:
        print("\t".join(row))
    sys.stdout.flush()
