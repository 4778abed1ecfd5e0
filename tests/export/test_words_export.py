"""words.csv, words.parquet and annotator.tables().words: the words `annotator align` kept, read from the
alignment cache by the export (which aligns nothing), on real speech said by espeak-ng."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pandas as pd
import pytest

import annotator
from annotator.alignment.cache import AlignmentCache, alignment_key, file_digest
from annotator.alignment.words import text_words
from annotator.export.csv_export import export_document_csv
from annotator.export.table_schema import read_table
from annotator.log.document import LogDocument
from tests.support.cli import run_annotator
from tests.support.spoken_sentences import needs_speech, spoken
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

pytestmark = [needs_speech, pytest.mark.slow]

ASKED = "I would like to fly to Boston on Tuesday"
PROMPT = "Where would you like to fly"
SECOND = "my name is Quorlax and I am flying to Denver"
HEADER = "session_id,turn_id,speaker,word_index,word,start,end,score,source\n"
OTHER_TABLES = ("sessions.csv", "turns.csv", "events.csv")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two logs: a system prompt and a user turn with speech, a user turn whose audio is missing; and a
    second log's user turn with speech."""
    folder = tmp_path_factory.mktemp("words")
    corpus = folder / "corpus"
    corpus.mkdir()
    spoken(folder, PROMPT, 8000, "prompt").path.rename(corpus / "prompt.wav")
    spoken(folder, ASKED, 8000, "asked").path.rename(corpus / "u1.wav")
    spoken(folder, SECOND, 16000, "second").path.rename(corpus / "u7.wav")
    first = [
        system_turn("0", 999.0, PROMPT, audio="prompt.wav"),
        user_turn("1", 1000.0, ASKED),
        user_turn("3", 1006.0, "goodbye"),  # its u3.wav is missing
    ]
    write_log(corpus / "a.xml", log_text([session("s1", first)]))
    write_log(corpus / "b.xml", log_text([session("s2", [user_turn("7", 1100.0, SECOND)])]))
    return corpus


def _export(corpus: Path, out: Path, cache: Path, *more: str):
    done = run_annotator("export", corpus, "-o", out, *more, env={"ANNOTATOR_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    return done


def _rows(out: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO((out / "words.csv").read_text(encoding="utf-8"))))


def test_before_any_alignment_the_export_is_as_before_with_an_empty_words_csv(corpus: Path, tmp_path: Path):
    done = _export(corpus, tmp_path / "out", tmp_path / "cache")
    assert (tmp_path / "out" / "words.csv").read_text(encoding="utf-8") == HEADER
    assert "words: 0 word(s) of 0 aligned turn(s), 3 turn(s) have no alignment yet: `annotator align`" in done.stderr
    assert "1 turn(s) cannot be aligned" in done.stderr  # turn 3: its audio is missing
    assert not (tmp_path / "cache" / "alignments.sqlite3").exists(), "the export aligns nothing, keeps nothing"


def test_every_aligned_word_is_a_row_with_the_cache_times_and_the_other_tables_do_not_change(
    corpus: Path, tmp_path: Path
):
    cache = tmp_path / "cache"
    before = _export(corpus, tmp_path / "before", cache)
    assert run_annotator("align", corpus, env={"ANNOTATOR_CACHE_DIR": str(cache)}).returncode == 0
    done = _export(corpus, tmp_path / "out", cache)
    assert "words: 25 word(s) of 3 aligned turn(s), 1 turn(s) cannot be aligned" in done.stderr
    assert "have no alignment yet" not in done.stderr and "have no alignment yet" in before.stderr
    for name in OTHER_TABLES:
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "before" / name).read_bytes(), name

    rows = _rows(tmp_path / "out")
    turns = [("s1", "0", "system", PROMPT, "prompt.wav"), ("s1", "1", "user", ASKED, "u1.wav")]
    turns.append(("s2", "7", "user", SECOND, "u7.wav"))
    kept = AlignmentCache(cache / "alignments.sqlite3")
    at = 0
    for session_id, turn_id, speaker, text, audio in turns:
        (words,) = kept.kept([alignment_key(file_digest(corpus / audio), text)]).values()
        assert isinstance(words, list) and [w.text for w in words] == [w.text for w in text_words(text)]
        for index, word in enumerate(words):
            row = rows[at + index]
            assert (row["session_id"], row["turn_id"], row["speaker"]) == (session_id, turn_id, speaker)
            assert (row["word_index"], row["word"], row["source"]) == (str(index), word.text, "auto")
            assert float(row["start"]) == pytest.approx(word.start, abs=0.0005)
            assert float(row["end"]) == pytest.approx(word.end, abs=0.0005)
            assert float(row["score"]) == pytest.approx(word.score, abs=0.0005)
        at += len(words)
    kept.close()
    assert at == len(rows) == 25


def test_words_are_the_same_bytes_on_every_core_and_in_parquet_and_tables(
    corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    cache = tmp_path / "cache"
    assert run_annotator("align", corpus, env={"ANNOTATOR_CACHE_DIR": str(cache)}).returncode == 0
    _export(corpus, tmp_path / "one", cache, "--jobs", "1")
    _export(corpus, tmp_path / "two", cache, "--jobs", "2")
    words = (tmp_path / "one" / "words.csv").read_bytes()
    assert words == (tmp_path / "two" / "words.csv").read_bytes() and words.count(b"\n") == 26

    _export(corpus, tmp_path / "pq", cache, "--to", "parquet")
    expected = read_table(words, "words")
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "pq" / "words.parquet"), expected, check_dtype=True)
    assert expected["start"].dtype == "float64" and expected["word_index"].dtype == "int64"

    monkeypatch.setenv("ANNOTATOR_CACHE_DIR", str(cache))
    pd.testing.assert_frame_equal(annotator.tables(corpus).words, expected)

    # The window's export of the open log (its tree, not the stream) finds the same words.
    document = LogDocument.load(corpus / "a.xml")
    export_document_csv(document, tmp_path / "window")
    document.release()
    from_window = (tmp_path / "window" / "words.csv").read_bytes()
    assert words.startswith(from_window) and from_window.count(b"\n") == 1 + 6 + 9  # the header, turns 0 and 1
