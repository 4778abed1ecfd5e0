"""Where a corpus's index lives: one SQLite file per corpus root in the user's cache folder
($ANNOTATOR_CACHE_DIR overrides it), named after the root so that `ls` tells them apart."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from annotator.corpus.paths import common_root

APP_NAME = "communicator-annotator"
CACHE_DIR_VARIABLE = "ANNOTATOR_CACHE_DIR"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def cache_dir() -> Path:
    """The user's cache folder for the annotator ($ANNOTATOR_CACHE_DIR overrides it)."""
    override = os.environ.get(CACHE_DIR_VARIABLE)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def alignment_cache_file() -> Path:
    """The words' alignments of every corpus (annotator.alignment.cache): one file beside the indexes, since
    an alignment is found by the content of its audio and text, wherever the log is."""
    return cache_dir() / "alignments.sqlite3"


def corpus_root(paths: list[Path] | list[str]) -> Path:
    """The folder whose index serves PATHS (logs or folders): the folder they have in common."""
    return common_root(paths)


def index_file(root: Path) -> Path:
    """The index file of the corpus rooted at ROOT (a resolved folder)."""
    text = str(root)
    digest = hashlib.sha1(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = _UNSAFE.sub("_", root.name or "root")[:40]
    return cache_dir() / "index" / f"{name}-{digest}.sqlite3"
