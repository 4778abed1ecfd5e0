"""What the corpus browser knows of team work, from a scan of a generated three-annotator corpus, and
how its filter words `mine`, `double` and `disagreeing` choose sessions."""

from __future__ import annotations

from annotator.corpus.scan import scan_corpus
from annotator.corpus.session_filter import MineTest, SessionQuery
from annotator.team.assign import ASSIGNMENT_FILE


def _by_log(rows) -> dict[str, object]:
    return {row.file.name[: len("travel-000")]: row for row in rows}


def test_the_scan_says_who_annotated_each_session_and_whether_they_disagree(three_annotator_corpus):
    rows = _by_log(scan_corpus(three_annotator_corpus))
    assert len(rows) == 6, "the annotators' files are not listed as logs"
    assert {name: (row.annotators, row.double, row.disagreeing) for name, row in rows.items()} == {
        "travel-000": (("alice",), False, False),
        "travel-001": (("alice", "bob"), True, False),
        "travel-002": (("alice", "bob"), True, True),
        "travel-003": (("alice", "bob", "carol"), True, False),
        "travel-004": (("bob", "carol"), True, True),
        "travel-005": ((), False, False),
    }
    assert rows["travel-002"].annotators_text == "2 double, disagreeing"
    assert rows["travel-000"].annotators_text == "1" and rows["travel-005"].annotators_text == ""


def _kept(rows, text: str, mine: MineTest | None = None) -> list[str]:
    query = SessionQuery.parse(text)
    return sorted(name for name, row in _by_log(rows).items() if query.matches(row, row.file.name, mine))


def test_double_disagreeing_and_mine_without_an_assignment(three_annotator_corpus):
    rows = scan_corpus(three_annotator_corpus)
    assert _kept(rows, "double") == ["travel-001", "travel-002", "travel-003", "travel-004"]
    assert _kept(rows, "disagreeing") == ["travel-002", "travel-004"]
    carol = MineTest(three_annotator_corpus, "carol")
    assert _kept(rows, "mine", carol) == ["travel-003", "travel-004"]
    assert _kept(rows, "mine disagreeing", carol) == ["travel-004"]
    assert _kept(rows, "mine") == [], "without knowing who 'me' is, nothing is mine"


def test_mine_follows_the_assignment_file_when_the_corpus_has_one(three_annotator_corpus):
    from annotator.cli.main import main

    assert main(["assign", str(three_annotator_corpus), "--annotators", "alice,dave", "--seed", "1"]) == 0
    assert (three_annotator_corpus / ASSIGNMENT_FILE).is_file()
    rows = scan_corpus(three_annotator_corpus)
    dave, alice = (MineTest(three_annotator_corpus, name) for name in ("dave", "alice"))
    assert len(_kept(rows, "mine", dave)) == 3 and len(_kept(rows, "mine", alice)) == 3
    assert set(_kept(rows, "mine", dave)).isdisjoint(_kept(rows, "mine", alice))
