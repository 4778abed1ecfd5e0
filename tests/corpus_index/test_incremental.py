"""The index follows the files: a changed, added, deleted or renamed log, and one rewritten with the
same size and modification time, are answered as they are now; only new and changed logs are read."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from annotator.corpus.paths import expand_log_paths
from annotator.corpus_index import contents, refresh
from annotator.corpus_index.corpus import open_index, up_to_date
from annotator.corpus_index.search import search_index
from tests.support.plain_scan import scan
from tests.support.planted_logs import plant


@pytest.fixture
def store(corpus: Path):
    opened = open_index([corpus])
    up_to_date(opened, [corpus])
    yield opened
    opened.close()


def _search(store, corpus: Path, query: str) -> list[tuple]:
    keys = up_to_date(store, [corpus])
    return [
        (str(hit.file), hit.session_id, hit.turn_id, hit.field, hit.text) for hit in search_index(store, keys, query)
    ]


def _indexed(store) -> set[str]:
    return set(store.run(contents.known_files))


def test_a_changed_log_is_answered_as_it_is_now_and_alone_read_again(store, corpus: Path, annotated_log: Path):
    plant(annotated_log, {"2": "zanzibar please"})
    todo = refresh.plan(store, expand_log_paths([corpus]), folders=[corpus])
    assert todo.stale == [annotated_log]
    found = _search(store, corpus, "zanzibar")
    assert [hit[2:] for hit in found] == [("2", "transcription", "zanzibar please")]
    assert found == scan([corpus], "zanzibar")


def test_an_added_log_is_found(store, corpus: Path, annotated_log: Path):
    copy = corpus / "added" / "added-hublog.xml"
    copy.parent.mkdir()
    shutil.copyfile(annotated_log, copy)
    plant(copy, {"4": "kilimanjaro"})
    assert [hit[0] for hit in _search(store, corpus, "kilimanjaro")] == [str(copy)]


def test_a_deleted_log_is_dropped(store, corpus: Path, annotated_log: Path):
    annotated_log.unlink()
    assert all(hit[0] != str(annotated_log) for hit in _search(store, corpus, "flight"))
    assert contents.key_of(annotated_log) not in _indexed(store)
    assert _search(store, corpus, "flight") == scan([corpus], "flight")


def test_a_renamed_log_is_found_under_its_new_name(store, corpus: Path, annotated_log: Path):
    renamed = annotated_log.with_name("renamed-hublog.xml")
    annotated_log.rename(renamed)
    found = _search(store, corpus, "austin")
    assert found and {hit[0] for hit in found if "001" in hit[1]} == {str(renamed)}
    assert found == scan([corpus], "austin")
    assert contents.key_of(annotated_log) not in _indexed(store)


def test_same_size_and_time_with_other_bytes_is_read_again(store, corpus: Path, annotated_log: Path):
    plant(annotated_log, {"2": "alpha"})
    up_to_date(store, [corpus])
    before = os.stat(annotated_log)
    data = annotated_log.read_bytes()
    assert data.count(b">alpha<") == 1
    annotated_log.write_bytes(data.replace(b">alpha<", b">omega<"))
    os.utime(annotated_log, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(annotated_log)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert [hit[4] for hit in _search(store, corpus, "omega")] == ["omega"]
    assert _search(store, corpus, "alpha") == []


def test_a_log_touched_but_unchanged_is_not_read_again(store, corpus: Path, annotated_log: Path):
    os.utime(annotated_log, ns=(1_000_000_000, 1_000_000_000))
    todo = refresh.plan(store, expand_log_paths([corpus]), folders=[corpus])
    assert todo.stale == [] and [key for key, _ in todo.touched] == [contents.key_of(annotated_log)]
    refresh.update(store, expand_log_paths([corpus]), folders=[corpus])
    assert refresh.plan(store, expand_log_paths([corpus]), folders=[corpus], verify_content=False).touched == []


def test_an_unreadable_log_is_one_row_and_read_again_once_mended(store, corpus: Path, annotated_log: Path):
    good = annotated_log.read_bytes()
    annotated_log.write_bytes(good[: len(good) // 2])
    keys = up_to_date(store, [corpus])
    rows = store.run(lambda connection: contents.session_rows(connection, keys))
    problem = rows[contents.key_of(annotated_log)]
    assert len(problem) == 1 and problem[0].problem and str(annotated_log) in problem[0].problem
    annotated_log.write_bytes(good)
    assert _search(store, corpus, "austin") == scan([corpus], "austin") != []
