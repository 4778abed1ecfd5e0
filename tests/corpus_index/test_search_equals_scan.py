"""Every answer of the index equals a plain scan of the files: generated corpora (sample logs whose
transcriptions are generated words) and generated queries (words, phrases, prefixes, FTS5's own
syntax typed as words), through the same functions `annotator search` runs."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from annotator.corpus_index.corpus import open_index, up_to_date
from annotator.corpus_index.query import BadQuery
from annotator.corpus_index.search import FIELD_CHOICES, search_index
from tests.support.plain_scan import scan, terms_of
from tests.support.planted_logs import plant
from tests.support.repository import sample_log_paths

WORDS = [
    "flight",
    "flights",
    "fly",
    "Boston",
    "boston's",
    "São",
    "sao",
    "to",
    "from",
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "a-b",
    "x_y",
    "(x)",
    "col:umn",
    "^top",
    "10",
    "10:30",
    "Denver",
    "denver",
]
USER_TURNS = {0: ["2", "4", "6"], 1: ["02", "04"], 2: ["2", "4", "6"]}
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)
word = st.sampled_from(WORDS + ["fli", "bos", "book", "your", "is", "Austin", "paulo", '"', "*", "-", "()"])


@st.composite
def queries(draw) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["word", "prefix", "phrase", "open phrase"]))
        if kind == "word":
            parts.append(draw(word))
        elif kind == "prefix":
            parts.append(draw(word)[: draw(st.integers(1, 4))] + "*")
        else:
            inner = " ".join(draw(st.lists(word, min_size=1, max_size=3)))
            parts.append(f'"{inner}"' if kind == "phrase" else f'"{inner}')
    return " ".join(parts)


@st.composite
def corpora(draw) -> dict[int, dict[str, str]]:
    """Which sample logs the corpus holds and their turns' planted transcriptions."""
    chosen = draw(st.sets(st.integers(0, 2), min_size=1))
    return {number: draw(st.dictionaries(st.sampled_from(USER_TURNS[number]), text)) for number in sorted(chosen)}


def _build(folder: Path, plan: dict[int, dict[str, str]]) -> None:
    samples = sample_log_paths()
    for number, transcriptions in plan.items():
        target = folder / samples[number].parent.name / samples[number].name
        target.parent.mkdir(parents=True)
        shutil.copyfile(samples[number], target)
        if transcriptions:
            plant(target, transcriptions)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    plan=corpora(), asked=st.lists(st.tuples(queries(), st.sampled_from(list(FIELD_CHOICES))), min_size=1, max_size=8)
)
@pytest.mark.slow
def test_every_search_equals_a_scan_of_the_files(plan, asked, monkeypatch):
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary) / "corpus"
        monkeypatch.setenv("ANNOTATOR_CACHE_DIR", str(Path(temporary) / "cache"))
        _build(folder, plan)
        store = open_index([folder])
        try:
            keys = up_to_date(store, [folder])
            for query, field in asked:
                if not terms_of(query):
                    with pytest.raises(BadQuery):
                        search_index(store, keys, query, FIELD_CHOICES[field])
                    continue
                found = [
                    (str(hit.file), hit.session_id, hit.turn_id, hit.field, hit.text)
                    for hit in search_index(store, keys, query, FIELD_CHOICES[field])
                ]
                assert found == scan([folder], query, field), (query, field)
        finally:
            store.close()
