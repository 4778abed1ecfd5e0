"""Search over turn facts: fields, plain and regex, case, bad queries, whole corpora with a bad log."""

from __future__ import annotations

from pathlib import Path

import pytest

from annotator.analysis.search import (
    CONCEPTS,
    RECOGNIZER,
    SYSTEM,
    TRANSCRIPTION,
    Query,
    search_document,
    search_files,
)
from annotator.corpus.paths import expand_log_paths
from annotator.errors import AnnotatorError, LogReadError
from annotator.log.document import LogDocument
from annotator.user_patterns import PatternError


def test_a_plain_search_finds_every_field_case_insensitively(annotated_log: Path):
    hits = search_document(LogDocument.load(annotated_log), Query("boston"))
    found = {(hit.turn_id, hit.field, hit.text[hit.start : hit.end]) for hit in hits}
    assert ("2", TRANSCRIPTION, "boston") in found
    assert ("4", RECOGNIZER, "boston") in found
    assert ("5", SYSTEM, "Boston") in found
    assert ("2", RECOGNIZER, "boston") not in found  # the recognizer heard austin there


def test_case_sensitive_search_leaves_out_other_cases(annotated_log: Path):
    hits = search_document(LogDocument.load(annotated_log), Query("Boston", case_sensitive=True))
    assert {hit.field for hit in hits} == {SYSTEM, CONCEPTS}  # the parse holds :destination=Boston
    assert all(hit.text[hit.start : hit.end] == "Boston" for hit in hits)


def test_a_regex_search_and_its_offsets(annotated_log: Path):
    hits = search_document(LogDocument.load(annotated_log), Query(r"\bb\w+ton\b", regex=True))
    assert hits and all(hit.text[hit.start : hit.end].lower() == "boston" for hit in hits)
    first = hits[0]
    assert (first.session_id, first.turn_index, first.file) == ("travel:20261121:001", 1, annotated_log)
    before, match, after = first.context()
    assert (before, match, after) == ("i want to fly to ", "boston", "")


def test_plain_text_is_not_a_pattern(annotated_log: Path):
    assert search_document(LogDocument.load(annotated_log), Query("b.ston")) == []


def test_concepts_are_searched_in_their_compact_form(latin1_log: Path):
    hits = search_document(LogDocument.load(latin1_log), Query(":source=Munich", case_sensitive=True))
    assert [(hit.turn_id, hit.field) for hit in hits] == [("6", CONCEPTS)]


def test_empty_matches_are_no_hits(annotated_log: Path):
    assert search_document(LogDocument.load(annotated_log), Query("(?=o)", regex=True)) == []


@pytest.mark.parametrize(
    "query, message",
    [
        (Query("(unclosed", regex=True), "bad regular expression '(unclosed': missing ), unterminated subpattern"),
        (Query(""), "nothing to search for: the search text is empty"),
    ],
)
def test_a_bad_query_is_one_line(query: Query, message: str):
    with pytest.raises(PatternError) as raised:
        query.pattern()
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)
    assert isinstance(raised.value, AnnotatorError)


def test_context_is_cut_with_an_ellipsis(annotated_log: Path):
    hit = search_document(LogDocument.load(annotated_log), Query("Thank you for"))[0]
    before, match, after = hit.context(width=5)
    assert before.startswith("…") and len(before) == 6 and match == "Thank you for"


def test_a_corpus_search_reports_an_unreadable_log_and_goes_on(corpus: Path):
    broken = corpus / "broken-hublog.xml"
    broken.write_text("<GC_LOG><GC_SESSION>")
    paths = expand_log_paths([corpus])
    seen: list[tuple[int, int]] = []
    found = list(search_files(paths, Query("goodbye"), progress=lambda done, total: seen.append((done, total))))
    errors = [item for item in found if isinstance(item, AnnotatorError)]
    hits = [item for item in found if not isinstance(item, AnnotatorError)]
    assert len(errors) == 1 and isinstance(errors[0], LogReadError) and "broken-hublog.xml" in str(errors[0])
    assert {"travel-20261121-002", "travel-20261121-003"} <= {hit.file.parent.name for hit in hits}
    assert all(hit.text[hit.start : hit.end].lower() == "goodbye" for hit in hits)
    assert seen[-1] == (len(paths), len(paths))


def test_a_cancelled_corpus_search_stops(corpus: Path):
    paths = expand_log_paths([corpus])
    assert list(search_files(paths, Query("goodbye"), cancelled=lambda: True)) == []


def test_search_reads_the_facts_cache_and_follows_an_edit(annotated_log: Path):
    from annotator.log.annotations import set_transcription

    document = LogDocument.load(annotated_log)
    assert search_document(document, Query("zanzibar")) == []
    set_transcription(document.sessions[0].turn("8"), "next tuesday to zanzibar")
    assert [hit.turn_id for hit in search_document(document, Query("zanzibar"))] == ["8"]
