"""--force, the same for every command that writes; annotator.outputs.guard says what it lets through."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path

FORCE_HELP = "write even over an input, an existing log or an existing human-annotation file (refused by default)"


def add_force_argument(parser: argparse.ArgumentParser, help_text: str = FORCE_HELP) -> None:
    parser.add_argument("--force", action="store_true", help=help_text)


def output_guard(args: argparse.Namespace, logs: Iterable[Path] = (), others: Iterable[Path] = ()):
    """The OutputGuard of a command: its inputs, and whether --force was given."""
    from annotator.outputs.guard import OutputGuard

    return OutputGuard(logs=logs, others=others, force=args.force)
