"""The first session's metrics and timeline are computed on the opening worker and handed to the
views (gui/opening/opener.py PreparedSession): the GUI thread does not compute them again after an open,
and what it shows equals what it would have computed itself. A later change of session, or a change
of the document before the hand-over, computes them on the spot as before."""

from __future__ import annotations

import threading

import pytest
from lxml import etree
from PySide6.QtCore import Qt

import annotator.gui.panes.metrics_panel as metrics_panel
import annotator.gui.timeline.view as timeline_view
from annotator.analysis.metrics import session_metrics
from annotator.analysis.metrics_live import LiveMetrics
from annotator.gui.app import parts_of
from annotator.gui.opening.opener import PreparedSession
from annotator.log.annotations import set_transcription
from annotator.timeline.data import build_timeline
from tests.support.gui_keys import press
from tests.support.repository import REPO

SAMPLE = REPO / "sample_logs" / "travel-20261121-001" / "travel-20261121-001-hublog.xml"


class GuiThreadCalls:
    """Counts the calls of a module's NAME made on the GUI (main) thread for a session (not for None,
    which is how a view empties)."""

    def __init__(self, monkeypatch, module, name: str):
        self.count = 0
        original = getattr(module, name)

        def counted(*args, **kwargs):
            if threading.current_thread() is threading.main_thread() and args and args[0] is not None:
                self.count += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


@pytest.mark.slow
def test_the_views_take_the_metrics_and_timeline_the_worker_made(make_window, raw_log, monkeypatch):
    metrics_made = GuiThreadCalls(monkeypatch, metrics_panel, "LiveMetrics")
    timelines_made = GuiThreadCalls(monkeypatch, timeline_view, "build_timeline")
    window = make_window()
    assert parts_of(window).navigator.open_path(raw_log)
    session = parts_of(window).navigator.session
    assert session is not None
    assert (metrics_made.count, timelines_made.count) == (0, 0)
    panel, timeline = parts_of(window).metrics, parts_of(window).timeline
    assert panel.metrics.values == session_metrics(session).values
    expected = build_timeline(session)
    assert timeline.timeline.turns.payloads == expected.turns.payloads
    assert [lane.name for lane in timeline.timeline.lanes] == [lane.name for lane in expected.lanes]


@pytest.mark.slow
def test_another_session_and_a_changed_document_are_computed_on_the_spot(make_window, qtbot, tmp_path, monkeypatch):
    tree = etree.parse(str(SAMPLE))
    session = tree.getroot().find("GC_SESSION")
    second = etree.fromstring(etree.tostring(session))
    second.set("id", session.get("id") + "-second")
    tree.getroot().append(second)
    log = tmp_path / "two-sessions-hublog.xml"
    tree.write(str(log), xml_declaration=True, encoding="UTF-8")
    window = make_window()
    assert parts_of(window).navigator.open_path(log)
    metrics_made = GuiThreadCalls(monkeypatch, metrics_panel, "LiveMetrics")
    timelines_made = GuiThreadCalls(monkeypatch, timeline_view, "build_timeline")
    press(qtbot, window, Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier)
    shown = parts_of(window).navigator.session
    assert shown.id.endswith("-second")
    assert (metrics_made.count, timelines_made.count) == (1, 1)
    assert parts_of(window).metrics.metrics.values == session_metrics(shown).values


@pytest.mark.slow
def test_what_was_prepared_is_refused_once_the_document_changed(make_window, raw_log):
    window = make_window()
    assert parts_of(window).navigator.open_path(raw_log)
    session = parts_of(window).navigator.session
    document = session.document
    prepared = PreparedSession(session, document.revision, LiveMetrics(session), build_timeline(session))
    assert prepared.is_for(session)
    user_turn = next(turn for turn in session.turns if turn.speaker == "user")
    set_transcription(user_turn, "a change made before the hand-over")
    assert not prepared.is_for(session)
