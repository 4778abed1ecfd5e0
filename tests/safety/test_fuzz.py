"""Fuzzing: mutated logs either load or raise AnnotatorError, and whatever loads works everywhere.

Valid logs (the sample sessions and small generated ones) are mutated at
the byte level (flip, insert, delete, truncate, splice in hostile tokens) and
at the element level (drop attributes, junk where numbers or ids go,
duplicate / remove / move / rename elements, deep nesting, frames nested to the loader's limit,
thousands of attributes on one element, text anywhere).
A log that loads must then validate, compute metrics, summarise, extract,
export CSV, take an annotation, and save and reload to the same bytes, all
without any exception. About 200 examples in the default run; FUZZ_SCALE=N
runs N times as many. The mutants and exercise() are in tests/support/fuzzing.py.
"""

from __future__ import annotations

import pytest
from hypothesis import event, given

from tests.support.fuzzing import SAMPLES, byte_mutants, element_mutants, exercise, fuzz_settings

BYTE_EXAMPLES = 110
ELEMENT_EXAMPLES = 90


@fuzz_settings(BYTE_EXAMPLES)
@given(byte_mutants())
@pytest.mark.slow
def test_byte_level_mutants(data: bytes):
    event(exercise(data))


@fuzz_settings(ELEMENT_EXAMPLES)
@given(element_mutants())
@pytest.mark.slow
def test_element_level_mutants(data: bytes):
    event(exercise(data))


def test_the_seeds_themselves_pass():
    for data in SAMPLES:
        assert exercise(data).startswith("loaded")
