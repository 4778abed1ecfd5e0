"""`annotator align` end to end, in a child process, on logs whose turns have real speech."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import numpy as np
import pytest
import soundfile

from tests.support.cli import run_annotator
from tests.support.spoken_sentences import needs_speech, spoken
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

pytestmark = [needs_speech, pytest.mark.slow]

ASKED = "I would like to fly to Boston on Tuesday"
PROMPT = "Where would you like to fly"


def _corpus(folder: Path) -> Path:
    corpus = folder / "corpus"
    corpus.mkdir()
    spoken(folder, ASKED, 8000).path.rename(corpus / "u1.wav")
    spoken(folder, PROMPT, 8000, "prompt").path.rename(corpus / "prompt.wav")
    soundfile.write(corpus / "u2.wav", np.zeros(8000, np.int16), 8000)
    (corpus / "u4.wav").write_bytes((corpus / "u1.wav").read_bytes())
    turns = [
        system_turn("0", 999.0, PROMPT, audio="prompt.wav"),
        user_turn("1", 1000.0, ASKED),
        user_turn("2", 1003.0, "hello"),  # silent audio
        user_turn("3", 1006.0, "goodbye"),  # its u3.wav is missing
        user_turn("4", 1009.0, ""),  # the recognizer heard nothing
    ]
    write_log(corpus / "session.xml", log_text([session("s1", turns)]))
    return corpus


def _contents(folder: Path) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.iterdir())}


def _counts(stderr: str) -> tuple[int, int, int]:
    found = re.search(r"(\d+) turn\(s\) aligned \((\d+) now, (\d+) kept from before\), (\d+) skipped", stderr)
    assert found, stderr
    return int(found[2]), int(found[3]), int(found[4])


def test_every_turn_with_audio_and_words_is_aligned_and_the_others_say_why(tmp_path):
    corpus = _corpus(tmp_path)
    before = _contents(corpus)
    first = run_annotator("align", corpus, "--jobs", "1")
    assert first.returncode == 0, first.stderr
    assert _counts(first.stderr) == (2, 0, 3)
    assert first.stdout == ""
    lines = [line for line in first.stderr.splitlines() if "skipped," in line]
    assert len(lines) == 3
    assert "session s1 turn 2 (user): skipped, silent audio" in lines[0]
    assert "session s1 turn 3 (user): skipped, no audio: audio file not found: u3.wav" in lines[1]
    assert "session s1 turn 4 (user): skipped, no words" in lines[2]
    assert _contents(corpus) == before  # nothing is written into the corpus

    again = run_annotator("align", corpus, "--jobs", "1")
    assert again.returncode == 0 and _counts(again.stderr) == (0, 2, 3)
    assert again.stderr.splitlines()[:3] == first.stderr.splitlines()[:3]

    forced = run_annotator("align", corpus, "--jobs", "1", "--force")
    assert forced.returncode == 0 and _counts(forced.stderr) == (2, 0, 3)


def test_the_alignments_are_those_of_the_engine(tmp_path):
    from annotator.alignment import align_turn
    from annotator.alignment.cache import AlignmentCache, alignment_key, file_digest

    corpus = _corpus(tmp_path)
    cache = tmp_path / "own-cache"
    assert run_annotator("align", corpus, env={"ANNOTATOR_CACHE_DIR": str(cache)}).returncode == 0
    kept = AlignmentCache(cache / "alignments.sqlite3").kept([alignment_key(file_digest(corpus / "u1.wav"), ASKED)])
    assert list(kept.values()) == [align_turn(corpus / "u1.wav", ASKED)]


def test_on_every_core_the_output_is_the_same(tmp_path):
    corpus = _corpus(tmp_path)
    (corpus / "second.xml").write_bytes((corpus / "session.xml").read_bytes())
    serial = run_annotator("align", corpus, "--jobs", "1", "--force")
    parallel = run_annotator("align", corpus, "--jobs", "2", "--force")
    assert parallel.returncode == serial.returncode == 0
    assert parallel.stderr == serial.stderr and serial.stderr.count("skipped,") == 6


def test_a_log_that_cannot_be_read_is_named_and_the_others_are_aligned(tmp_path):
    corpus = _corpus(tmp_path)
    (corpus / "broken.xml").write_text("<GC_LOG><GC_SESSION", encoding="utf-8")
    done = run_annotator("align", corpus, "--jobs", "1")
    assert done.returncode == 2
    assert "broken.xml" in done.stderr and "Traceback" not in done.stderr
    assert _counts(done.stderr) == (2, 0, 3)


def test_a_dask_cluster_aligns_as_one_process_does(cluster, small_corpus, tmp_path):
    cache = {"ANNOTATOR_CACHE_DIR": str(tmp_path / "cache")}
    given = [small_corpus / "site-0", small_corpus / "site-1", "--force"]
    serial = run_annotator("align", *given, "--jobs", "1", env=cache)
    dask = run_annotator("align", *given, "--scheduler", cluster, env=cache)
    assert (dask.returncode, dask.stdout, dask.stderr) == (serial.returncode, serial.stdout, serial.stderr)
    assert serial.returncode == 2 and "a-truncated-hublog.xml" in serial.stderr
    assert _counts(serial.stderr) == (72, 0, 0)
