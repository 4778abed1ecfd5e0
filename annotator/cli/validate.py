"""`annotator validate PATH...`: findings as `file:line: severity: message`.

Exit status: 0 clean, 1 findings, 2 an input could not be read. Quirks of the
standard's own DTD are printed but count as findings only with --strict. Of
each kind of finding the first KEEP_PER_KIND are listed, then one line counts
the others (--all lists every one).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from annotator.cli.jobs import add_jobs_arguments

if TYPE_CHECKING:
    from annotator.errors import AnnotatorError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    parser.add_argument("--strict", action="store_true", help="count quirks of the standard's DTD as findings")
    parser.add_argument("--no-dtd", action="store_true", help="skip validation against the DTD")
    parser.add_argument("--no-audio", action="store_true", help="do not check that audio files exist")
    parser.add_argument("--hide-quirks", action="store_true", help="do not print quirks of the standard's DTD")
    parser.add_argument(
        "--all",
        action="store_true",
        help="list every finding (by default the first 100 of each kind, then how many more)",
    )
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from annotator.analysis.validation import KEEP_PER_KIND
    from annotator.cli.jobs import file_map
    from annotator.cli.progress import progress
    from annotator.cli.search import note
    from annotator.corpus.parallel import summary_line
    from annotator.corpus.paths import expand_log_paths
    from annotator.corpus_index.corpus import open_index
    from annotator.corpus_index.memos import Memo, memoised_map
    from annotator.errors import AnnotatorError

    paths = expand_log_paths(args.paths)
    options = dict(
        dtd=not args.no_dtd,
        audio=not args.no_audio,
        keep=None if args.all else KEEP_PER_KIND,
        quirks=not args.hide_quirks,
        strict=args.strict,
    )
    memo = Memo(
        "validate",
        json.dumps(options, sort_keys=True),
        lambda done: [done.lines, done.counted],
        lambda kept: LogValidation(*kept),
    )
    unreadable: list[AnnotatorError] = []
    findings_counted = 0
    store = open_index(args.paths, note)  # each unchanged log's findings are the ones kept there
    for path, outcome in memoised_map(
        store,
        memo,
        partial(validate_log, **options),
        paths,
        file_map=file_map(args),
        progress=lambda items, total=None: progress(items, "validating", total),
    ):
        if isinstance(outcome, AnnotatorError):
            print(f"{_where(outcome, path)}: error: {getattr(outcome, 'reason', outcome)}")
            unreadable.append(outcome)
            continue
        for line in outcome.lines:
            print(line)
        findings_counted += outcome.counted
    if not paths:
        print("annotator: no log files found", file=sys.stderr)
        return 2
    summary = summary_line(unreadable)
    if summary:
        print(f"annotator: {summary}", file=sys.stderr)
    return 2 if unreadable else 1 if findings_counted else 0


@dataclass(frozen=True)
class LogValidation:
    """What `validate` prints about one log, and how many of its findings count towards exit status 1."""

    lines: list[str]
    counted: int


def validate_log(path: Path, *, dtd: bool, audio: bool, keep: int | None, quirks: bool, strict: bool) -> LogValidation:
    """The per-file work of `validate` (picklable, for annotator.corpus.parallel)."""
    from annotator.analysis.validation import Severity, validate_document
    from annotator.log.document import LogDocument

    doc = LogDocument.load(path)
    lines: list[str] = []
    counted = 0
    more: Counter[tuple[Severity, str]] = Counter()  # findings left out, by kind
    for finding in validate_document(doc, dtd=dtd, audio=audio, keep=keep):
        quirk = finding.severity is Severity.QUIRK
        if quirk and not quirks:
            continue
        if finding.omitted:
            more[finding.severity, finding.code] += finding.omitted
        else:
            lines.append(str(finding))
        if not quirk or strict:
            counted += finding.severity is not Severity.INFO
    for (severity, code), count in more.items():
        lines.append(
            f"{doc.path}: {severity}: and {count:,} more findings of this kind ({code}), not listed (--all lists them)"
        )
    return LogValidation(lines, counted)


def _where(error: AnnotatorError, path: Path) -> str:
    """file:line:column of an unreadable log, as far as the error knows it (else the log's path)."""
    parts = (getattr(error, "path", None), getattr(error, "line", None), getattr(error, "column", None))
    return ":".join(str(part) for part in parts if part) or str(path)
