"""--jobs and --scheduler, the same for every corpus-wide command, and how a bad file is reported.

--jobs N runs the per-file work in N processes (default: every core this process may use;
1: one after the other, in this process; more than the cores: as many as the cores, with a note). --scheduler ADDRESS sends it to the workers of a
dask.distributed scheduler instead (default: $DASK_SCHEDULER_ADDRESS when --jobs is not given).
The two exclude each other: a command runs on this machine or on the cluster. Either way the
output is the same bytes as a serial run.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from annotator.corpus.parallel import FileMap
    from annotator.errors import AnnotatorError

JOBS_HELP = "process the files in N processes (default: every core; 1: one after the other)"
SCHEDULER_HELP = (
    "run the per-file work on the dask.distributed scheduler at ADDRESS, e.g. tcp://host:8786 "
    "(default: $DASK_SCHEDULER_ADDRESS unless --jobs is given); the workers must see the same paths"
)


def add_jobs_arguments(parser: argparse.ArgumentParser) -> None:
    where = parser.add_mutually_exclusive_group()
    where.add_argument("-j", "--jobs", type=_positive, metavar="N", help=JOBS_HELP)
    where.add_argument("--scheduler", metavar="ADDRESS", help=SCHEDULER_HELP)


def file_map(args: argparse.Namespace) -> FileMap:
    """The FileMap the command line asks for (annotator.corpus.parallel.file_map_for)."""
    from annotator.corpus.parallel import file_map_for, scheduler_from_environment

    scheduler = args.scheduler
    if scheduler is None and args.jobs is None:
        scheduler = scheduler_from_environment()
    return file_map_for(capped_jobs(args.jobs), scheduler)


def capped_jobs(jobs: int | None) -> int | None:
    """JOBS, at most the cores this process may use: more processes than cores only compete for them
    (and each holds a log in memory). A larger value is accepted, with a note on stderr."""
    from annotator.corpus.parallel import available_cores

    cores = available_cores()
    if jobs is None or jobs <= cores:
        return jobs
    print(
        f"annotator: note: --jobs {jobs} is more than the {cores} core(s) available; running {cores} process(es)",
        file=sys.stderr,
    )
    return cores


class BadFiles:
    """The files of a corpus that could not be read: each is one line on stderr as it is met; at the
    end a line names them all when there are several, and the exit status is 2."""

    def __init__(self) -> None:
        self.errors: list[AnnotatorError] = []

    def report(self, error: AnnotatorError) -> None:
        from annotator.cli.main import one_line

        self.errors.append(error)
        print(f"annotator: {one_line(str(error))}", file=sys.stderr)

    def finish(self) -> int:
        from annotator.cli.main import one_line
        from annotator.corpus.parallel import summary_line

        summary = summary_line(self.errors)
        if summary:
            print(f"annotator: {one_line(summary)}", file=sys.stderr)
        return 2 if self.errors else 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of processes from 1")
    return value
