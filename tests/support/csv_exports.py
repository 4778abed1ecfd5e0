"""The CSV export checked against what it must equal: the same rows written from loaded documents (the export
before it streamed), byte for byte; a file map that computes out of order; the files read back as text."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pandas as pd

from annotator.corpus.parallel import serial_map
from annotator.corpus.paths import ANNOTATION_ROOT, common_root, expand_log_paths, root_tag
from annotator.export.csv_audio import AudioCells
from annotator.export.csv_export import FILE_NAMES, export_csv, write_csv
from annotator.export.csv_rows import document_rows
from annotator.export.csv_stream import file_cell
from annotator.log.document import LogDocument


def tree_csv(paths: list[Path], out: Path) -> None:
    """The three files from loaded documents (the export before it streamed)."""
    root = common_root(paths)

    def outcomes():
        for path in expand_log_paths(paths):
            if root_tag(path) == ANNOTATION_ROOT:
                yield path, None
                continue
            doc = LogDocument.load(path)
            yield path, document_rows(doc, file_cell(path, root), AudioCells(doc.folder))

    write_csv(outcomes(), out, False, None)


def files(out: Path) -> dict[str, bytes]:
    return {name: (out / name).read_bytes() for name in FILE_NAMES}


def assert_same_export(paths: list[Path], tmp: Path) -> dict[str, bytes]:
    export_csv(paths, tmp / "streamed")
    tree_csv(paths, tmp / "tree")
    streamed, tree = files(tmp / "streamed"), files(tmp / "tree")
    for name in FILE_NAMES:
        assert streamed[name] == tree[name], name
    return streamed


def reversed_map(work, paths: Sequence[Path], progress=None) -> Iterator[tuple[Path, object]]:
    """A FileMap that computes every outcome, last file first, then yields them in the input order."""
    computed = {}
    for path in reversed(list(paths)):
        computed[path] = next(iter(serial_map(work, [path])))[1]
    for path in paths:
        yield path, computed[path]


def read(out: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(out / name, dtype=str, keep_default_na=False)
