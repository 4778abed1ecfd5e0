"""The keyboard's rule (docs/keyboard.md) as a stateful property: whatever the annotator did last in the real
window (opened a log, moved, clicked, opened and left a dialog, zoomed, restored a journal), a word typed
then Ctrl+Enter is stored whole in exactly one user turn, the one the status bar named when typing began
on a system turn, and nothing else in the document changes.

Real key events and clicks throughout (qtbot.keyClicks / keyClick / mouseClick), one window for every
example. CI runs the "keyboard" hypothesis profile's examples (KEYBOARD_EXAMPLES, 50 unless set), the same
ones every run; KEYBOARD_EXAMPLES=500 runs more on demand, drawn from --hypothesis-seed (Hypothesis ignores the
seed of a derandomized test, so two seeds would have run the same examples).
"""

from __future__ import annotations

import os
import shutil
from itertools import count
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
    run_state_machine_as_test,
)
from lxml import etree
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from annotator.gui.app import parts_of
from annotator.gui.keyboard import NO_USER_TURN_LEFT, TYPING_HERE
from annotator.journal.recovery_journal import RecoveryJournal
from annotator.journal.values import annotation_values, key_of
from annotator.log.text import SHOWN_ID_CHARS, clean_text, shorten
from tests.support.gui_keys import focused, press

Key, Mod = Qt.Key, Qt.KeyboardModifier
CTRL, ALT = Mod.ControlModifier, Mod.AltModifier
settings.register_profile(
    "keyboard",
    max_examples=int(os.environ.get("KEYBOARD_EXAMPLES", "50")),
    stateful_step_count=4,
    deadline=None,
    derandomize="KEYBOARD_EXAMPLES" not in os.environ,
    suppress_health_check=list(HealthCheck),
)
MOVES = {
    "Ctrl+PgDown": (Key.Key_PageDown, CTRL),
    "Ctrl+PgUp": (Key.Key_PageUp, CTRL),
    "Ctrl+Down": (Key.Key_Down, CTRL),
    "Ctrl+Up": (Key.Key_Up, CTRL),
    "Alt+Down": (Key.Key_Down, ALT),
    "Alt+Up": (Key.Key_Up, ALT),
}
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=9)
DRAFT = "restored draft"


def make_logs(corpus: Path, folder: Path) -> dict[str, Path]:
    """The logs the rules open (copied afresh at each open): the sample whose first turn is the system's, one
    whose first turn is the caller's, one of two sessions, and a corpus folder."""
    system_first = corpus / "travel-20261121-002" / "travel-20261121-002-hublog.xml"
    user_first = etree.parse(str(corpus / "travel-20261121-001" / "travel-20261121-001-hublog.xml"))
    session = user_first.getroot()[0]
    session.remove(session.find("GC_TURN"))  # the welcome prompt: the caller speaks first
    user_first.write(str(folder / "user-first-hublog.xml"), encoding="UTF-8", xml_declaration=True)
    multi = etree.parse(str(system_first))
    multi.getroot().append(etree.fromstring(etree.tostring(session)))
    multi.write(str(folder / "two-sessions-hublog.xml"), encoding="UTF-8", xml_declaration=True)
    return {
        "system first": system_first,
        "user first": folder / "user-first-hublog.xml",
        "two sessions": folder / "two-sessions-hublog.xml",
        "corpus": corpus,
    }


class KeyboardMachine(RuleBasedStateMachine):
    window = qtbot = logs = folder = None  # set by the test: one window for every example
    copies = count()

    def settle(self) -> None:
        for _ in range(3):
            QApplication.processEvents()

    def fresh_copy(self, kind: str) -> Path:
        source, target = self.logs[kind], self.folder / f"copy{next(self.copies)}"
        if source.is_dir():
            shutil.copytree(source, target)
            return target
        target.mkdir()
        shutil.copy(source, target / source.name)
        return target / source.name

    def open(self, path: Path) -> None:
        assert parts_of(self.window).navigator.open_path(path)
        self.settle()

    # --- opening ----------------------------------------------------------------------------
    @initialize(kind=st.sampled_from(["system first", "user first", "two sessions", "corpus"]))
    def first_log(self, kind: str) -> None:
        self.open(self.fresh_copy(kind))

    @rule(kind=st.sampled_from(["system first", "user first", "two sessions", "corpus"]))
    def open_log(self, kind: str) -> None:
        self.open(self.fresh_copy(kind))

    @rule()
    def restore_a_journal(self) -> None:
        """A window killed with typing not yet stored left its journal: opening the log restores it."""
        from annotator.log.document import LogDocument

        path = self.fresh_copy("system first")
        doc = LogDocument.load(path)
        journal = RecoveryJournal(doc, instance="killedwindow")
        journal.set_typing(doc.sessions[0].user_turns[1], DRAFT)
        journal.flush()
        journal.close()
        self.open(path)

    # --- moving -----------------------------------------------------------------------------
    @rule(move=st.sampled_from(sorted(MOVES)))
    def key_move(self, move: str) -> None:
        press(self.qtbot, self.window, *MOVES[move])
        self.settle()

    @rule(speaker=st.sampled_from(["system", "user"]), pick=st.integers(0, 1000))
    def click_row(self, speaker: str, pick: int) -> None:
        navigator = parts_of(self.window).navigator
        rows = [row for row in range(navigator.model.rowCount()) if navigator.model.turn_at(row).speaker == speaker]
        if not rows:
            return
        index = navigator.model.index(rows[pick % len(rows)], 0)
        self.window.table.scrollTo(index)
        self.qtbot.mouseClick(
            self.window.table.viewport(), Qt.MouseButton.LeftButton, pos=self.window.table.visualRect(index).center()
        )
        self.settle()

    @rule(pick=st.integers(0, 1000))
    def click_timeline(self, pick: int) -> None:
        view = parts_of(self.window).timeline
        turns = view.timeline.turns
        if not view.isVisible() or not len(turns):
            return
        centre = (turns.starts[pick % len(turns)] + turns.ends[pick % len(turns)]) / 2
        point = view.plot.mapFromScene(view.scene_point(centre, 0))
        self.qtbot.mouseClick(view.plot.viewport(), Qt.MouseButton.LeftButton, pos=point)
        self.settle()

    @rule(pick=st.integers(0, 1000))
    def click_finding(self, pick: int) -> None:
        table = parts_of(self.window).findings.table
        rows = table.model().rowCount() if table.model() is not None else 0
        if not table.isVisible() or not rows:
            return
        index = table.model().index(pick % rows, 0)
        table.scrollTo(index)
        self.qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(index).center())
        self.settle()

    @rule(pick=st.integers(0, 1000))
    def search_hit(self, pick: int) -> None:
        """Ctrl+F, a word of a turn the session holds, F3 to its hit, Escape out of the bar."""
        words = (
            [
                word
                for turn in parts_of(self.window).navigator.session.turns
                for word in (turn.asr_text or "").split()
                if len(word) > 3
            ]
            if parts_of(self.window).navigator.session is not None
            else []
        )
        if not words:
            return
        press(self.qtbot, self.window, Key.Key_F, CTRL)
        QTest.keyClicks(focused(self.window), words[pick % len(words)])
        press(self.qtbot, self.window, Key.Key_F3)
        press(self.qtbot, self.window, Key.Key_Escape)
        self.settle()

    # --- dialogs, panels, zoom ------------------------------------------------------------------
    @rule(which=st.sampled_from(["find", "preferences", "keyboard", "compare", "concepts"]))
    def escape_out_of(self, which: str) -> None:
        window = self.window
        keys = {
            "find": (Key.Key_F, CTRL),
            "preferences": (Key.Key_Comma, CTRL),
            "keyboard": (Key.Key_F1, Mod.NoModifier),
            "compare": (Key.Key_C, CTRL | Mod.ShiftModifier),
            "concepts": (Key.Key_K, CTRL),
        }[which]
        press(self.qtbot, window, *keys)
        self.settle()
        active = QApplication.activeWindow()
        if active is not None and active is not window:  # a dialog of its own
            QTest.keyClick(active.focusWidget() or active, Key.Key_Escape)
            self.qtbot.waitUntil(window.isActiveWindow)
        else:
            press(self.qtbot, window, Key.Key_Escape)
        self.settle()

    @rule(bigger=st.booleans())
    def zoom(self, bigger: bool) -> None:
        press(self.qtbot, self.window, Key.Key_Equal if bigger else Key.Key_Minus, CTRL)
        self.settle()

    # --- the invariant --------------------------------------------------------------------------
    @invariant()
    def a_typed_word_is_stored_whole_in_exactly_one_user_turn(self) -> None:
        window, navigator = self.window, parts_of(self.window).navigator
        document = parts_of(window).controller.document
        if document is None or navigator.session is None:
            return
        word = f"w{next(self.copies)}x"
        was_on = navigator.current_turn()
        before = annotation_values(document)
        window.statusBar().clearMessage()  # what it says next is this typing's, not an earlier step's
        QTest.keyClicks(focused(window), word)
        message = window.statusBar().currentMessage()
        if message == NO_USER_TURN_LEFT.format(session=shorten(navigator.session.id, SHOWN_ID_CHARS)):
            assert annotation_values(document) == before and window.editor.text.toPlainText() == ""
            return
        target = window.editor.turn
        assert target is not None and target.speaker != "system", f"typed on {was_on}: no user turn took {word}"
        if was_on is None or was_on.speaker == "system":
            assert message == TYPING_HERE.format(turn=shorten(target.id, SHOWN_ID_CHARS)), message
        else:
            assert target is was_on, "typing on a user turn went to another one"
        typed = window.editor.text.toPlainText()
        assert typed.endswith(word), f"{word!r} did not arrive whole: {typed!r}"
        press(self.qtbot, window, Key.Key_Return, CTRL)
        after = annotation_values(document)
        changed = {key for key in before.keys() | after.keys() if before.get(key) != after.get(key)}
        assert changed == {key_of(target)}, f"{word!r} changed {changed}, not only turn {target.id}"
        assert after[key_of(target)][2] == clean_text(typed)
        self.settle()


@pytest.mark.slow
def test_every_word_typed_lands_in_the_user_turn_the_window_names(make_window, corpus, tmp_path, qtbot, boxes):
    boxes(
        "Restore", "Discard"
    )  # restore a journal; opening another log with stored words: they are the test's, not the annotator's
    window = make_window()
    window.action_table.auto_play.setChecked(False)
    folder = tmp_path / "copies"
    folder.mkdir()
    KeyboardMachine.window, KeyboardMachine.qtbot = window, qtbot
    KeyboardMachine.logs, KeyboardMachine.folder = make_logs(corpus, tmp_path), folder
    try:
        run_state_machine_as_test(KeyboardMachine, settings=settings.get_profile("keyboard"))
    finally:
        KeyboardMachine.window = KeyboardMachine.qtbot = None
