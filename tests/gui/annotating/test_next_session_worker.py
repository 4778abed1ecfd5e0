"""Most doubtful first, Ctrl+Enter at a session's end on a log larger than SPOT_TURNS: every session's
doubts are made on a worker (annotator.gui.annotating.doubtful_sessions), a press that comes before they are ready
says so and goes on once they are, and it lands where the code on the GUI thread lands
(annotator.analysis.next_session.most_doubtful_session_to_transcribe).

The log is generated here: 150 sessions of one system and one user turn each, the user turns of s60 and
s110 with a failed parse (equally doubtful: the earlier wins). The worker's doubt making is watched by a
wrapper around the real session_doubts that records its thread and holds it until the test lets it go.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Qt

from annotator.analysis import next_session
from annotator.analysis.next_session import most_doubtful_session_to_transcribe
from annotator.gui.annotating.doubtful_sessions import FINDING, SPOT_TURNS
from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from tests.support.gui_keys import press, type_text
from tests.support.xml_builders import FAILED_PARSE, log_text, session, system_turn, user_turn, write_log

Key, Mod = Qt.Key, Qt.KeyboardModifier
SESSIONS = 150
DOUBTFUL = ("s60", "s110")


def _big_log(path: Path) -> Path:
    sessions = [
        session(
            f"s{n}",
            [
                system_turn("1", 1000 + 100 * n, "where to?"),
                user_turn("2", 1010 + 100 * n, "to boston", extra=FAILED_PARSE if f"s{n}" in DOUBTFUL else ""),
            ],
            start=1000 + 100 * n,
            end=1099 + 100 * n,
        )
        for n in range(SESSIONS)
    ]
    return write_log(path, log_text(sessions))


def _shown(window) -> tuple[str, str | None]:
    turn = parts_of(window).navigator.current_turn()
    return parts_of(window).navigator.session.id, None if turn is None else turn.id


def test_doubts_are_made_on_a_worker_and_the_press_waits_for_them(qtbot, make_window, tmp_path, monkeypatch):
    log = _big_log(tmp_path / "many-hublog.xml")
    reference = LogDocument.load(log)
    assert sum(len(s.turns) for s in reference.sessions) > SPOT_TURNS
    expected = reference.sessions[most_doubtful_session_to_transcribe(reference, 0)].id  # on this thread, as before
    assert expected == "s60"
    threads: list[threading.Thread] = []
    release = threading.Event()
    real = next_session.session_doubts

    def watched(facts):
        threads.append(threading.current_thread())
        release.wait(30)
        return real(facts)

    monkeypatch.setattr(next_session, "session_doubts", watched)
    window = make_window(log)
    window.action_table.auto_play.setChecked(False)
    window.action_table.doubtful_first.trigger()  # the worker starts, and is held at the first session
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    assert _shown(window) == ("s0", "2")
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert _shown(window) == ("s0", "2")  # not yet: the doubts are not ready
    assert window.statusBar().currentMessage() == FINDING
    release.set()
    qtbot.waitUntil(lambda: parts_of(window).navigator.session.id != "s0", timeout=30000)
    assert _shown(window) == (expected, "2")
    assert "Session s0 is transcribed; on to session s60" in window.statusBar().currentMessage()
    assert parts_of(window).navigator.editor.isAncestorOf(window.focusWidget())
    assert len(threads) == SESSIONS
    assert threading.main_thread() not in threads

    document = parts_of(window).controller.document
    then = document.sessions[
        most_doubtful_session_to_transcribe(document, document.sessions.index(parts_of(window).navigator.session))
    ].id
    assert then == "s110"
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)  # ready now: on the spot
    assert _shown(window) == (then, "2")
    assert len(threads) == SESSIONS  # nothing made again


def test_a_press_waiting_for_the_doubts_is_dropped_when_the_annotator_moves_on(
    qtbot, make_window, tmp_path, monkeypatch
):
    log = _big_log(tmp_path / "many-hublog.xml")
    release = threading.Event()
    real = next_session.session_doubts
    monkeypatch.setattr(next_session, "session_doubts", lambda facts: release.wait(30) and real(facts))
    window = make_window(log)
    window.action_table.auto_play.setChecked(False)
    window.action_table.doubtful_first.trigger()
    parts_of(window).navigator.select_row(0)  # the greeting: the keys below start there
    press(qtbot, window, Key.Key_Down, Mod.ControlModifier)
    type_text(qtbot, window, "to boston")
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    assert window.statusBar().currentMessage() == FINDING
    parts_of(window).navigator.step_session(+1)  # the annotator went on by hand
    assert _shown(window)[0] == "s1"
    task = parts_of(window).navigator.doubtful_sessions._task
    release.set()
    assert task.wait(30)
    qtbot.waitUntil(lambda: parts_of(window).navigator.doubtful_sessions._task is None, timeout=30000)
    assert _shown(window)[0] == "s1"
