"""`annotator extract LOG -o FILE`: the annotations of logs as CSV (.csv) or MITRE XML (.xml)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.force import add_force_argument, output_guard


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("logs", nargs="+", type=Path, metavar="LOG", help="annotated log files or folders")
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="FILE",
                        help="FILE.csv (annotations CSV) or FILE.xml (MITRE human-annotation file)")
    add_force_argument(parser)


def run(args: argparse.Namespace) -> int:
    from annotator.annotation_files.fold import extract_all, write_annotations
    from annotator.corpus.paths import expand_log_paths
    from annotator.errors import AnnotatorError
    from annotator.log.document import LogDocument

    if args.output.suffix.lower() not in (".csv", ".xml"):
        raise AnnotatorError(f"{args.output}: the output must end in .csv or .xml")
    output_guard(args, logs=args.logs).check_file(args.output)
    docs = [LogDocument.load(path) for path in expand_log_paths(args.logs)]
    annotations = extract_all(docs)  # sessions sharing an id stay apart, numbered by occurrence
    write_annotations(args.output, annotations, docs)
    print(f"extracted {len(annotations.transcriptions)} transcription(s) and "
          f"{len(annotations.task_completion)} task completion value(s)", file=sys.stderr)
    return 0
