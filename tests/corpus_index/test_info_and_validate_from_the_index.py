"""`info` and `validate` take each unchanged log's output from the index: the same bytes as a first
run, no log read again, and a log, or the audio beside it, changed since is computed again. Nothing
is ever written into the corpus folder, read-only as corpora often are."""

from __future__ import annotations

import os
import stat
from functools import partial
from pathlib import Path

import pytest

from annotator.analysis.summary import describe_log
from annotator.corpus.paths import expand_log_paths
from annotator.corpus_index.corpus import open_index
from annotator.corpus_index.memos import Memo, memoised_map
from tests.support.cli import run_annotator
from tests.support.planted_logs import plant
from tests.support.repository import REPO

annotator = partial(
    run_annotator, cwd=REPO, timeout=None
)  # the real command, run from the repository with no time limit


def _not_called(path: Path) -> str:
    raise AssertionError(f"{path} was read again")


@pytest.mark.slow
def test_a_second_info_prints_the_same_and_reads_no_log(corpus: Path):
    first = annotator("info", corpus)
    second = annotator("info", corpus)
    assert first.returncode == second.returncode == 0 and second.stdout == first.stdout != ""
    store = open_index([corpus])
    kept = list(memoised_map(store, Memo("info", ""), _not_called, expand_log_paths([corpus])))
    store.close()
    assert "\n\n".join(text for _, text in kept) + "\n" == first.stdout


def test_a_changed_log_or_audio_is_described_again(corpus: Path, annotated_log: Path):
    paths = expand_log_paths([corpus])
    store = open_index([corpus])
    list(memoised_map(store, Memo("info", ""), describe_log, paths))
    plant(annotated_log, {"2": "changed"})
    unchanged_log = paths[1]
    next(unchanged_log.parent.glob("*.wav")).unlink()  # its log is unchanged, its audio count is not
    again = dict(memoised_map(store, Memo("info", ""), describe_log, paths))
    store.close()
    assert again == {path: describe_log(path) for path in paths}


@pytest.mark.slow
def test_validate_twice_prints_the_same(corpus: Path):
    first = annotator("validate", "--jobs", "1", corpus)
    second = annotator("validate", "--jobs", "1", corpus)
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
    other = annotator("validate", "--jobs", "1", "--hide-quirks", corpus)
    assert other.stdout == "\n".join(line for line in first.stdout.splitlines() if ": quirk: " not in line) + (
        "\n" if other.stdout else ""
    )


def _tree(folder: Path) -> list[tuple]:
    return sorted(
        (str(path.relative_to(folder)), path.stat().st_size, path.stat().st_mtime_ns) for path in folder.rglob("*")
    )


@pytest.mark.slow
def test_a_read_only_corpus_is_indexed_searched_and_described_without_a_write(corpus: Path):
    before = _tree(corpus)
    for path in [corpus, *corpus.rglob("*")]:
        mode = path.stat().st_mode
        os.chmod(path, mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    try:
        for argv in (["index", corpus], ["search", "flight", corpus], ["info", corpus], ["validate", corpus]):
            done = annotator(*argv)
            assert done.returncode in (0, 1) and "Traceback" not in done.stderr, (argv, done.stderr)
        assert _tree(corpus) == before
    finally:
        for path in [corpus, *corpus.rglob("*")]:
            os.chmod(path, path.stat().st_mode | stat.S_IWUSR)
