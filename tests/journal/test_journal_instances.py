"""One journal per window: windows on one log never share a file, a live window's work is never
offered nor deleted by another, a dead window's is claimed by exactly one later window, and
stale locks are told from live ones (dead pid, reused pid, reboot; another host: unknown)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from annotator.journal import instance_lock
from annotator.journal.files import journal_stem, others_holding
from annotator.journal.instance_lock import DEAD, LIVE, UNKNOWN, InstanceLock, read_lock, write_lock
from annotator.journal.recovery_journal import RecoveryJournal
from annotator.log.annotations import set_task_completion, set_transcription
from tests.support.journal_edits import dead_pid, die, window
from tests.support.repository import REPO


def test_two_windows_on_one_log_keep_two_journals_and_neither_is_offered_the_other(annotated_log: Path):
    doc_a, a = window(annotated_log)
    set_transcription(doc_a.sessions[0].user_turns[0], "from window a")
    a.flush()
    doc_b, b = window(annotated_log)
    assert b.leftovers().entries == [], "live work is not a leftover"
    assert a.file != b.file and a.lock_file != b.lock_file
    assert set(b.others()) == {a.instance} and set(a.others()) == {b.instance}
    set_transcription(doc_b.sessions[0].user_turns[1], "from window b")
    b.flush()
    b.discard()
    doc_b.save()
    b.saved(doc_b)
    assert a.file.exists(), "neither a discard nor a save of window b touches window a's journal"
    assert json.loads(a.file.read_text())["transcriptions"][0]["text"] == "from window a"


def test_the_work_of_two_dead_windows_is_claimed_once_and_restores_both(annotated_log: Path):
    doc_a, a = window(annotated_log)
    doc_b, b = window(annotated_log)
    set_transcription(doc_a.sessions[0].user_turns[0], "from window a")
    set_task_completion(doc_b.sessions[0], "0")
    a.flush()
    b.flush()
    die(a)
    die(b)
    doc_c, c = window(annotated_log)
    doc_d, d = window(annotated_log)
    found_c, found_d = c.leftovers(), d.leftovers()
    assert len(found_c.entries) == 2 and found_d.entries == [], "claimed by exactly one window"
    assert not a.lock_file.exists() and not b.lock_file.exists(), "dead windows' locks are cleaned up"
    assert len(c.restore(doc_c, found_c.entries)) == 2
    c.flush()
    c.drop(found_c.entries)
    assert doc_c.sessions[0].user_turns[0].transcription == "from window a"
    assert doc_c.sessions[0].task_completion == "0"
    assert sorted(p.name for p in c.folder.glob("*.json")) == [c.file.name]


def test_a_journal_of_the_old_one_per_log_kind_is_offered(annotated_log: Path):
    doc, journal = window(annotated_log)
    set_transcription(doc.sessions[0].user_turns[0], "written by an older version")
    journal.flush()
    journal.close()
    journal.file.rename(journal.folder / f"{journal_stem(journal.log_path)}.json")
    [entry] = window(annotated_log)[1].leftovers().entries
    assert entry.edits.transcriptions[0].text == "written by an older version"


def test_a_reloaded_document_offers_its_own_window_s_journal(annotated_log: Path):
    doc, journal = window(annotated_log)
    set_transcription(doc.sessions[0].user_turns[0], "typed before the reload")
    journal.flush()
    journal.close(release=False)  # what the window does before a reload
    fresh = doc.reload()
    again = RecoveryJournal(fresh, instance=journal.instance)
    again.hold()
    [entry] = again.leftovers().entries
    assert entry.file != again.file and not again.file.exists(), "claimed: the new journal starts afresh"
    assert len(again.restore(fresh, [entry])) == 1


def test_lock_states(tmp_path: Path):
    mine = InstanceLock.of_this_process()
    assert mine.state() == LIVE and "on this computer" in mine.describe()
    assert replace(mine, pid=dead_pid()).state() == DEAD
    assert replace(mine, host=mine.host + "-elsewhere").state() == UNKNOWN
    assert "the computer " + mine.host + "-elsewhere" in replace(mine, host=mine.host + "-elsewhere").describe()
    if mine.started is not None:  # Linux: the pid now belongs to another process
        assert replace(mine, started=mine.started - 1).state() == DEAD
    if mine.boot is not None:  # the machine rebooted since
        assert replace(mine, boot="another-boot").state() == DEAD
    write_lock(tmp_path / "x.lock", mine)
    assert read_lock(tmp_path / "x.lock") == replace(mine, since=mine.since.replace(microsecond=0))
    for junk in (
        b"",
        b"{",
        b'{"pid": 0, "host": "h", "boot": null, "started": null, "since": "2026-01-01"}',
        b'{"pid": 1e400}',
        b"[" * 100_000,
        b'{"pid": true, "host": "h", "boot": null, "started": null}',
    ):
        (tmp_path / "junk.lock").write_bytes(junk)
        assert read_lock(tmp_path / "junk.lock") is None


def test_a_zombie_is_dead(tmp_path: Path):
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # exited, not yet reaped
    lock = replace(InstanceLock.of_this_process(), pid=child.pid, started=instance_lock.process_start_time(child.pid))
    assert lock.state() == DEAD
    child.wait()


def test_a_window_on_another_host_is_asked_about_and_taken_over_only_when_told(annotated_log: Path):
    doc_a, a = window(annotated_log)
    set_transcription(doc_a.sessions[0].user_turns[0], "typed on the other computer")
    a.flush()
    die(a, host="lab-3", pid=12345)
    doc_b, b = window(annotated_log)
    holders = others_holding(b.log_path, b.instance)
    assert {owner: lock.state() for owner, lock in holders.items()} == {a.instance: UNKNOWN}
    assert b.leftovers().entries == [] and a.file.exists(), "not offered, not deleted: it may still be working"
    [entry] = b.leftovers(taken_over={a.instance}).entries
    assert entry.edits.transcriptions[0].text == "typed on the other computer"


def test_a_killed_process_leaves_a_lock_that_is_recognised_as_stale(annotated_log: Path):
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"""
import sys, time
sys.path.insert(0, {str(REPO)!r})
from tests.support.journal_edits import window
from annotator.log.annotations import set_transcription
doc, journal = window({str(annotated_log)!r})
set_transcription(doc.sessions[0].user_turns[0], "killed")
journal.flush()
print(journal.instance, flush=True)
time.sleep(600)
""",
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    try:
        instance = child.stdout.readline().strip()
        doc, journal = window(annotated_log)
        assert set(journal.others()) == {instance} and journal.leftovers().entries == []
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert journal.others() == {}
    [entry] = journal.leftovers().entries
    assert entry.edits.transcriptions[0].text == "killed"


@pytest.mark.parametrize("since", ["2026-11-21T14:02:00+01:00", "2026-11-21T14:02:00"])
def test_a_lock_says_when_the_log_was_opened(since: str):
    raw = json.dumps({"pid": os.getpid(), "host": "h", "boot": None, "started": None, "since": since}).encode()
    assert InstanceLock.parse(raw).since == datetime.fromisoformat(since).astimezone()


def test_after_a_save_as_the_lock_follows_the_document(annotated_log: Path, tmp_path: Path):
    doc, journal = window(annotated_log)
    set_transcription(doc.sessions[0].user_turns[0], "saved elsewhere")
    journal.flush()
    doc.path = tmp_path / "copy.xml"
    doc.save()
    journal.saved(doc)
    assert others_holding(annotated_log.resolve(), "someone else") == {}
    assert set(others_holding((tmp_path / "copy.xml").resolve(), "someone else")) == {journal.instance}
    assert list(journal.folder.glob("*.json")) == [], "the copy holds the edits"


def test_a_write_a_dead_window_was_killed_in_leaves_nothing_behind(annotated_log: Path):
    doc_a, a = window(annotated_log)
    set_transcription(doc_a.sessions[0].user_turns[0], "half written")
    a.flush()
    interrupted = a.folder / f".{a.file.name}.abcd1234.tmp"  # what write_atomic leaves when killed
    interrupted.write_bytes(a.file.read_bytes()[:10])
    os.utime(interrupted, (0, 0))
    die(a)
    window(annotated_log)[1].leftovers()
    assert not interrupted.exists()


def test_fifos_named_like_a_lock_and_a_journal_are_never_opened(annotated_log: Path):
    """A FIFO in the journal folder, named as another window's lock and journal would be, blocked the
    window's start for good (an open for reading waits for a writer); they are passed over."""
    doc, journal = window(annotated_log)
    stem = journal_stem(annotated_log.resolve())
    lock_fifo = journal.folder / f"{stem}.0badc0ffee00.lock"
    journal_fifo = journal.folder / f"{stem}.0badc0ffee01.json"
    os.mkfifo(lock_fifo)
    os.mkfifo(journal_fifo)
    assert read_lock(lock_fifo) is None
    assert others_holding(annotated_log.resolve(), journal.instance, journal.folder) == {}
    assert journal.leftovers().entries == [], "nothing was read from the FIFOs"
    journal.discard()
