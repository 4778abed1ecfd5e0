"""The `annotator` command: sub-commands are small modules imported only when used."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import sys

from annotator import __version__

_LINE_BREAK = re.compile("[\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")  # what str.splitlines splits on

# sub-command -> (module under annotator.cli, one-line help)
COMMANDS = {
    "gui": ("gui", "open the desktop annotator on a log, a folder of logs, or the sample session"),
    "validate": ("validate", "check logs against the standard's DTD and for semantic problems"),
    "info": ("info", "summarise each session: turns, durations, audio, annotation progress"),
    "export": (
        "export",
        "export logs to CSV, ConvLab, DialBB, LM Challenge, sclite, MITRE files, or Praat and "
        "ELAN with each session's audio",
    ),
    "fold": ("fold", "fold transcriptions and task completion into logs as GC_ANNOT"),
    "replace": ("replace", "replace text in the transcriptions of logs, printing each change (--dry-run: only print)"),
    "extract": ("extract", "extract the annotations of annotated logs to CSV or MITRE XML"),
    "import": ("import_", "import a ConvLab dataset or DialBB scenario as logs, one per dialogue"),
    "agree": ("agree", "measure agreement between annotators: WER, kappa, alpha; an HTML report and CSVs"),
    "adjudicate": (
        "adjudicate",
        "take one value per turn out of several annotators' work (agreed, --prefer or "
        "--majority) and fold it into a log",
    ),
    "assign": ("assign", "share a corpus's sessions out to annotators, a share of them to two (team mode)"),
    "search": (
        "search",
        'find turns whose texts hold every word of a query (words, "a phrase", prefix*), from the corpus\'s index',
    ),
    "index": ("index", "bring a corpus's index up to date (--where: where it is kept, --clear: remove it)"),
    "align": ("align", "place every word of every turn with audio and words on its audio (kept in the user's cache)"),
    "markers": ("markers", "find Rasa-style markers (KPIs, points of interest) in logs, with statistics"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="annotator",
        description="Read, validate, annotate, measure and export DARPA Communicator logs.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub = commands.add_parser(name, help=help_text, description=help_text)
        _command_module(module_name).add_arguments(sub)
    return parser


def _command_module(module_name: str):
    return importlib.import_module(f"annotator.cli.{module_name}")


def main(argv: list[str] | None = None) -> int:
    return reporting_output_failures(_main, argv)


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    if not argv or argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv = ["gui", *argv]  # `annotator [PATH]` opens the desktop app
    args = parser.parse_args(argv)
    module = _command_module(COMMANDS[args.command][0])
    # The window answers its own signals (its unsaved work, its journal); a command stops as on Ctrl+C.
    return run_reporting_errors(module.run, args, stop_on_signals=args.command != "gui")


def gui_main(argv: list[str] | None = None) -> int:
    """`annotator-gui [PATH]`, declared as a gui-script (no console window on Windows): the same
    window as `annotator gui`, through the same command."""
    return reporting_output_failures(_gui_main, argv)


def _gui_main(argv: list[str] | None) -> int:
    gui = _command_module("gui")
    parser = argparse.ArgumentParser(prog="annotator-gui", description=COMMANDS["gui"][1])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    gui.add_arguments(parser)
    return run_reporting_errors(gui.run, parser.parse_args(argv))


def reporting_output_failures(entry, argv: list[str] | None) -> int:
    """ENTRY(ARGV), its standard output guarded (annotator.cli.standard_output): output that cannot be
    written is one line and status 2, a reader gone (`| head -1`) stops the command without a word."""
    from annotator.cli.standard_output import StandardOutputFailed, guarded_standard_output

    try:
        with guarded_standard_output():  # the arguments too: `--help > /dev/full` fails as loudly
            return entry(argv)
    except StandardOutputFailed as failure:
        if not failure.reader_gone:
            print(f"annotator: {failure}", file=sys.stderr)
        return failure.exit_status


def run_reporting_errors(run, args, stop_on_signals: bool = False) -> int:
    """Run a command; user errors become one line on stderr and exit status 2. STOP_ON_SIGNALS: SIGTERM and
    SIGHUP stop it as Ctrl+C does (annotator.cli.termination), with status 143 / 129."""
    from annotator.cli.standard_output import StandardOutputFailed
    from annotator.cli.termination import stopped_like_ctrl_c
    from annotator.errors import AnnotatorError

    try:
        with stopped_like_ctrl_c() if stop_on_signals else contextlib.nullcontext():
            return run(args)
    except AnnotatorError as error:
        for line in _error_lines(error):
            print(f"annotator: {one_line(line)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as interrupt:  # Ctrl+C, or SIGTERM / SIGHUP (cli.termination.Terminated)
        print(f"annotator: {getattr(interrupt, 'message', 'interrupted')}", file=sys.stderr)
        return getattr(interrupt, "exit_status", 130)
    except StandardOutputFailed:
        raise  # the entry point's to report (reporting_output_failures), wherever the command printed
    except Exception as error:  # a bug: one line unless the user asks for the traceback
        if os.environ.get("ANNOTATOR_DEBUG"):
            raise
        print(
            f"annotator: internal error ({type(error).__name__}: {one_line(str(error))}); set ANNOTATOR_DEBUG=1 for details",
            file=sys.stderr,
        )
        return 70


def _error_lines(error) -> list[str]:
    """An error's lines: one, or what an error about several files says (corpus.parallel.UnreadableFiles:
    a line per file, then one naming them all). Read by name: reporting an error imports nothing."""
    lines = getattr(error, "lines", None)
    if callable(lines):
        return lines()
    command_line = getattr(error, "command_line_message", None)  # an error the window words otherwise
    return [command_line() if callable(command_line) else str(error)]


def one_line(text: str) -> str:
    """TEXT with its line breaks written as escapes (a dialogue id may hold one), so a message stays one line."""
    return _LINE_BREAK.sub(lambda match: repr(match.group())[1:-1], text)
