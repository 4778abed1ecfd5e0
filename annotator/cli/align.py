"""`annotator align PATH... [--jobs N | --scheduler ADDRESS] [--force]`: place every word of every turn
with audio and words on that audio (docs/words.md). The alignments go to the user's cache, never into a
log; a turn already aligned (the same audio, the same words) is taken from there. Like `annotator index`,
it reports on stderr and prints nothing on stdout: each turn not aligned is one line with the reason, a
log that cannot be read one line, and the exit status is then 2 (the others are aligned all the same);
the closing line counts the turns and says where the alignments are kept."""

from __future__ import annotations

import argparse
from pathlib import Path

from annotator.cli.jobs import add_jobs_arguments


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="log files or folders of logs")
    parser.add_argument("--force", action="store_true", help="align every turn again, even those kept in the cache")
    add_jobs_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import sys
    from functools import partial

    from annotator.alignment.cache import AlignmentCache
    from annotator.alignment.corpus_run import align_log
    from annotator.alignment.engine import NotAligned
    from annotator.cli.jobs import BadFiles, file_map
    from annotator.cli.progress import progress
    from annotator.cli.search import note
    from annotator.corpus.paths import expand_log_paths
    from annotator.errors import AnnotatorError
    from annotator.file_name_text import name_text

    paths = expand_log_paths(args.paths)
    cache = AlignmentCache(notice=note)
    bad = BadFiles()
    aligned = kept = skipped = 0
    try:
        work = partial(align_log, cache_file=cache.store.file, force=args.force)
        for path, outcome in file_map(args)(work, paths, lambda items, total=None: progress(items, "aligning", total)):
            if isinstance(outcome, AnnotatorError):
                bad.report(outcome)
                continue
            cache.keep({turn.key: turn.outcome for turn in outcome if turn.fresh and turn.key is not None})
            for turn in outcome:
                if isinstance(turn.outcome, NotAligned):
                    skipped += 1
                    where = f"{name_text(path)}: session {turn.turn.session_id} turn {turn.turn.turn_id}"
                    print(
                        f"{where} ({turn.turn.speaker}): skipped, {turn.outcome.reason}: {turn.outcome}",
                        file=sys.stderr,
                    )
                elif turn.fresh:
                    aligned += 1
                else:
                    kept += 1
    finally:
        cache.close()
    where = "in memory only" if cache.store.file is None else f"in {name_text(cache.store.file)}"
    print(
        f"{aligned + kept} turn(s) aligned ({aligned} now, {kept} kept from before), {skipped} skipped; "
        f"the alignments are kept {where}",
        file=sys.stderr,
    )
    return bad.finish()
