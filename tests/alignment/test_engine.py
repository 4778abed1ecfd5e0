"""The aligner on real speech (espeak-ng, whose word events give the truth) and real pocketsphinx."""

from __future__ import annotations

import math
import statistics

import numpy as np
import pytest
import soundfile

from annotator.alignment import AlignedWord, NotAligned, align_turn
from tests.support.spoken_sentences import needs_speech, sentences

pytestmark = needs_speech

SENTENCES = sentences(6)


def _start_errors(words: list[AlignedWord], starts: list[float]) -> list[float]:
    """How far each word's start is from the truth, where the truth is known."""
    assert len(words) == len(starts)
    return [abs(word.start - start) for word, start in zip(words, starts) if not math.isnan(start)]


@pytest.mark.slow
@pytest.mark.parametrize(("rate", "median_ms"), [(16000, 25), (8000, 40)])
def test_words_are_placed_where_they_were_said(say, rate, median_ms):
    errors = []
    for text in SENTENCES:
        said = say(text, rate)
        errors += _start_errors(align_turn(said.path, text), said.starts)
    assert statistics.median(errors) <= median_ms / 1000
    assert sum(error <= 0.1 for error in errors) >= 0.85 * len(errors)


@pytest.mark.parametrize("rate", [16000, 8000])
def test_a_pause_between_words_belongs_to_neither(say, tmp_path, rate):
    said = say("I would like to fly from Pittsburgh to Boston on Tuesday morning", rate)
    samples, _ = soundfile.read(said.path, dtype="float32")
    cut = round(said.starts[6] * rate)  # before "Pittsburgh": half a second of silence
    paused = tmp_path / "paused.wav"
    soundfile.write(paused, np.concatenate([samples[:cut], np.zeros(rate // 2, np.float32), samples[cut:]]), rate)
    words = align_turn(paused, said.text)
    assert abs(words[5].end - said.starts[6]) <= 0.1  # "from" ends where the pause starts
    assert abs(words[6].start - (said.starts[6] + 0.5)) <= 0.1


def test_samples_and_their_rate_align_as_the_file_does(say):
    said = say(SENTENCES[0], 8000)
    samples, rate = soundfile.read(said.path, dtype="float32")
    assert align_turn(samples, said.text, samplerate=rate) == align_turn(said.path, said.text)


def test_words_come_back_as_written_in_order_and_within_the_audio(say):
    said = say("my name is Zbigniew and I said twenty-three café tickets, please.", 8000)
    words = align_turn(said.path, "my name is Zbigniew and I said twenty-three [noise] café tickets, please.")
    assert [word.text for word in words] == [
        "my", "name", "is", "Zbigniew", "and", "I", "said", "twenty-three", "café", "tickets,", "please.",
    ]  # fmt: skip
    assert all(0 <= word.start < word.end <= said.end + 0.5 for word in words)
    assert all(before.end <= after.start for before, after in zip(words, words[1:]))
    made_up = [words[3], words[7], words[8]]
    truth = [said.starts[3], said.starts[7], said.starts[8]]
    assert max(_start_errors(made_up, truth)) <= 0.2


def test_a_word_that_was_not_said_is_unsure(say):
    said = say("I would like to fly to Boston on Tuesday", 16000)
    right = align_turn(said.path, said.text)
    wrong = align_turn(said.path, "I would like to fly to Zbigniew on Tuesday")
    assert not any(word.unsure for word in right)
    assert wrong[6].unsure and wrong[6].score < right[6].score


def test_missing_audio_is_no_audio(tmp_path):
    with pytest.raises(NotAligned) as caught:
        align_turn(tmp_path / "gone.wav", "hello there")
    assert caught.value.reason == "no audio" and "gone.wav" in str(caught.value)


def test_silent_audio_is_silent_audio(tmp_path):
    path = tmp_path / "silence.wav"
    soundfile.write(path, np.zeros(16000, np.int16), 8000)
    with pytest.raises(NotAligned) as caught:
        align_turn(path, "hello there")
    assert caught.value.reason == "silent audio"


@pytest.mark.parametrize("text", ["", "   ", "[noise] <sil> {breath}", None, "-- ?"])
def test_a_text_without_words_is_no_words(say, text):
    with pytest.raises(NotAligned) as caught:
        align_turn(say(SENTENCES[0], 8000).path, text)
    assert caught.value.reason == "no words"


def test_clipped_audio_aligns_at_16_khz(say, tmp_path):
    said = say(SENTENCES[1], 16000)
    samples, rate = soundfile.read(said.path, dtype="float32")
    clipped = tmp_path / "clipped.wav"
    soundfile.write(clipped, np.clip(samples * 10, -1, 1), rate)
    words = align_turn(clipped, said.text)
    assert statistics.median(_start_errors(words, said.starts)) <= 0.05


def test_badly_clipped_telephone_audio_is_aligned_or_said_to_fail(say, tmp_path):
    said = say(SENTENCES[1], 8000)
    samples, rate = soundfile.read(said.path, dtype="float32")
    clipped = tmp_path / "clipped.wav"
    soundfile.write(clipped, np.clip(samples * 10, -1, 1), rate)
    try:
        words = align_turn(clipped, said.text)
    except NotAligned as failed:
        assert failed.reason == "failed"
    else:
        assert len(words) == len(said.starts)


def test_ten_minutes_of_audio_is_too_long_and_says_so_at_once(tmp_path):
    path = tmp_path / "long.wav"
    noise = np.random.default_rng(1).normal(0, 0.1, 8000 * 600).astype(np.float32)
    soundfile.write(path, noise, 8000, subtype="PCM_16")
    with pytest.raises(NotAligned) as caught:
        align_turn(path, "hello there")
    assert caught.value.reason == "too long" and "600 s" in str(caught.value)


def test_an_hour_of_audio_is_too_long_not_missing(tmp_path):
    path = tmp_path / "hour.wav"
    soundfile.write(path, np.zeros(1000 * 3600, np.int16), 1000)  # 7 MB: the lowest rate audio is read at
    with pytest.raises(NotAligned) as caught:
        align_turn(path, "hello there")
    assert caught.value.reason == "too long" and "3600 s" in str(caught.value)


def test_five_hundred_words_on_one_second_fail_without_searching(tmp_path):
    path = tmp_path / "second.wav"
    soundfile.write(path, np.random.default_rng(2).normal(0, 0.1, 8000).astype(np.float32), 8000)
    with pytest.raises(NotAligned) as caught:
        align_turn(path, " ".join(["boston"] * 500))
    assert caught.value.reason == "failed" and "500 words" in str(caught.value)


def test_a_turn_past_its_time_limit_stops(say):
    said = say(SENTENCES[2], 8000)
    with pytest.raises(NotAligned) as caught:
        align_turn(said.path, said.text, time_limit=0.0)
    assert caught.value.reason == "failed" and "time limit" in str(caught.value)
