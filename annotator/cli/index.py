"""`annotator index PATH...`: bring the corpus's index up to date (docs/search.md); --where prints
where it is kept, --clear removes it."""

from __future__ import annotations

import argparse
from pathlib import Path

from annotator.cli.jobs import add_jobs_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--where", action="store_true", help="print the index's file and change nothing")
    action.add_argument("--clear", action="store_true", help="remove the index (it is made again when needed)")
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import sys

    from annotator.cli.jobs import file_map
    from annotator.cli.progress import progress
    from annotator.cli.search import note
    from annotator.corpus_index.corpus import open_index, up_to_date
    from annotator.corpus_index.location import corpus_root, index_file
    from annotator.errors import AnnotatorError

    file = index_file(corpus_root(args.paths))
    if args.where:
        print(file)
        return 0
    if args.clear:
        removed = False
        for suffix in ("", "-wal", "-shm", "-journal"):
            part = Path(str(file) + suffix)
            try:
                part.unlink()
                removed = True
            except FileNotFoundError:
                continue
            except OSError as error:
                raise AnnotatorError(f"{part}: cannot remove the index: {error.strerror or error}") from None
        print(f"{'removed' if removed else 'no index at'} {file}", file=sys.stderr)
        return 0
    store = open_index(args.paths, note)
    try:
        keys = up_to_date(
            store,
            args.paths,
            file_map=file_map(args),
            progress=lambda items, total=None: progress(items, "indexing", total),
        )
    finally:
        store.close()
    size = sum(Path(str(file) + suffix).stat().st_size for suffix in ("", "-wal") if Path(str(file) + suffix).exists())
    print(f"{len(keys)} log(s) indexed in {file} ({size / 1e6:.1f} MB)", file=sys.stderr)
    return 0
