"""Speech whose word times are known: espeak-ng's library says a text and reports where each word starts
(its espeakEVENT_WORD events carry the sample). Run as a child process (`python -m tests.support.espeak_words
OUT.wav TEXT`), so that the synthesizer's global state never meets the aligner's letter to sound in the
process under test; it writes OUT.wav at espeak-ng's rate and prints the words' starts in seconds, as JSON.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import math
import sys

import numpy as np
import soundfile

_WORD, _END, _LIST_TERMINATED = 1, 5, 0
_SYNCHRONOUS, _DONT_EXIT, _UTF8, _BY_CHARACTER = 2, 0x8000, 1, 1


class _Event(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_int),
        ("unique_identifier", ctypes.c_uint),
        ("text_position", ctypes.c_int),
        ("length", ctypes.c_int),
        ("audio_position", ctypes.c_int),
        ("sample", ctypes.c_int),
        ("user_data", ctypes.c_void_p),
        ("id", ctypes.c_char * 8),
    ]


_Callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_short), ctypes.c_int, ctypes.POINTER(_Event))


def _library() -> tuple[ctypes.CDLL, bytes | None]:
    try:
        import espeakng_loader

        return ctypes.CDLL(espeakng_loader.get_library_path()), espeakng_loader.get_data_path().encode()
    except ImportError:
        return ctypes.CDLL(ctypes.util.find_library("espeak-ng") or "libespeak-ng.so.1"), None


def say(text: str) -> tuple[np.ndarray, int, list[float], float]:
    """TEXT said: the samples (int16), their rate, the start in seconds of each piece of TEXT between white
    space (espeak-ng may say a piece as several words, "twenty-three": the piece starts with the first), and
    where the speech ends."""
    library, data = _library()
    library.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
    rate = library.espeak_Initialize(_SYNCHRONOUS, 0, data, _DONT_EXIT)
    library.espeak_SetVoiceByName(b"en-us")
    pieces: list[np.ndarray] = []
    words: list[tuple[int, float]] = []  # (the character where espeak-ng's word begins, counted from 1; seconds)
    ends: list[float] = []

    def heard(wave, count, events):
        if count > 0:
            pieces.append(np.ctypeslib.as_array(wave, (count,)).copy())
        index = 0
        while events[index].type != _LIST_TERMINATED:
            event = events[index]
            if event.type == _WORD:
                words.append((event.text_position, event.sample / rate))
            elif event.type == _END:
                ends.append(event.sample / rate)
            index += 1
        return 0

    callback = _Callback(heard)
    library.espeak_SetSynthCallback(callback)
    encoded = text.encode("utf-8")
    library.espeak_Synth(
        ctypes.c_char_p(encoded), ctypes.c_size_t(len(encoded) + 1), 0, _BY_CHARACTER, 0, _UTF8, None, None
    )
    samples = np.concatenate(pieces) if pieces else np.zeros(0, np.int16)
    return samples, rate, _piece_starts(text, words), ends[-1] if ends else samples.shape[0] / rate


def _piece_starts(text: str, words: list[tuple[int, float]]) -> list[float]:
    """Each piece's start, NaN where it is not known: espeak-ng says some short words with the next as one
    word ("the afternoon", "and I"), whose event names the later piece but starts at the earlier one, so
    neither start is known."""
    own, at = [], 0
    for piece in text.split():
        begin = text.index(piece, at)
        at = begin + len(piece)
        inside = [seconds for position, seconds in words if begin < position <= at]
        own.append(min(inside) if inside else math.nan)
    return [math.nan if index and math.isnan(own[index - 1]) else start for index, start in enumerate(own)]


def main() -> None:
    out, text = sys.argv[1], sys.argv[2]
    samples, rate, starts, end = say(text)
    soundfile.write(out, samples, rate, subtype="PCM_16")
    print(json.dumps({"starts": starts, "end": end}))


if __name__ == "__main__":
    main()
