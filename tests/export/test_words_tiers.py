"""The words tiers of the TextGrid and ELAN exports: each aligned word where the session's WAV has it,
read back by the real Praat and by the EAF reader, on real speech said by espeak-ng."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import soundfile

from annotator.alignment.cache import AlignmentCache, alignment_key, file_digest
from annotator.export.eaf_file import read_eaf_tiers
from tests.support.cli import run_annotator
from tests.support.praat import needs_praat, praat
from tests.support.spoken_sentences import needs_speech, spoken
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log

pytestmark = [needs_speech, pytest.mark.slow]

ASKED = "I would like to fly to Boston on Tuesday"
PROMPT = "Where would you like to fly"
BEFORE = ["turns", "recognizer", "transcription", "system"]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tiers")
    corpus = folder / "corpus"
    corpus.mkdir()
    spoken(folder, PROMPT, 8000, "prompt").path.rename(corpus / "prompt.wav")
    spoken(folder, ASKED, 8000, "asked").path.rename(corpus / "u1.wav")
    turns = [system_turn("0", 1000.0, PROMPT, audio="prompt.wav"), user_turn("1", 1004.0, ASKED)]
    write_log(corpus / "a.xml", log_text([session("s1", turns, start=999.0, end=1010.0)]))
    return corpus


def _export(corpus: Path, kind: str, out: Path, cache: Path) -> dict[str, str]:
    done = run_annotator("export", corpus, "--to", kind, "-o", out, env={"ANNOTATOR_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr
    with open(out / "index.csv", encoding="utf-8", newline="") as stream:
        (row,) = csv.DictReader(stream)
    return row


def _praat_tiers(grid: Path) -> dict[str, list[tuple[float, float, str]]]:
    tiers: dict[str, list[tuple[float, float, str]]] = {}
    for line in praat("report.praat", grid, grid.with_suffix(".wav")).splitlines():
        kind, *fields = line.split("\t")
        if kind == "tier":
            tiers[fields[0]] = []
        elif kind == "interval":
            tiers[fields[0]].append((float(fields[1]), float(fields[2]), fields[3]))
    return tiers


def _heard_at(clip: Path, wav: Path, channel: int) -> float:
    """Where the session's WAV has CLIP on CHANNEL, in seconds: found from the samples, not from the export's code."""
    samples, rate = soundfile.read(clip, dtype="int16", always_2d=True)
    mixed, mixed_rate = soundfile.read(wav, dtype="int16", always_2d=True)
    assert rate == mixed_rate
    return (np.flatnonzero(mixed[:, channel])[0] - np.flatnonzero(samples[:, 0])[0]) / rate


@needs_praat
def test_praat_reads_a_words_tier_per_side_where_the_wav_has_each_word(corpus: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    unaligned = _export(corpus, "textgrid", tmp_path / "unaligned", cache)
    assert list(_praat_tiers(tmp_path / "unaligned" / unaligned["textgrid"])) == BEFORE

    assert run_annotator("align", corpus, env={"ANNOTATOR_CACHE_DIR": str(cache)}).returncode == 0
    row = _export(corpus, "textgrid", tmp_path / "out", cache)
    grid, wav = tmp_path / "out" / row["textgrid"], tmp_path / "out" / row["wav"]
    tiers = _praat_tiers(grid)
    assert list(tiers) == [*BEFORE, "user words", "system words"]
    kept = AlignmentCache(cache / "alignments.sqlite3")
    for tier, audio, text, channel in (("user words", "u1.wav", ASKED, 0), ("system words", "prompt.wav", PROMPT, 1)):
        (words,) = kept.kept([alignment_key(file_digest(corpus / audio), text)]).values()
        assert isinstance(words, list) and len(words) == len(text.split())
        at = _heard_at(corpus / audio, wav, channel)
        assert [label for _, _, label in tiers[tier]] == [word.text for word in words]
        for (start, end, _), word in zip(tiers[tier], words):
            assert start == pytest.approx(at + word.start, abs=0.002) and end == pytest.approx(at + word.end, abs=0.002)
    kept.close()
    folded = run_annotator("fold", corpus / "a.xml", grid, "-o", tmp_path / "folded.xml")
    assert folded.returncode == 0, folded.stderr  # the words tiers are not folded, and do not stop a fold
    assert (tmp_path / "out" / row["wav"]).read_bytes() == (tmp_path / "unaligned" / unaligned["wav"]).read_bytes()


def test_the_elan_file_carries_the_same_words_tiers(corpus: Path, tmp_path: Path):
    cache = tmp_path / "cache"
    assert run_annotator("align", corpus, env={"ANNOTATOR_CACHE_DIR": str(cache)}).returncode == 0
    row = _export(corpus, "eaf", tmp_path / "elan", cache)
    tiers, session_id = read_eaf_tiers(tmp_path / "elan" / row["eaf"])
    assert session_id == "s1"
    by_name = {tier.name: tier.intervals for tier in tiers}
    assert [tier.name for tier in tiers] == [*BEFORE, "user words", "system words"]
    assert [interval.text for interval in by_name["user words"]] == ASKED.split()
    assert [interval.text for interval in by_name["system words"]] == PROMPT.split()
    words = by_name["user words"]
    assert all(a.end <= b.start for a, b in zip(words, words[1:])) and words[0].start >= 5000  # after the turn starts
