"""`annotator markers --config MARKERS PATH... -o extracted_markers.csv`: Rasa's `evaluate markers` for logs.

Writes the extracted markers (a row per event where a marker is reported)
and, unless --no-stats, PREFIX-per-session.csv and PREFIX-overall.csv, where
PREFIX (default "stats") is a path prefix like Rasa's: "stats" writes
./stats-overall.csv, "out/my-stats" writes out/my-stats-overall.csv.
Nothing is overwritten without --force; every check is made before any log
is read.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

from annotator.cli.force import add_force_argument, output_guard
from annotator.cli.jobs import add_jobs_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        required=True,
        metavar="MARKERS",
        help="marker definitions: a YAML file or a folder of them",
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="CSV",
        help="the extracted markers, e.g. extracted_markers.csv",
    )
    parser.add_argument("--no-stats", dest="stats", action="store_false", help="do not write the statistics files")
    parser.add_argument(
        "--stats-file-prefix",
        default="stats",
        metavar="P",
        help="write P-per-session.csv and P-overall.csv (default: stats)",
    )
    add_force_argument(parser, "overwrite existing output files, even an input (refused by default)")
    add_jobs_arguments(parser)


def stats_paths(prefix: str | Path) -> tuple[Path, Path]:
    from annotator.markers.stats import OVERALL_SUFFIX, PER_SESSION_SUFFIX

    prefix = Path(prefix)
    return prefix.parent / (prefix.name + PER_SESSION_SUFFIX), prefix.parent / (prefix.name + OVERALL_SUFFIX)


def run(args: argparse.Namespace) -> int:
    from annotator.cli.jobs import file_map
    from annotator.cli.progress import progress
    from annotator.corpus.parallel import first_results, raise_if_failed
    from annotator.corpus.paths import expand_log_paths
    from annotator.errors import AnnotatorError, WriteError
    from annotator.markers.extract import extracted_markers_csv, log_markers
    from annotator.markers.language import load_markers
    from annotator.markers.stats import MarkerStatistics
    from annotator.outputs.staging import write_together

    outputs = [args.output] + (list(stats_paths(args.stats_file_prefix)) if args.stats else [])
    if len({path.resolve() for path in outputs}) < len(outputs):
        raise WriteError(
            f"{', '.join(map(str, outputs))}: two of the outputs are the same file; "
            "choose another -o or --stats-file-prefix"
        )
    guard = output_guard(args, logs=args.paths, others=[args.config])
    for path in outputs:
        guard.check_file(path)
        if path.exists() and not args.force:
            raise WriteError(f"{path}: already exists; use --force to overwrite it")
        if not path.parent.is_dir():
            raise WriteError(f"{path}: the folder {path.parent} does not exist")
    markers = load_markers(args.config)
    paths = expand_log_paths(args.paths)
    if not paths:
        raise AnnotatorError(f"{', '.join(map(str, args.paths))}: no logs found, nothing written")
    failed: list[AnnotatorError] = []
    outcomes = file_map(args)(
        partial(log_markers, markers), paths, lambda items, total=None: progress(items, "markers", total)
    )
    results = [row for _, rows in first_results(outcomes, failed) for row in rows]
    raise_if_failed(failed)
    contents = {args.output: extracted_markers_csv(results).encode("utf-8")}
    if args.stats:
        statistics = MarkerStatistics.of(markers.names, results)
        per_session, overall = outputs[1:]
        contents[per_session] = statistics.per_session_csv().encode("utf-8")
        contents[overall] = statistics.overall_csv().encode("utf-8")
    write_together(contents, guard)  # all three files, or none
    hits = sum(len(rows) for result in results for rows in result.events.values())
    print(
        f"{len(markers)} marker(s) reported at {hits} event(s) in {len(results)} session(s) of "
        f"{len(paths)} log(s); wrote {', '.join(map(str, outputs))}",
        file=sys.stderr,
    )
    return 0
