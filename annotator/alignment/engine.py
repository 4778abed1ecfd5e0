"""Forced alignment of one turn: its words placed on its audio by pocketsphinx (docs/words.md).

The words are chained in a finite-state grammar, with silence allowed before and after them and between
them, and the acoustic model of the pocketsphinx wheel (US English, 16 kHz) finds where each is said; when
that search fails, a grammar without pauses between the words is tried. What that needed:
- beams of 1e-80: the default ones lose the only path on some utterances ("Final result does not match
  the grammar");
- pocketsphinx's own filler insertion off (fsgusefiller=False), silence written into the grammar instead,
  and 0.3 s of silence put around the audio: with no silence after the last word the search lost the
  last words of some utterances. Allowing pauses between words, the search fails on some sentences
  (a third at 8 kHz, a tenth at 16 kHz), but without them a pause is swallowed by a neighbouring word
  (which then starts or ends up to the pause's length off): so pauses first, and none when that fails;
- audio below 16 kHz (telephone audio at 8 kHz) upsampled, and dither added: the model's upper filter
  bands are empty in upsampled audio (and in digital silence), and sentences failed without the dither;
- the words are taken in order from the text, so the dictionary variants pocketsphinx names (`to(3)`)
  never show.
A word missing from the dictionary gets espeak-ng's pronunciation (pronunciation.py). Each turn has a
time limit: the audio is fed in one-second pieces and the work stops once the limit has passed.
"""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import numpy as np

from annotator.alignment.outcome import (  # noqa: F401 (ENGINE_VERSION and REASONS: the engine's, read from here too)
    ENGINE_VERSION,
    FAILED,
    NO_AUDIO,
    NO_WORDS,
    REASONS,
    SILENT,
    TOO_LONG,
    AlignedWord,
    NotAligned,
)
from annotator.alignment.pronunciation import pronunciation
from annotator.alignment.words import TextWord, text_words

RATE = 16_000  # what the acoustic model was trained on
FRAMES_PER_SECOND = 100
MIN_FRAMES_PER_PHONE = 3  # each phone's HMM has three states, each held at least one frame
MAX_SECONDS = 120.0  # a turn longer than this is not aligned ("too long")
TIME_LIMIT_S = 30.0  # of work per turn
SILENT_PEAK = 10 ** (-60 / 20)  # a turn whose loudest sample is below -60 dBFS holds nothing to align
# The noise added to the audio (-72 dBFS): with 1 or 2 steps of 16-bit audio some 8 kHz turns still failed.
DITHER = 8 / 32768
# A word whose log-likelihood per frame is below this is marked unsure: on espeak-ng speech the words said
# scored -6 or better and a word put in their place that was not said -9 or worse.
UNSURE_BELOW = -7.5
PAUSE_CHANCE = 0.1  # of a pause between two words, in the grammar that allows them
PAD_S = 0.3  # of silence put before and after the audio: the decoder's last frames never reach the last word
_PIECE = RATE  # samples fed to the decoder at once: the time limit is checked between pieces
_SILENCE = "<sil>"


def align_turn(
    audio: str | Path | np.ndarray, text: str | None, samplerate: int | None = None, *, time_limit: float = TIME_LIMIT_S
) -> list[AlignedWord]:
    """The words of TEXT on AUDIO (an audio file, or samples at SAMPLERATE), in order; raises NotAligned."""
    words = text_words(text)
    if not words:
        raise NotAligned(NO_WORDS, "the text has no words")
    samples, rate = _mono(audio, samplerate)
    duration = samples.shape[0] / rate
    if duration > MAX_SECONDS:
        raise _too_long(duration)
    if samples.shape[0] == 0 or float(np.max(np.abs(samples))) < SILENT_PEAK:
        raise NotAligned(SILENT, "the audio is silent")
    pcm = _decoder_input(samples, rate)
    with _decoders.lock:
        decoder = _decoders.get()
        return _aligned(decoder, pcm, words, duration, time.monotonic() + time_limit, time_limit)


def align_outcome(audio: str | Path, text: str | None) -> list[AlignedWord] | NotAligned:
    """align_turn's words for the audio file AUDIO, or why not: NotAligned is returned, not raised, and an error
    of the decoder's is a failed turn (one turn's failure, never its caller's). Picklable, for a child process."""
    try:
        return align_turn(audio, text)
    except NotAligned as reason:
        return reason
    except (RuntimeError, ValueError, MemoryError) as error:
        return NotAligned(FAILED, f"the aligner stopped: {type(error).__name__}: {error}")


def _aligned(
    decoder, pcm: np.ndarray, words: list[TextWord], duration: float, deadline: float, limit: float
) -> list[AlignedWord]:
    phones = [_known(decoder, word.spoken) for word in words]
    needed = MIN_FRAMES_PER_PHONE * sum(phones)
    frames = round(duration * FRAMES_PER_SECOND)
    if needed > frames:
        raise NotAligned(
            FAILED,
            f"{len(words)} words need at least {needed / FRAMES_PER_SECOND:.1f} s; the audio lasts {frames / FRAMES_PER_SECOND:.1f} s",
        )
    # The cepstral mean of the whole turn first (features only, no search: cheap), then the search fed piece by
    # piece from that mean, so that the time limit can be checked between pieces. Both start from the model's
    # own state, not the last turn's: the same audio aligns alike whatever came before.
    _use_grammar(decoder, words, pauses=True)  # a search must be active to start an utterance
    decoder.reinit_feat()
    decoder.set_cmn(_decoders.initial_mean)
    decoder.start_utt()
    decoder.process_raw(pcm.tobytes(), no_search=True, full_utt=True)
    mean = decoder.get_cmn(True)
    decoder.end_utt()
    for pauses in (True, False):
        if not pauses:
            _use_grammar(decoder, words, pauses)
        found = _search(decoder, pcm, len(words), mean, deadline, limit)
        if found is not None:
            return _placed(words, found, duration)
    raise NotAligned(FAILED, "the aligner found no way to say the text in this audio")


def _use_grammar(decoder, words: list[TextWord], pauses: bool) -> None:
    transitions, final = _chain(words, pauses)
    decoder.add_fsg("align", decoder.create_fsg("align", 0, final, transitions))
    decoder.activate_search("align")


def _search(decoder, pcm: np.ndarray, count: int, mean: str, deadline: float, limit: float) -> list | None:
    """The COUNT words' segments the active grammar finds in PCM, from the cepstral MEAN; None if it finds none."""
    decoder.set_cmn(mean)
    decoder.start_utt()
    try:
        for start in range(0, pcm.shape[0], _PIECE):
            if time.monotonic() > deadline:
                raise NotAligned(FAILED, f"stopped after the time limit of {limit:g} s")
            decoder.process_raw(pcm[start : start + _PIECE].tobytes())
    finally:
        decoder.end_utt()
    found = [segment for segment in (decoder.seg() or []) if not _is_filler(segment.word)]
    return found if decoder.hyp() is not None and len(found) == count else None


def _placed(words: list[TextWord], segments: list, duration: float) -> list[AlignedWord]:
    """The words at the times of SEGMENTS, on the audio's own clock (the padding taken off, within the audio)."""
    scores = [_per_frame(segment) for segment in segments]

    def seconds(frame: int) -> float:
        return round(min(max(frame / FRAMES_PER_SECOND - PAD_S, 0.0), duration), 3)

    return [
        AlignedWord(
            word.text,
            seconds(segment.start_frame),
            seconds(segment.end_frame + 1),
            round(score, 3),
            score < UNSURE_BELOW,
        )
        for word, segment, score in zip(words, segments, scores)
    ]


def _per_frame(segment) -> float:
    frames = max(1, segment.end_frame - segment.start_frame + 1)
    return math.log(max(segment.ascore, 1e-300)) / frames


def _chain(words: list[TextWord], pauses: bool) -> tuple[list[tuple], int]:
    """The grammar's transitions and its final state: the words in order, silence allowed before the first
    and after the last and, with PAUSES, between two words."""
    transitions: list[tuple] = [(0, 1, 0.5, _SILENCE), (0, 1, 0.5)]
    state = 1
    for index, word in enumerate(words):
        if pauses and index:
            transitions += [(state, state + 1, PAUSE_CHANCE, _SILENCE), (state, state + 1, 1 - PAUSE_CHANCE)]
            state += 1
        transitions.append((state, state + 1, 1.0, word.spoken))
        state += 1
    return [*transitions, (state, state + 1, 0.5, _SILENCE), (state, state + 1, 0.5)], state + 1


def _known(decoder, spoken: str) -> int:
    """How many phones SPOKEN has, added to the dictionary by letter to sound when missing."""
    phones = decoder.lookup_word(spoken)
    if phones is None:
        phones = pronunciation(spoken)
        decoder.add_word(spoken, phones, True)
    return len(phones.split())


def _is_filler(word: str) -> bool:
    return word.startswith(("<", "[", "+"))


def _mono(audio: str | Path | np.ndarray, samplerate: int | None) -> tuple[np.ndarray, int]:
    if isinstance(audio, np.ndarray):
        if samplerate is None or samplerate <= 0:
            raise ValueError("samples need their sample rate")
        samples = np.asarray(audio, dtype=np.float32)
        return (samples.mean(axis=1) if samples.ndim == 2 else samples), int(samplerate)
    from annotator.audio import load_audio
    from annotator.errors import AudioError

    _refuse_long(Path(audio))
    try:
        clip = load_audio(audio, max_seconds=MAX_SECONDS * 10)
    except AudioError as error:
        raise NotAligned(NO_AUDIO, str(error)) from None
    return clip.samples.mean(axis=1), clip.samplerate


def _too_long(duration: float) -> NotAligned:
    return NotAligned(TOO_LONG, f"{duration:.0f} s of audio, more than the {MAX_SECONDS:.0f} s a turn may last")


def _refuse_long(path: Path) -> None:
    """A file whose header says it lasts more than MAX_SECONDS is refused before it is decoded (an hour of
    audio is not read to be turned down); a header that cannot be read is load_audio's to report."""
    import soundfile

    try:
        duration = soundfile.info(str(path)).duration
    except (soundfile.SoundFileError, RuntimeError, ValueError, TypeError, OSError):
        return
    if duration > MAX_SECONDS:
        raise _too_long(duration)


def _decoder_input(samples: np.ndarray, rate: int) -> np.ndarray:
    """SAMPLES as the decoder takes them: 16 kHz, 16-bit, dithered (digital silence, exact zeros, and the empty
    upper bands of upsampled audio give the model's log energies nothing to stand on)."""
    samples = np.nan_to_num(samples.astype(np.float32), nan=0.0, posinf=1.0, neginf=-1.0)
    if rate != RATE:
        import soxr

        samples = soxr.resample(samples, rate, RATE, quality="HQ").astype(np.float32)
    pad = np.zeros(round(PAD_S * RATE), dtype=np.float32)
    samples = np.concatenate([pad, samples, pad])
    # Seeded: the same audio aligns alike every time.
    noise = np.asarray(np.random.default_rng(0).normal(0.0, DITHER, samples.shape[0]), dtype=np.float32)
    samples = samples + noise
    return np.round(np.clip(samples, -1.0, 1.0) * 32767).astype(np.int16)


class _Decoders:
    """One decoder per thread, made on its first use (loading the model takes a fraction of a second); the
    lock keeps espeak-ng's and the decoder's global state to one alignment at a time per process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self._local = threading.local()
        self.initial_mean = ""  # the model's own cepstral mean, where each turn starts from

    def get(self):
        decoder = getattr(self._local, "decoder", None)
        if decoder is None:
            from pocketsphinx import Decoder

            decoder = Decoder(
                lm=None, cmn="live", beam=1e-80, wbeam=1e-80, pbeam=1e-80, fsgusefiller=False, loglevel="FATAL"
            )
            self._local.decoder = decoder
            self.initial_mean = decoder.get_cmn()
        return decoder


_decoders = _Decoders()
