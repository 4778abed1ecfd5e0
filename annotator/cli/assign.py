"""`annotator assign CORPUS --annotators a,b,c --overlap 0.2 --seed S [-o FILE]`: who annotates which session."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.force import add_force_argument, output_guard


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("corpus", type=Path, metavar="CORPUS", help="the folder of logs to share out")
    parser.add_argument("--annotators", required=True, metavar="A,B,...", help="the annotators' names, comma-separated")
    parser.add_argument(
        "--overlap",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="the share of sessions given to two annotators, 0 to 1 (default 0; halves round up)",
    )
    parser.add_argument("--seed", required=True, metavar="S", help="any text: the same seed gives the same assignment")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        metavar="FILE",
        help="the CSV to write (default CORPUS/annotator-assignment.csv, where the browser's "
        "'mine' looks); rows it already holds are kept, new sessions added to them",
    )
    parser.add_argument("--fresh", action="store_true", help="ignore the rows FILE holds: assign every session anew")
    add_force_argument(parser)


def run(args: argparse.Namespace) -> int:
    from collections import Counter

    from annotator.errors import AnnotatorError
    from annotator.team.assign import ASSIGNMENT_FILE, assign, read_assignment, write_assignment
    from annotator.team.mode import MARKER_NAME, in_team_mode

    if not args.corpus.is_dir():
        raise AnnotatorError(f"{args.corpus}: not a folder of logs")
    output = args.output if args.output is not None else args.corpus / ASSIGNMENT_FILE
    output_guard(args, logs=[args.corpus]).check_file(output, belongs_inside=True)  # never over a log or a human file
    earlier = read_assignment(output) if output.exists() and not args.fresh else []
    sessions = corpus_sessions(args.corpus)
    if not sessions:
        raise AnnotatorError(f"{args.corpus}: no sessions to assign (no readable log holds a session with an id)")
    names = [name.strip() for name in args.annotators.split(",")]
    rows = assign(sessions, names, args.overlap, args.seed, earlier)
    write_assignment(output, rows)
    load = Counter(name for row in rows for name in row.annotators)
    present = set(sessions)
    still = sum(row.session in present for row in earlier)  # rows of sessions gone from the corpus are dropped
    dropped = f", {len(earlier) - still} dropped (their sessions are gone)" if len(earlier) > still else ""
    kept = f", {still} row(s) of the earlier assignment kept{dropped}" if earlier else ""
    print(
        f"assigned {len(rows)} session(s), {sum(row.double for row in rows)} of them to two annotators"
        f"{kept}: {', '.join(f'{name} {count}' for name, count in sorted(load.items()))}; wrote {output}",
        file=sys.stderr,
    )
    if not in_team_mode(args.corpus):
        print(
            f"note: {args.corpus} is not in team mode yet: annotators' saves go into the logs until it is "
            f"(File > Team mode for this corpus, or create {args.corpus / MARKER_NAME}; docs/team.md)",
            file=sys.stderr,
        )
    return 0


def corpus_sessions(corpus: Path) -> list:
    """The SessionKey of every session of every log below CORPUS, in file and session order."""
    from annotator.corpus.paths import expand_log_paths
    from annotator.log.document import LogDocument
    from annotator.log.turn_ids import strip_id
    from annotator.team.assign import SessionKey

    keys = []
    for path in expand_log_paths([corpus]):
        log = path.relative_to(corpus).as_posix()
        seen: dict[str, int] = {}
        for session in LogDocument.load(path).sessions:
            session_id = strip_id(session.id)
            if session_id:
                seen[session_id] = seen.get(session_id, 0) + 1
                keys.append(SessionKey(log, session_id, seen[session_id]))
    return keys
