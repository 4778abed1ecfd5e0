"""`annotator extract LOG -o FILE`: the annotations of logs as CSV (.csv) or MITRE XML (.xml)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.force import add_force_argument, output_guard
from annotator.cli.jobs import add_jobs_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", type=Path, metavar="LOG", help="annotated log files or folders")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="FILE",
        help="FILE.csv (annotations CSV) or FILE.xml (MITRE human-annotation file)",
    )
    add_force_argument(parser)
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from annotator.annotation_files.fold import extract_all, extracted_log, write_annotations
    from annotator.cli.jobs import file_map
    from annotator.cli.progress import progress
    from annotator.corpus.parallel import first_results, raise_if_failed
    from annotator.corpus.paths import expand_log_paths
    from annotator.errors import AnnotatorError

    if args.output.suffix.lower() not in (".csv", ".xml"):
        raise AnnotatorError(f"{args.output}: the output must end in .csv or .xml")
    output_guard(args, logs=args.logs).check_file(args.output)
    failed: list[AnnotatorError] = []
    outcomes = file_map(args)(
        extracted_log, expand_log_paths(args.logs), lambda items, total=None: progress(items, "extracting", total)
    )
    logs = [log for _, log in first_results(outcomes, failed)]
    raise_if_failed(failed)
    annotations = extract_all(logs)  # sessions sharing an id stay apart, numbered by occurrence
    write_annotations(args.output, annotations, logs)
    frames = f", {len(annotations.concepts)} concept frame(s)" if annotations.concepts else ""
    print(
        f"extracted {len(annotations.transcriptions)} transcription(s){frames} and "
        f"{len(annotations.task_completion)} task completion value(s)",
        file=sys.stderr,
    )
    return 0
