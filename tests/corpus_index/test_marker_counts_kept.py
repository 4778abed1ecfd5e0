"""The session browser's rows with markers come from the index while a log and the marker files are unchanged:
the same rows a full read gives, and only the changed logs read again (annotator.corpus_index.browser_rows)."""

from __future__ import annotations

from pathlib import Path

from annotator.corpus.parallel import serial_map
from annotator.corpus.scan import scan_corpus
from annotator.corpus_index.browser_rows import browser_rows, iter_marked_corpus
from annotator.markers import load_markers, shipped_kpis_path
from annotator.markers.language import MarkerSet
from tests.support.planted_logs import plant

NEVER = lambda: False  # noqa: E731 - never cancelled
OTHER_MARKERS = """\
user_asked_boston:
  text_matches: "(?i)boston"
"""


class CountingMap:
    """serial_map, remembering which logs it was given to read."""

    def __init__(self):
        self.read: list[str] = []

    def __call__(self, work, paths, progress=None):
        self.read += [path.name for path in paths]
        return serial_map(work, paths, progress)


def _rows(corpus: Path, markers: MarkerSet) -> tuple[list, list[str]]:
    counting = CountingMap()
    found = [
        row for *_, rows in iter_marked_corpus([corpus], markers, cancelled=NEVER, file_map=counting) for row in rows
    ]
    return found, counting.read


def test_marker_counts_are_kept_and_a_changed_log_alone_is_read_again(corpus: Path, annotated_log: Path):
    markers = load_markers(shipped_kpis_path())
    read_in_full = scan_corpus(corpus, markers=markers)
    assert any(count for row in read_in_full for _, count in row.marker_counts), "the sample logs have hits"
    first, read = _rows(corpus, markers)
    assert first == read_in_full and len(read) == 3
    again, read = _rows(corpus, markers)
    assert again == read_in_full and read == [], "every row from the index"
    plant(annotated_log, {"2": "boston boston"})
    changed, read = _rows(corpus, markers)
    assert read == [annotated_log.name]
    assert changed == scan_corpus(corpus, markers=markers)


def test_other_markers_are_counted_afresh(corpus: Path, tmp_path: Path):
    kpis = load_markers(shipped_kpis_path())
    _rows(corpus, kpis)
    (tmp_path / "other.yml").write_text(OTHER_MARKERS)
    other = load_markers(tmp_path / "other.yml")
    assert other.fingerprint != kpis.fingerprint
    rows, read = _rows(corpus, other)
    assert len(read) == 3 and rows == scan_corpus(corpus, markers=other)
    assert {name for row in rows for name, _ in row.marker_counts} == {"user_asked_boston"}


def test_markers_made_in_code_are_read_from_the_logs_every_time(corpus: Path):
    made = MarkerSet(list(load_markers(shipped_kpis_path())))
    assert made.fingerprint is None
    rows = [
        row
        for item in browser_rows([corpus], made, cancelled=NEVER, notice=print)
        for row in (item[3] if isinstance(item, tuple) else [])
    ]
    assert rows == scan_corpus(corpus, markers=made)
