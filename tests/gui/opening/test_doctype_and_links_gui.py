"""The window on a log whose DOCTYPE names an external DTD, and on logs reached through a symlink or
with other hard links: opened, annotated with real keys, saved with Ctrl+S."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt

from annotator.analysis.validation import validate_document
from annotator.gui.app import parts_of
from annotator.log.document import LogDocument
from annotator.writes.original_copy import original_copy_path
from tests.support.doctype_logs import ConnectionCounter
from tests.support.gui_keys import close_window, press, type_text

Key = Qt.Key
Mod = Qt.KeyboardModifier


def _annotate_and_save(window, qtbot, text: str) -> None:
    parts_of(window).navigator.select_row(1, focus_editor=True)
    type_text(qtbot, window, text)
    press(qtbot, window, Key.Key_Return, Mod.ControlModifier)
    press(qtbot, window, Key.Key_S, Mod.ControlModifier)
    assert not window.isWindowModified()


def test_a_log_naming_an_external_dtd_opens_saves_and_is_checked_against_the_shipped_dtd(
    qtbot, make_window, raw_log: Path, answer_modal
):
    text = raw_log.read_text(encoding="utf-8")
    with ConnectionCounter() as counter:
        doctype = f'<!DOCTYPE GC_LOG PUBLIC "-//DARPA//DTD Communicator 11//EN"\n   "{counter.url}">\n'
        named = raw_log.with_name("named-dtd.xml")
        named.write_text(text.replace("<GC_LOG", doctype + "<GC_LOG", 1), encoding="utf-8")
        raw_log.write_text(text.replace("<GC_LOG", "\n\n<GC_LOG", 1), encoding="utf-8")  # same lines, no DOCTYPE
        original = named.read_bytes()
        refusal = answer_modal()  # a refusal would be a message box; answered, the test fails instead of hanging
        window = make_window(named)
        assert not refusal.answered
        panel = parts_of(window).findings
        qtbot.waitUntil(lambda: any(f.code == "named-dtd" for f in panel.findings), timeout=20000)
        plain = sorted((f.line, f.code, f.message) for f in validate_document(LogDocument.load(raw_log)))
        shown = sorted((f.line, f.code, f.message) for f in panel.findings if f.code != "named-dtd")
        assert shown == plain and any("mime_type" in message for _, _, message in shown), "the shipped DTD's findings"
        _annotate_and_save(window, qtbot, "i need to go to san francisco")
        close_window(window)
        saved = named.read_bytes()
        prolog = original[: original.index(b"<GC_LOG")]
        assert saved.startswith(prolog), "the DOCTYPE is kept byte for byte"
        assert LogDocument.load(named).sessions[0].turns[1].transcription == "i need to go to san francisco"
        assert counter.connections == 0


def test_saving_through_a_symlink_writes_the_real_log_and_keeps_the_original_beside_it(
    make_window, qtbot, raw_log: Path, tmp_path: Path
):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = elsewhere / "link.xml"
    link.symlink_to(raw_log)
    original = raw_log.read_bytes()
    window = make_window(link)
    _annotate_and_save(window, qtbot, "through the link")
    assert link.is_symlink() and os.readlink(link) == str(raw_log)
    assert LogDocument.load(raw_log).sessions[0].turns[1].transcription == "through the link"
    assert original_copy_path(raw_log).read_bytes() == original, "the untouched original beside the real log"
    assert sorted(p.name for p in elsewhere.iterdir()) == ["link.xml"]


def test_a_hard_linked_log_is_written_in_place_and_the_status_bar_says_so(
    make_window, qtbot, raw_log: Path, tmp_path: Path
):
    other = tmp_path / "other-name.xml"
    os.link(raw_log, other)
    window = make_window(raw_log)
    _annotate_and_save(window, qtbot, "both names")
    assert os.path.samefile(raw_log, other)
    assert LogDocument.load(other).sessions[0].turns[1].transcription == "both names"
    assert "other hard link" in window.statusBar().currentMessage()
