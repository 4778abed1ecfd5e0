"""The window's searches from the index give what reading every log gives: Ctrl+Shift+F's hits
(search_logs against analysis.search.search_files) and replace-in-corpus's candidates (every log with a
planned change is among them), for indexed logs, logs changed since, new and unreadable logs."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest

from annotator.analysis.replace import plan_replacements
from annotator.analysis.search import TRANSCRIPTION, Query, search_files
from annotator.corpus.paths import expand_log_paths
from annotator.corpus_index import contents
from annotator.corpus_index.corpus import open_index, up_to_date
from annotator.corpus_index.pattern_search import ASCII_LOOKALIKES, logs_that_may_match, search_logs
from annotator.log.document import LogDocument
from tests.support.planted_logs import plant

QUERIES = [
    Query("zanzibar"),
    Query("AUSTIN"),
    Query("flight"),
    Query(r"\bto\b", regex=True),
    Query("São", case_sensitive=True),
    Query("são"),
    Query("o"),
    Query("x*", regex=True),
    Query("the (third|second)", regex=True),
    Query("Kelvin"),
    Query("kelvin", case_sensitive=True),
    Query("istanbul"),
    Query("STOP"),
    Query("dinner"),
    Query("\u0131nn", case_sensitive=True),
    Query('"x"'),
]


@pytest.fixture
def indexed(corpus: Path, annotated_log: Path) -> Path:
    # U+212A, the Kelvin sign, is a K to Python's case-insensitive match and not to SQLite's lower(); İ, ı and ſ
    # are an i, an i and an s to it, which SQLite's trigram folding may not take them for.
    plant(
        annotated_log,
        {
            "2": "zanzibar to austin",
            "4": "the third one",
            "6": "\u212aelvin",
            "8": '\u0130stanbul, \u017ftop for d\u0131nner, a "x" quoted',
        },
    )
    (corpus / "zz-broken-hublog.xml").write_text("<GC_LOG><GC_SESSION>")
    store = open_index([corpus])
    up_to_date(store, [corpus])
    store.close()
    latin1 = corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    plant(latin1, {"6": "changed since: the second zanzibar"})  # not indexed as it is now
    added = corpus / "new" / "new-hublog.xml"
    added.parent.mkdir()
    shutil.copyfile(annotated_log, added)
    return corpus


def _same(found) -> list:
    return [item if not isinstance(item, Exception) else ("error", str(item)) for item in found]


@pytest.mark.parametrize("query", QUERIES, ids=[query.text for query in QUERIES])
def test_search_logs_gives_what_reading_every_log_gives(indexed: Path, query: Query):
    paths = expand_log_paths([indexed])
    assert _same(search_logs(paths, query, indexed)) == _same(search_files(paths, query))


@pytest.mark.parametrize("first_logs, named_at_most", [(1, 500), (2, 0), (3, 2)])
def test_the_first_logs_asked_apart_and_the_files_named_or_not_give_the_same_hits(
    indexed: Path, monkeypatch: pytest.MonkeyPatch, first_logs: int, named_at_most: int
):
    """The first logs are asked of the index on their own (their hits come first), the rest together;
    a few files are named in SQL, many are filtered after: every split gives what reading the logs gives."""
    import annotator.corpus_index.pattern_search as pattern_search

    paths = expand_log_paths([indexed])
    assert len(paths) > first_logs + 1
    monkeypatch.setattr(pattern_search, "FIRST_LOGS", first_logs)
    monkeypatch.setattr(pattern_search, "NAMED_FILES_AT_MOST", named_at_most)
    for query in QUERIES:
        assert _same(search_logs(paths, query, indexed)) == _same(search_files(paths, query)), query


@pytest.mark.parametrize("query", QUERIES, ids=[query.text for query in QUERIES])
def test_every_log_with_a_replacement_is_a_candidate(indexed: Path, query: Query):
    paths = [path for path in expand_log_paths([indexed]) if "broken" not in path.name]
    candidates = logs_that_may_match(paths, indexed, query, (TRANSCRIPTION,))
    planned = [path for path in paths if plan_replacements(LogDocument.load(path), query, "X")]
    assert set(planned) <= set(candidates)


def test_the_indexed_texts_are_what_is_searched(indexed: Path, annotated_log: Path):
    """An unchanged log is not read: what the index keeps of it is what is found."""
    store = open_index([indexed])
    store.write(
        lambda connection: connection.execute(
            "UPDATE texts SET text = 'kept in the index only' WHERE text = 'the third one'"
        )
    )
    known = store.run(contents.known_files)
    store.close()
    assert contents.key_of(annotated_log) in known
    found = list(search_logs([annotated_log], Query("index only"), indexed))
    assert [(hit.turn_id, hit.text) for hit in found] == [("4", "kept in the index only")]
    assert logs_that_may_match([annotated_log], indexed, Query("third"), (TRANSCRIPTION,)) == []


@pytest.mark.slow
def test_the_ascii_lookalikes_are_every_character_python_takes_for_an_ascii_one():
    """An ASCII query is narrowed on ASCII lower case in SQLite: a character beyond ASCII that Python's
    case-insensitive match takes for an ASCII one must be among those always handed to Python."""
    ascii_character = re.compile("[\\x00-\\x7f]", re.IGNORECASE)
    found = "".join(chr(code) for code in range(0x80, sys.maxunicode + 1) if ascii_character.fullmatch(chr(code)))
    assert found == ASCII_LOOKALIKES
