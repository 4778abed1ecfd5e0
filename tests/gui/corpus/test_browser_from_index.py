"""The session browser and the corpus index: a corpus seen before is listed from the index as a full
scan would list it, logs changed since are read again, a log whose bytes changed behind unchanged times
is refreshed in the background, and a log the window saves is in the index at once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from annotator.corpus.paths import expand_log_paths
from annotator.corpus.scan import scan_corpus
from annotator.corpus_index import contents, refresh
from annotator.corpus_index.corpus import open_index
from annotator.corpus_index.records import content_hash
from annotator.corpus_index.search import search_index
from annotator.gui.corpus.session_browser import SessionBrowser
from annotator.gui.widgets.roles import SUMMARY_ROLE
from tests.support.planted_logs import plant
from tests.support.session_browser import many_logs, scanned


@pytest.fixture
def browser(qtbot) -> SessionBrowser:
    widget = SessionBrowser()
    qtbot.addWidget(widget)
    widget.show()
    yield widget
    if widget.is_scanning:
        with qtbot.waitSignal(widget.scan_finished, timeout=10000):
            widget.cancel_scan()


def _rows(browser) -> list:
    model = browser.model
    return sorted(
        (model.index(row, 0).data(SUMMARY_ROLE) for row in range(model.rowCount())),
        key=lambda row: (str(row.file), row.session_index),
    )


def _truth(folder: Path) -> list:
    return sorted(scan_corpus(folder), key=lambda row: (str(row.file), row.session_index))


@pytest.mark.slow
def test_a_corpus_seen_before_is_listed_from_its_index_as_a_scan_lists_it(qtbot, browser, tmp_path, sample_logs):
    folder = tmp_path / "corpus"
    made = list(many_logs(folder, sample_logs, copies=4))
    assert _rows(scanned(qtbot, browser, folder)) == _truth(folder)
    store = open_index([folder])
    assert refresh.plan(store, expand_log_paths([folder]), folders=[folder], verify_content=False).stale == []
    plant(made[0], {"2": "changed since"})
    added = folder / "added" / made[1].name
    added.parent.mkdir()
    shutil.copyfile(made[1], added)
    made[2].unlink()
    assert _rows(scanned(qtbot, browser, folder)) == _truth(folder)
    assert contents.key_of(made[2]) not in store.run(contents.known_files)
    store.close()


@pytest.mark.slow
def test_bytes_changed_behind_unchanged_times_are_refreshed_in_the_background(qtbot, browser, tmp_path, sample_logs):
    folder = tmp_path / "corpus"
    made = list(many_logs(folder, sample_logs, copies=2))
    scanned(qtbot, browser, folder)
    key = contents.key_of(made[0])
    store = open_index([folder])

    def lie(connection) -> None:  # what an index looks like after a file system kept the times of a change
        sessions = json.loads(connection.execute("SELECT sessions FROM files WHERE path = ?", (key,)).fetchone()[0])
        sessions[0]["n_transcribed"] = 99
        connection.execute(
            "UPDATE files SET digest = 'other bytes', sessions = ? WHERE path = ?", (json.dumps(sessions), key)
        )

    store.write(lie)
    assert _rows(scanned(qtbot, browser, folder)) == _truth(folder)
    assert store.run(contents.known_files)[key].digest == content_hash(made[0])
    store.close()


@pytest.mark.slow
def test_a_saved_log_is_in_the_index_at_once(qtbot, browser, tmp_path, sample_logs):
    folder = tmp_path / "corpus"
    made = list(many_logs(folder, sample_logs, copies=2))
    scanned(qtbot, browser, folder)
    plant(made[0], {"2": "quetzalcoatl"})
    with qtbot.waitSignal(browser.log_refreshed, timeout=20000):
        browser.refresh_log(made[0])
    store = open_index([folder])
    known = store.run(contents.known_files)[contents.key_of(made[0])]
    assert known.digest == content_hash(made[0])
    hits = search_index(store, {contents.key_of(made[0]): made[0]}, "quetzalcoatl")
    store.close()
    assert [(hit.turn_id, hit.text) for hit in hits] == [("2", "quetzalcoatl")]
    assert _rows(browser) == _truth(folder)


@pytest.mark.slow
def test_a_damaged_index_is_one_status_line_and_the_rows_are_right(qtbot, browser, tmp_path, sample_logs):
    folder = tmp_path / "corpus"
    many_logs(folder, sample_logs, copies=2)
    scanned(qtbot, browser, folder)
    store = open_index([folder])
    file = store.file
    store.close()
    file.write_bytes(b"no database here\n" * 100)
    notices: list[str] = []
    browser.index_notice.connect(notices.append)
    assert _rows(scanned(qtbot, browser, folder)) == _truth(folder)
    assert len(notices) == 1 and notices[0].startswith(f"the index {file} could not be used")
