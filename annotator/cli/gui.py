"""`annotator gui [PATH]`: open the desktop application on a log, a folder of logs, or the sample session."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "path", metavar="PATH", nargs="?", help="a log file or a folder of logs (default: the bundled sample session)"
    )
    parser.add_argument(
        "--annotator",
        metavar="NAME",
        help="who annotates, for this run (default: the setting, else the login name); "
        "in team mode the work is saved to LOG-human-NAME.xml (docs/team.md)",
    )


def run(args: argparse.Namespace) -> int:
    from annotator.team.names import check_annotator_name

    if args.annotator is not None:
        check_annotator_name(args.annotator, "--annotator")
    try:
        from annotator.gui.app import run_app  # Qt loads only when the window is wanted
    except ImportError as error:  # Qt's system libraries are missing (docs/install.md, "System requirements")
        print(
            f"annotator: the window cannot start: {error}; the command line works without it "
            "(see docs/install.md, System requirements)",
            file=sys.stderr,
        )
        return 2
    return run_app(args.path, args.annotator)
