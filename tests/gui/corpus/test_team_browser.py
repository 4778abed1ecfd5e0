"""The corpus browser of a team corpus in the real window: the Annotators column, its tooltip, the
filter words typed with real keys, and a row following the annotator's own save."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from annotator.gui.app import parts_of
from annotator.gui.corpus.session_list import Column
from annotator.gui.widgets.roles import SUMMARY_ROLE
from annotator.team.mode import set_team_mode
from tests.support.gui_keys import press, type_text
from tests.support.team_corpora import annotate_as, make_corpus

Key, Mod = Qt.Key, Qt.KeyboardModifier


@pytest.fixture
def team_corpus(tmp_path: Path) -> Path:
    """Four logs: 000 by alice; 001 by alice and bob, who differ in a word; 002 by bob and carol, who agree; 003 by nobody."""
    corpus = make_corpus(tmp_path / "team", 4)
    logs = sorted(corpus.rglob("*-hublog.xml"), key=lambda path: path.name)
    annotate_as(logs[0], "alice", {0: "to boston"})
    annotate_as(logs[1], "alice", {0: "to boston please"})
    annotate_as(logs[1], "bob", {0: "to austin please"})
    annotate_as(logs[2], "bob", {0: "yes"})
    annotate_as(logs[2], "carol", {0: "Yes."})
    set_team_mode(corpus, True)
    return corpus


def _shown(browser) -> dict[str, tuple[str, str]]:
    """File name -> (Annotators cell, its tooltip), for the rows the filter keeps."""
    proxy = browser.proxy
    shown = {}
    for row in range(proxy.rowCount()):
        index = proxy.index(row, Column.ANNOTATORS)
        name = Path(index.data(SUMMARY_ROLE).file).name[: len("travel-000")]
        shown[name] = (index.data(Qt.ItemDataRole.DisplayRole), index.data(Qt.ItemDataRole.ToolTipRole))
    return shown


def _filter(qtbot, window, browser, text: str) -> list[str]:
    browser.filter_edit.setFocus()
    browser.filter_edit.selectAll()
    press(qtbot, window, Key.Key_Backspace)
    type_text(qtbot, window, text)
    return sorted(_shown(browser))


@pytest.mark.slow
def test_the_browser_shows_who_annotated_and_filters_mine_double_disagreeing(qtbot, make_window, team_corpus):
    window = make_window()
    parts_of(window).controller.settings.annotator_for_this_run = "carol"
    browser = parts_of(window).browser
    with qtbot.waitSignal(browser.scan_finished, timeout=30000):
        assert parts_of(window).navigator.open_path(team_corpus)
    assert browser.model.headerData(Column.ANNOTATORS, Qt.Orientation.Horizontal) == "Annotators"
    assert _shown(browser) == {
        "travel-000": ("1", "Annotated by alice"),
        "travel-001": (
            "2 double, disagreeing",
            "Annotated by alice, bob; they disagree on a transcription or the task completion",
        ),
        "travel-002": ("2 double", "Annotated by bob, carol"),
        "travel-003": ("", ""),
    }
    assert _filter(qtbot, window, browser, "double") == ["travel-001", "travel-002"]
    assert _filter(qtbot, window, browser, "disagreeing") == ["travel-001"]
    assert _filter(qtbot, window, browser, "mine") == ["travel-002"]
    assert parts_of(window).controller.team_work is not None, "the corpus's first log opened in team mode, as carol"
    opened = parts_of(window).controller.document.path
    assert opened.name.startswith("travel-000")
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    press(qtbot, window, Key.Key_A, Mod.ControlModifier)  # the sample log's own transcription, replaced
    type_text(qtbot, window, "to boston")
    with qtbot.waitSignal(browser.log_refreshed, timeout=30000):
        press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert _filter(qtbot, window, browser, "mine") == ["travel-000", "travel-002"]
    assert _shown(browser)["travel-000"] == ("2 double", "Annotated by alice, carol")
