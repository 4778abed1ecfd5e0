"""Letter to sound: espeak-ng's phonemes in the CMU phone set the acoustic model knows."""

from __future__ import annotations

import pytest

from annotator.alignment.pronunciation import FALLBACK, cmu_phones, pronunciation
from annotator.alignment.words import text_words

CMU_PHONES = set(
    "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH".split()
)


def test_ipa_is_read_longest_symbol_first():
    assert cmu_phones("h_ə_l_ˈoʊ") == ["HH", "AH", "L", "OW"]
    assert cmu_phones("tʃ_ˈɜː_tʃ") == ["CH", "ER", "CH"]


@pytest.mark.parametrize("word", ["zbigniew", "twenty-three", "café", "quorlax", "o'hare", "3", "naïve"])
def test_a_word_missing_from_the_dictionary_gets_cmu_phones(word):
    phones = pronunciation(word).split()
    assert phones and phones != [FALLBACK]
    assert set(phones) <= CMU_PHONES


def test_the_words_of_a_text_keep_each_piece_but_marks_and_lone_punctuation():
    words = text_words("[noise] Well, twenty-three -- tickets to <sil> São Paulo? {breath} ?")
    assert [word.text for word in words] == ["Well,", "twenty-three", "tickets", "to", "São", "Paulo?"]
    assert [word.spoken for word in words] == ["well", "twenty-three", "tickets", "to", "são", "paulo"]
