"""Opening a log in the real window: the session bar's task completion and reviewer of the session shown first
are read on the opening worker (each a walk over the session's children, 15 ms apiece at 70,000 turns), and a
session shown later is read on the spot."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

import annotator.log.flags as flags
from annotator.gui.app import parts_of
from annotator.log.annotations import set_reviewed
from annotator.log.document import LogDocument
from annotator.log.elements import Session


def for_the_session_bar() -> bool:
    """Whether the session bar asked for the mark being read (Navigator._reflect_session is calling)."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code.co_name == "_reflect_session":
            return True
        frame = frame.f_back
    return False


@pytest.mark.slow
def test_the_session_bar_shows_the_marks_the_worker_read(make_window, annotated_log: Path, monkeypatch):
    document = LogDocument.load(annotated_log)
    set_reviewed(document.sessions[0], "ana")
    document.save(overwrite=True)
    read_on_gui_thread = []
    for owner, name in ((flags, "reviewed_holder"), (Session, "task_completion_annotation")):
        original = getattr(owner, name)

        def noted(*args, original=original, name=name):
            if threading.current_thread() is threading.main_thread() and for_the_session_bar():
                read_on_gui_thread.append(name)
            return original(*args)

        monkeypatch.setattr(owner, name, noted)
    window = make_window(annotated_log)
    bar = parts_of(window).navigator.session_bar
    assert bar.task.currentData() == "1" and bar.review.text() == "reviewed by ana"
    assert read_on_gui_thread == []
    parts_of(window).navigator.set_task_completion("0")  # read again on the spot once changed
    assert bar.task.currentData() == "0" and read_on_gui_thread
