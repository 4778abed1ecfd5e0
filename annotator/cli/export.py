"""`annotator export PATH... --to FORMAT -o OUT`.

-o names a folder for csv, parquet, convlab, sclite, human, textgrid and eaf, a file for dialbb, lmc and
lmc-text. The formats live in annotator.export.formats; an option given for a
format it does not apply to is an error rather than silently ignored. Nothing
replaces an input, an existing log or human-annotation file without --force
(annotator.outputs.guard), and every export is written all or nothing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from annotator.cli.force import add_force_argument, output_guard
from annotator.cli.jobs import add_jobs_arguments

# Kept here (not read from annotator.export.formats) so that building the parser imports nothing heavy.
FORMATS = ("csv", "parquet", "convlab", "dialbb", "lmc", "lmc-text", "sclite", "human", "textgrid", "eaf")
TEXT_CHOICES = ("prefer-transcription", "transcription", "asr")
SPLITS = ("train", "validation", "test")
SPEAKERS = ("user", "system", "both")
_OPTION_FLAGS = {
    "text": "--text",
    "dataset": "--dataset",
    "split": "--split",
    "split_ratios": "--split-ratios",
    "seed": "--seed",
    "speaker": "--speaker",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    parser.add_argument("--to", choices=FORMATS, default="csv", help="output format (default: csv)")
    parser.add_argument(
        "-o",
        "--output",
        type=Path,
        required=True,
        metavar="OUT",
        help="output folder (csv, parquet, convlab, sclite, human, textgrid, eaf) or file (dialbb, lmc, lmc-text)",
    )
    parser.add_argument(
        "--text",
        choices=TEXT_CHOICES,
        help="user text for convlab, dialbb, lmc, lmc-text: the transcription, the recognizer's "
        "text (asr), or the transcription where there is one (default: prefer-transcription)",
    )
    parser.add_argument("--dataset", metavar="NAME", help="convlab: dataset name and folder (default: communicator)")
    splits = parser.add_mutually_exclusive_group()
    splits.add_argument("--split", choices=SPLITS, help="convlab: put every dialogue in this split")
    splits.add_argument(
        "--split-ratios",
        metavar="T,V,T",
        help="convlab: shares of train, validation and test, e.g. 0.8,0.1,0.1 (with --seed)",
    )
    parser.add_argument("--seed", type=int, help="convlab: seed of the shuffle before --split-ratios cut (default 42)")
    parser.add_argument("--speaker", choices=SPEAKERS, help="lmc, lmc-text: whose utterances (default: user)")
    add_force_argument(parser)
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from annotator.cli.jobs import file_map
    from annotator.cli.main import one_line
    from annotator.cli.progress import progress
    from annotator.export.formats import EXPORT_FORMATS

    fmt = EXPORT_FORMATS[args.to]
    options = export_options(args, fmt.options)
    check_output(args.output, fmt.output_is_folder, fmt.name)
    guard = output_guard(args, logs=args.paths)
    if not fmt.output_is_folder:  # a folder is checked by the format, in the folder it writes (convlab: OUT/NAME)
        guard.check_file(args.output)
    report = fmt.run(
        list(args.paths),
        args.output,
        options,
        progress=lambda items, total=None: progress(items, "exporting", total),
        guard=guard,
        file_map=file_map(args),
    )
    for warning in report.warnings:
        print(f"annotator: warning: {one_line(warning)}", file=sys.stderr)
    print(report, file=sys.stderr)
    return 0


def export_options(args: argparse.Namespace, applicable: tuple[str, ...]):
    """ExportOptions from the command line; options that do not apply to the format are an error."""
    from annotator.export.convlab import parse_split_ratios
    from annotator.export.dialogue_text import ExportOptionError, ExportOptions

    given = {name for name in _OPTION_FLAGS if getattr(args, name, None) is not None}
    wrong = [_OPTION_FLAGS[name] for name in sorted(given - set(applicable))]
    if wrong:
        raise ExportOptionError(f"{', '.join(wrong)} do(es) not apply to --to {args.to}")
    if args.seed is not None and args.split_ratios is None:
        raise ExportOptionError("--seed applies only with --split-ratios")
    options = ExportOptions()
    for name in given:
        setattr(options, name, getattr(args, name))
    if args.split_ratios is not None:
        options.split_ratios = parse_split_ratios(args.split_ratios)
    return options


def check_output(output: Path, is_folder: bool, name: str) -> None:
    """-o must be a folder or a file as the format needs (missing folders are made when the export is written)."""
    import stat

    from annotator.errors import WriteError
    from annotator.writes.atomic import existing_mode, refuse_not_regular

    mode = existing_mode(output)
    if mode is not None and not stat.S_ISDIR(mode):
        refuse_not_regular(output, mode)  # a device, FIFO or socket says what it is
    if is_folder and output.exists() and not output.is_dir():
        raise WriteError(f"{output}: --to {name} writes a folder, and this is a file")
    if not is_folder and output.is_dir():
        raise WriteError(f"{output}: --to {name} writes a file, and this is a folder")
