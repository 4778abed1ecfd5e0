"""Generated team corpora: copies of the sample logs, several sessions each named apart by file, and an
annotator's work on one of them saved in team mode."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.repository import sample_log_paths


def make_corpus(folder: Path, logs: int) -> Path:
    """FOLDER holding LOGS copies of the sample logs, in sub-folders of a few each (as corpora come)."""
    samples = sample_log_paths()
    for number in range(logs):
        target = folder / f"day{number % 3}" / f"travel-{number:03d}-hublog.xml"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(samples[number % len(samples)], target)
    return folder


def annotate_as(log: Path, annotator: str, texts: dict[int, str], task: str | None = None) -> Path:
    """ANNOTATOR's work on LOG saved in team mode through the writer: TEXTS by user turn position
    in the first session, and the session's TASK completion; their file."""
    from annotator.log.annotations import set_task_completion, set_transcription
    from annotator.log.document import LogDocument
    from annotator.team.work import TeamWork

    doc = LogDocument.load(log)
    work = TeamWork(doc, annotator)
    users = doc.sessions[0].user_turns
    for position, text in texts.items():
        set_transcription(users[position], text)
    if task is not None:
        set_task_completion(doc.sessions[0], task)
    work.save()
    work.close()
    return work.file


def open_window_as(make_window, log: Path, annotator: str):
    """A new window (the make_window fixture's) that annotates as ANNOTATOR, as `--annotator` makes it, on LOG."""
    from annotator.gui.app import parts_of

    window = make_window()
    parts_of(window).controller.settings.annotator_for_this_run = annotator
    assert parts_of(window).navigator.open_path(log)
    return window
