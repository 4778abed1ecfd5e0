"""Letter to sound for words the aligner's dictionary lacks: a made-up name, a spelled-out number, a
hyphenated or accented word gets espeak-ng's pronunciation, its IPA phonemes mapped to the CMU phone set
the acoustic model knows.

libespeak-ng and its data come from the espeakng-loader wheel, so the standalone app needs no system
espeak; without the wheel, the system's libespeak-ng is used. espeak-ng keeps global state, so one lock
guards every call into it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
import unicodedata

_IPA_SEPARATED = 0x02 | (ord("_") << 8)  # espeak_TextToPhonemes: IPA, phonemes separated by "_"
_SYNCHRONOUS, _DONT_EXIT = 2, 0x8000
_UTF8 = 1
# IPA as espeak-ng's en-us voice writes it -> CMU phones; the longest match is taken first.
_IPA_TO_CMU = {
    "aɪ": "AY",
    "aʊ": "AW",
    "eɪ": "EY",
    "oʊ": "OW",
    "ɔɪ": "OY",
    "əʊ": "OW",
    "tʃ": "CH",
    "dʒ": "JH",
    "iː": "IY",
    "uː": "UW",
    "ɑː": "AA",
    "ɔː": "AO",
    "ɜː": "ER",
    "oː": "OW",
    "aː": "AA",
    "eː": "EY",
    "n̩": "AH N",
    "l̩": "AH L",
    "m̩": "AH M",
    "ɚ": "ER",
    "ɝ": "ER",
    "ɜ": "ER",
    "a": "AA",
    "æ": "AE",
    "ɑ": "AA",
    "ɒ": "AA",
    "ɔ": "AO",
    "ə": "AH",
    "ʌ": "AH",
    "ɐ": "AH",
    "ɛ": "EH",
    "e": "EH",
    "ɪ": "IH",
    "ᵻ": "IH",
    "ɨ": "IH",
    "i": "IY",
    "o": "OW",
    "ʊ": "UH",
    "u": "UW",
    "y": "UW",
    "ø": "UH",
    "œ": "EH",
    "ɵ": "UH",
    "b": "B",
    "d": "D",
    "ð": "DH",
    "f": "F",
    "ɡ": "G",
    "g": "G",
    "h": "HH",
    "k": "K",
    "l": "L",
    "ɫ": "L",
    "ɬ": "L",
    "m": "M",
    "n": "N",
    "ɲ": "N Y",
    "ŋ": "NG",
    "p": "P",
    "ɹ": "R",
    "r": "R",
    "ɾ": "T",
    "s": "S",
    "ʃ": "SH",
    "t": "T",
    "θ": "TH",
    "v": "V",
    "w": "W",
    "ʍ": "W",
    "j": "Y",
    "z": "Z",
    "ʒ": "ZH",
    "ʔ": "T",
    "x": "K",
    "ç": "HH",
    "c": "K",
    "ɟ": "G",
    "β": "B",
    "ɣ": "G",
    "ʎ": "L Y",
}
_LONGEST = max(len(ipa) for ipa in _IPA_TO_CMU)
FALLBACK = "AH"  # what a word gets when espeak-ng gives it nothing: it is aligned all the same

_lock = threading.Lock()
_library: ctypes.CDLL | None = None


def pronunciation(word: str) -> str:
    """WORD's pronunciation in CMU phones, space-separated, never empty."""
    phones = cmu_phones(espeak_ipa(word))
    return " ".join(phones) if phones else FALLBACK


def cmu_phones(ipa: str) -> list[str]:
    """IPA phonemes (stress and length marks, separators and unknown symbols ignored) as CMU phones."""
    text = unicodedata.normalize("NFC", ipa)
    for mark in "ˈˌ_-‿ \u0361\u035c":
        text = text.replace(mark, "")
    phones: list[str] = []
    at = 0
    while at < len(text):
        for size in range(min(_LONGEST, len(text) - at), 0, -1):
            found = _IPA_TO_CMU.get(text[at : at + size])
            if found is not None:
                phones.extend(found.split())
                at += size
                break
        else:
            at += 1  # a symbol with no counterpart (a length mark, a diacritic)
    return phones


def espeak_ipa(word: str) -> str:
    """espeak-ng's IPA for WORD in US English ("" when espeak-ng is not there)."""
    with _lock:
        library = _espeak()
        if library is None:
            return ""
        pointer = ctypes.c_char_p(word.encode("utf-8"))
        pieces = []
        while pointer.value:
            result = library.espeak_TextToPhonemes(ctypes.byref(pointer), _UTF8, _IPA_SEPARATED)
            if result is None:
                break
            pieces.append(result.decode("utf-8", "replace"))
        return "_".join(pieces)


def _espeak() -> ctypes.CDLL | None:
    global _library
    if _library is None:
        found = _load()
        if found is None:
            return None
        library, data = found
        library.espeak_TextToPhonemes.restype = ctypes.c_char_p
        library.espeak_TextToPhonemes.argtypes = [ctypes.POINTER(ctypes.c_char_p), ctypes.c_int, ctypes.c_int]
        library.espeak_Initialize.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        library.espeak_SetVoiceByName.argtypes = [ctypes.c_char_p]
        if library.espeak_Initialize(_SYNCHRONOUS, 0, data, _DONT_EXIT) <= 0:
            return None
        library.espeak_SetVoiceByName(b"en-us")
        _library = library
    return _library


def _load() -> tuple[ctypes.CDLL, bytes | None] | None:
    try:
        import espeakng_loader

        return ctypes.CDLL(espeakng_loader.get_library_path()), espeakng_loader.get_data_path().encode()
    except (ImportError, OSError):
        pass
    name = ctypes.util.find_library("espeak-ng")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name), None
    except OSError:
        return None
