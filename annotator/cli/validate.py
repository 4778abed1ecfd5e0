"""`annotator validate PATH...`: findings as `file:line: severity: message`.

Exit status: 0 clean, 1 findings, 2 an input could not be read. Quirks of the
standard's own DTD are printed but count as findings only with --strict. Of
each kind of finding the first KEEP_PER_KIND are listed, then one line counts
the others (--all lists every one).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    parser.add_argument("--strict", action="store_true", help="count quirks of the standard's DTD as findings")
    parser.add_argument("--no-dtd", action="store_true", help="skip validation against the DTD")
    parser.add_argument("--no-audio", action="store_true", help="do not check that audio files exist")
    parser.add_argument("--hide-quirks", action="store_true", help="do not print quirks of the standard's DTD")
    parser.add_argument("--all", action="store_true",
                        help="list every finding (by default the first 100 of each kind, then how many more)")


def run(args: argparse.Namespace) -> int:
    from annotator.analysis.validation import KEEP_PER_KIND, Severity, validate_document
    from annotator.cli.progress import progress
    from annotator.corpus.paths import expand_log_paths
    from annotator.errors import LogReadError
    from annotator.log.document import LogDocument

    paths = expand_log_paths(args.paths)
    unreadable = findings_counted = 0
    for path in progress(paths, "validating"):
        try:
            doc = LogDocument.load(path)
        except LogReadError as error:
            where = ":".join(str(part) for part in (error.path, error.line, error.column) if part)
            print(f"{where}: error: {error.reason}")
            unreadable += 1
            continue
        more: Counter[tuple[Severity, str]] = Counter()  # findings left out, by kind
        for finding in validate_document(doc, dtd=not args.no_dtd, audio=not args.no_audio,
                                         keep=None if args.all else KEEP_PER_KIND):
            quirk = finding.severity is Severity.QUIRK
            if quirk and args.hide_quirks:
                continue
            if finding.omitted:
                more[finding.severity, finding.code] += finding.omitted
            else:
                print(finding)
            if not quirk or args.strict:
                findings_counted += finding.severity is not Severity.INFO
        for (severity, code), count in more.items():
            print(f"{doc.path}: {severity}: and {count:,} more findings of this kind ({code}), not listed "
                  "(--all lists them)")
    if not paths:
        print("annotator: no log files found", file=sys.stderr)
        return 2
    return 2 if unreadable else 1 if findings_counted else 0
