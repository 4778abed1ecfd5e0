"""Edits as the recovery journal sees them, outside the GUI: the same edits in a test and in a child process it
kills, a window's document and journal (holding its lock), a window made to look dead, and a log reopened with the
leftovers offered to it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

from annotator.journal.instance_lock import read_lock, write_lock
from annotator.journal.recovery_journal import Leftovers, RecoveryJournal
from annotator.log.annotations import set_concepts, set_task_completion, set_transcription
from annotator.log.concepts import Concepts
from annotator.log.document import LogDocument
from tests.support.repository import REPO


def edit(doc: LogDocument) -> None:
    """Three new transcriptions, one removed, one task completion: the same in every test and in the child."""
    users = doc.sessions[0].user_turns
    set_transcription(users[0], "i want to fly to boston please")
    set_transcription(users[1], "on friday morning")
    set_transcription(users[2], "yes")
    set_transcription(users[3], None)
    set_task_completion(doc.sessions[0], "0")


def reopened(log: Path) -> tuple[LogDocument, RecoveryJournal, Leftovers]:
    """A new window on LOG: its document, its journal, and the leftovers offered to it."""
    doc = LogDocument.load(log)
    journal = RecoveryJournal(doc)
    return doc, journal, journal.leftovers()


def kill_after_recording(log: Path, data_dir: Path, record: str) -> None:
    """Run RECORD (lines using `doc`, LOG loaded, and `journal`, its RecoveryJournal) in a child process,
    then kill it with SIGKILL: what the journal holds is all that survives."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from annotator.log.document import LogDocument
        from annotator.journal.recovery_journal import RecoveryJournal
        doc = LogDocument.load({str(log)!r})
        journal = RecoveryJournal(doc)
        """)
            + textwrap.dedent(record)
            + textwrap.dedent("""
        print("recorded", flush=True)
        time.sleep(600)
        """),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ | {"ANNOTATOR_DATA_DIR": str(data_dir)},
    )
    try:
        assert child.stdout.readline().strip() == "recorded"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL


SOURCE_FIX = Concepts("give_source", ((":source", "Zürich"), (":date/:month", "may")))


def edit_concepts(doc: LogDocument) -> None:
    """A new frame on the first user turn, a transcription on the second: the same here and in the child."""
    users = doc.sessions[0].user_turns
    set_concepts(users[0], SOURCE_FIX)
    set_transcription(users[1], "on friday morning")


def window(log: Path) -> tuple[LogDocument, RecoveryJournal]:
    """A window editing LOG: its document and its journal, holding its lock."""
    doc = LogDocument.load(log)
    journal = RecoveryJournal(doc)
    journal.hold()
    journal.watch(doc)
    return doc, journal


def die(journal: RecoveryJournal, **lock_fields) -> None:
    """Make JOURNAL's window look dead: its lock now names a process that is gone (or LOCK_FIELDS)."""
    lock = read_lock(journal.lock_file)
    write_lock(journal.lock_file, replace(lock, **(lock_fields or {"pid": dead_pid()})))


def dead_pid() -> int:
    """The id of a process that has ended (and been reaped)."""

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid
