"""`annotator-gui [PATH]`: the desktop app's own launcher.

pyproject.toml declares it as a gui-script, so on Windows it starts without a
console window; `annotator [gui] [PATH]` (the console script) opens the same
window. A problem the user can cause is one line on stderr, as in the CLI.
"""

from __future__ import annotations

import argparse

from annotator import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="annotator-gui", description="Open the Communicator annotator's window.")
    parser.add_argument("path", metavar="PATH", nargs="?",
                        help="a log file or a folder of logs (default: the bundled sample session)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    from annotator.cli.main import run_reporting_errors
    from annotator.gui.app import run_app  # Qt loads only once the arguments are fine

    return run_reporting_errors(lambda parsed: run_app(parsed.path), args)
