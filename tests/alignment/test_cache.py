"""The alignments kept in the user's cache: found again by content, never by where the log is."""

from __future__ import annotations

from annotator.alignment.cache import AlignmentCache, alignment_key, file_digest, read_kept
from annotator.alignment.engine import AlignedWord, NotAligned
from annotator.corpus_index.location import alignment_cache_file, cache_dir

WORDS = [AlignedWord("Boston,", 0.25, 0.71, -2.5, False), AlignedWord("café", 0.71, 1.2, -8.1, True)]


def test_the_cache_is_a_file_beside_the_corpus_indexes(tmp_path, monkeypatch):
    monkeypatch.setenv("ANNOTATOR_CACHE_DIR", str(tmp_path))
    assert alignment_cache_file().parent == cache_dir() == tmp_path


def test_what_is_kept_is_read_back_as_it_was(tmp_path):
    cache = AlignmentCache(tmp_path / "a.sqlite3")
    cache.keep({"k1": WORDS, "k2": NotAligned("silent audio", "the audio is silent")})
    cache.close()
    for found in (
        AlignmentCache(tmp_path / "a.sqlite3").kept(["k1", "k2", "k3"]),
        read_kept(tmp_path / "a.sqlite3", ["k1", "k2", "k3"]),
    ):
        assert found["k1"] == WORDS
        assert (found["k2"].reason, str(found["k2"])) == ("silent audio", "the audio is silent")
        assert "k3" not in found


def test_a_worker_finds_nothing_in_a_missing_or_damaged_file(tmp_path):
    assert read_kept(tmp_path / "none.sqlite3", ["k"]) == {}
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"not a database" * 100)
    assert read_kept(damaged, ["k"]) == {}


def test_a_damaged_cache_is_made_again_with_a_notice(tmp_path):
    damaged = tmp_path / "damaged.sqlite3"
    damaged.write_bytes(b"not a database" * 100)
    notices: list[str] = []
    cache = AlignmentCache(damaged, notices.append)
    cache.keep({"k": WORDS})
    assert cache.kept(["k"]) == {"k": WORDS}
    assert len(notices) == 1 and "alignment cache" in notices[0] and "made again" in notices[0]


def test_the_key_follows_the_audio_and_the_words_not_the_spacing(tmp_path):
    one, other = tmp_path / "one.wav", tmp_path / "other.wav"
    one.write_bytes(b"RIFF1")
    other.write_bytes(b"RIFF2")
    key = alignment_key(file_digest(one), "to  Boston\n")
    assert key == alignment_key(file_digest(one), "to Boston")
    assert key != alignment_key(file_digest(other), "to Boston")
    assert key != alignment_key(file_digest(one), "to Austin")
