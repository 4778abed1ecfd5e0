"""`annotator fold LOG [ANNOTATIONS...] -o OUT`: fold annotations into logs as GC_ANNOT.

LOG may be a folder, then OUT is a folder that mirrors it. With no annotation
file, the MITRE `*-human.xml` beside each `*-hublog.xml` is used. Annotation
rows naming sessions or turns the logs do not have are an error and nothing
is written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=Path, metavar="LOG", help="a log file or a folder of logs")
    parser.add_argument("annotations", nargs="*", type=Path, metavar="ANNOTATIONS",
                        help="turns.csv / sessions.csv / annotations CSV / MITRE *-human.xml")
    parser.add_argument("-o", "--output", type=Path, required=True, metavar="OUT",
                        help="the folded log (a folder when LOG is a folder)")


def run(args: argparse.Namespace) -> int:
    from annotator.errors import AnnotationFileError
    from annotator.log.annotation_set import AnnotationSet
    from annotator.log.corpus import expand_log_paths
    from annotator.log.document import LogDocument
    from annotator.log.fold import default_annotation_file, fold_many, read_annotations

    folder_mode = args.log.is_dir()
    log_paths = expand_log_paths([args.log])
    docs = [LogDocument.load(path) for path in log_paths]
    sources = list(args.annotations)
    if not sources:
        sources = [found for path in log_paths if (found := default_annotation_file(path)) is not None]
        if not sources:
            raise AnnotationFileError(f"{args.log}: no annotation file given and no *-human.xml beside the log")
    annotations = AnnotationSet.merged([read_annotations(path) for path in sources])
    try:
        changes = fold_many(docs, annotations)
    except AnnotationFileError as error:
        raise AnnotationFileError(f"{', '.join(map(str, sources))}: {error}") from None
    targets = []
    for doc in docs:
        if folder_mode:
            target = args.output / doc.path.relative_to(args.log)
            target.parent.mkdir(parents=True, exist_ok=True)
        else:
            target = args.output
        targets.append(target)
    for doc, target in zip(docs, targets):
        doc.save(target)
        for notice in doc.save_notices:
            print(f"annotator: note: {notice}", file=sys.stderr)
    print(f"folded {changes} annotation(s) into {len(docs)} log(s)", file=sys.stderr)
    return 0
