"""`annotator index PATH...`: bring the corpus's index up to date (docs/search.md); --where prints
where it is kept, --clear removes it. Each log that cannot be read is one line on stderr, and the exit
status is then 2 (the others are indexed all the same); the closing line says where the index is."""

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
    from annotator.cli.search import note, reported
    from annotator.corpus_index import contents
    from annotator.corpus_index.corpus import answered, open_index
    from annotator.corpus_index.location import corpus_root, index_file
    from annotator.errors import AnnotatorError
    from annotator.file_name_text import name_text

    file = index_file(corpus_root(args.paths))
    if args.where:
        print(name_text(file))
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
                raise AnnotatorError(f"{name_text(part)}: cannot remove the index: {error.strerror or error}") from None
        print(f"{'removed' if removed else 'no index at'} {name_text(file)}", file=sys.stderr)
        return 0
    store = open_index(args.paths, note)
    try:
        keys, problems = answered(
            store,
            args.paths,
            lambda keys: (keys, store.run(lambda connection: contents.problems(connection, keys))),
            file_map=file_map(args),
            progress=lambda items, total=None: progress(items, "indexing", total),
        )
    finally:
        store.close()
    bad = reported(keys, problems)
    print(_closing_line(len(keys), store, file), file=sys.stderr)
    return bad.finish()


def _closing_line(count: int, store, file: Path) -> str:
    """How many logs were indexed, and where the index now is: the file and its size, or why it is not there."""
    from annotator.file_name_text import name_text

    if store.file is None:
        return f"{count} log(s) indexed in memory only: nothing was kept in {name_text(file)} (see the note above)"
    if not store.kept:
        return (
            f"{count} log(s) indexed, but {name_text(file)} was removed or replaced meanwhile: nothing was kept "
            "(it is made again when needed)"
        )
    size = sum(Path(str(file) + suffix).stat().st_size for suffix in ("", "-wal") if Path(str(file) + suffix).exists())
    return f"{count} log(s) indexed in {name_text(file)} ({size / 1e6:.1f} MB)"
