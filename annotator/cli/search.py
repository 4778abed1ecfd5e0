"""`annotator search QUERY PATH...`: the turns whose texts hold every word of QUERY, from the corpus's
index (docs/search.md), each file changed since it was indexed read again first.

One hit per line: file (its name as annotator.file_name_text writes it), session id, turn id, field, text, separated by tabs (a tab, a line break or a
backslash in a text is written as \\t, \\n, \\\\); --json writes one JSON object per line instead. Exit
status as grep's: 0 some hit, 1 none, 2 an error (a log that could not be read is one line on stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from annotator.cli.counts import count_of
from annotator.cli.jobs import BadFiles, add_jobs_arguments
from annotator.file_name_text import name_text

FIELDS = ("any", "transcription", "recognizer", "system", "concepts")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("query", metavar="QUERY", help='words (all must appear), "a phrase", prefix*')
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    parser.add_argument("--field", choices=FIELDS, default="any", help="search this field only (default: any)")
    parser.add_argument("--limit", type=count_of("hits"), metavar="N", help="print at most N hits")
    parser.add_argument("--json", action="store_true", help="one JSON object per hit and line")
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from annotator.cli.jobs import file_map
    from annotator.cli.progress import progress
    from annotator.corpus_index import contents
    from annotator.corpus_index.corpus import answered, open_index
    from annotator.corpus_index.query import parse
    from annotator.corpus_index.search import FIELD_CHOICES, search_index

    parse(args.query)  # a query with no word is refused before any log is read
    store = open_index(args.paths, note)
    try:

        def ask(keys: dict[str, Path]) -> tuple:
            return (
                keys,
                search_index(store, keys, args.query, FIELD_CHOICES[args.field], args.limit),
                store.run(lambda connection: contents.problems(connection, keys)),
            )

        keys, hits, problems = answered(
            store,
            args.paths,
            ask,
            file_map=file_map(args),
            progress=lambda items, total=None: progress(items, "indexing", total),
        )
    finally:
        store.close()
    for hit in hits:
        print(_json_line(hit) if args.json else _tab_line(hit))
    if reported(keys, problems).finish():
        return 2
    return 0 if hits else 1


def note(line: str) -> None:
    print(f"annotator: note: {line}", file=sys.stderr)


def reported(keys: dict[str, Path], problems: dict[str, str]) -> BadFiles:
    """The PROBLEMS (key -> one line, contents.problems) of the logs KEYS name, each said on stderr, in their order."""
    from annotator.errors import AnnotatorError

    bad = BadFiles()
    for key in keys:
        if key in problems:
            bad.report(AnnotatorError(problems[key]))
    return bad


def _tab_line(hit) -> str:
    return "\t".join(
        _escaped(str(part)) for part in (name_text(hit.file), hit.session_id, hit.turn_id, hit.field, hit.text)
    )


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def _json_line(hit) -> str:
    return json.dumps(
        {
            "file": name_text(hit.file),
            "session_id": hit.session_id,
            "session_index": hit.session_index,
            "turn_id": hit.turn_id,
            "turn_index": hit.turn_index,
            "field": hit.field,
            "text": hit.text,
        },
        ensure_ascii=False,
    )
