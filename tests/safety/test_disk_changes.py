"""A log changed on disk by another program while open: noticed on save, nothing silently lost."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path

import pytest

from annotator.annotation_files.fold import extract
from annotator.errors import AnnotatorError, LogChangedOnDiskError
from annotator.log.annotations import set_transcription
from annotator.log.document import LogDocument
from annotator.reading import disk_changes
from tests.support.xml_builders import log_text, session, system_turn, user_turn, write_log


@pytest.fixture
def log(tmp_path: Path) -> Path:
    return write_log(
        tmp_path / "log.xml",
        log_text([session("s", [system_turn("1", 1000, "Where to?"), user_turn("2", 1002, "boston")])]),
    )


def _edited(path: Path) -> LogDocument:
    doc = LogDocument.load(path)
    set_transcription(doc.sessions[0].turns[1], "to boston")
    return doc


def _other_program_writes(path: Path, data: bytes) -> None:
    path.write_bytes(data)  # in place, as many editors do: same inode, new bytes


def test_unchanged_and_touched_files_save_normally(log: Path):
    doc = _edited(log)
    assert not doc.changed_on_disk()
    os.utime(log, ns=(1, 1))  # `touch`: a new mtime, the same bytes
    assert not doc.changed_on_disk()
    doc.save()
    assert LogDocument.load(log).sessions[0].turns[1].transcription == "to boston"
    assert not doc.changed_on_disk() and not doc.is_modified


@pytest.mark.parametrize("change", ["same size", "longer", "replaced"])
def test_save_refuses_to_overwrite_another_programs_change(log: Path, change: str):
    doc = _edited(log)
    original = log.read_bytes()
    if change == "same size":  # same length, same mtime tick possible: only the hash tells
        theirs = original.replace(b"boston", b"austin")
        _other_program_writes(log, theirs)
        os.utime(log, ns=(doc.stamp.mtime_ns, doc.stamp.mtime_ns))
    elif change == "longer":
        theirs = original.replace(b"Where to?", b"Where do you want to go?")
        _other_program_writes(log, theirs)
    else:  # an atomic replace by another tool: a new inode
        theirs = original.replace(b"Where to?", b"Where now?")
        log.with_name("other.tmp").write_bytes(theirs)
        os.replace(log.with_name("other.tmp"), log)
    assert doc.changed_on_disk()
    with pytest.raises(LogChangedOnDiskError) as caught:
        doc.save()
    message = str(caught.value)
    assert isinstance(caught.value, AnnotatorError)
    assert message == f"{log} was changed by another program since it was opened; reload it or save with overwrite"
    assert log.read_bytes() == theirs, "the other program's bytes are kept"
    assert doc.is_modified, "and our edits are still in the document"
    assert [p.name for p in log.parent.iterdir()] == ["log.xml"]


def test_reload_takes_their_version_and_keeps_ours_in_the_old_document(log: Path):
    doc = _edited(log)
    theirs = log.read_bytes().replace(b"Where to?", b"Where now?")
    _other_program_writes(log, theirs)
    fresh = doc.reload()
    assert fresh.sessions[0].turns[0].system_text == "Where now?"
    assert fresh.sessions[0].turns[1].transcription is None and not fresh.changed_on_disk()
    assert doc.sessions[0].turns[1].transcription == "to boston", "our edit survives the reload"
    # Reload, then carry our annotations over, then save: both changes are kept.
    set_transcription(fresh.sessions[0].turns[1], doc.sessions[0].turns[1].transcription)
    fresh.save()
    final = LogDocument.load(log)
    assert final.sessions[0].turns[0].system_text == "Where now?"
    assert extract(final) == extract(doc)


def test_overwrite_replaces_their_version_on_purpose(log: Path):
    doc = _edited(log)
    _other_program_writes(log, log.read_bytes().replace(b"Where to?", b"Where now?"))
    doc.save(overwrite=True)
    assert log.read_bytes() == doc.serialize()
    assert not doc.changed_on_disk() and not doc.is_modified
    set_transcription(doc.sessions[0].turns[1], "to austin")
    doc.save()  # the stamp was renewed: the next save in place is not refused


def test_a_deleted_file_is_not_silently_recreated(log: Path):
    doc = _edited(log)
    log.unlink()
    assert doc.changed_on_disk()
    with pytest.raises(LogChangedOnDiskError, match="deleted or moved by another program"):
        doc.save()
    assert not log.exists()
    doc.save(overwrite=True)
    assert LogDocument.load(log).sessions[0].turns[1].transcription == "to boston"


def test_save_as_elsewhere_is_never_refused(log: Path, tmp_path: Path):
    doc = _edited(log)
    _other_program_writes(log, log.read_bytes().replace(b"Where to?", b"Where now?"))
    copy = tmp_path / "copy.xml"
    copy.write_bytes(b"an older copy")
    doc.save(copy)  # save as: the user chose the target
    assert copy.read_bytes() == doc.serialize()
    # The GUI's save as moves the document to its new path, then saves in place there.
    doc.path = tmp_path / "moved.xml"
    doc.save()
    assert not doc.changed_on_disk()
    set_transcription(doc.sessions[0].turns[1], "again")
    doc.save()
    assert LogDocument.load(tmp_path / "moved.xml").sessions[0].turns[1].transcription == "again"


# --- leftovers of saves killed half way ---------------------------------------------------


def _leftover(log: Path, name: str, age: float) -> Path:
    path = log.with_name(f".{log.name}.{name}.tmp")
    path.write_bytes(b"<GC_LOG half written")
    then = time.time() - age
    os.utime(path, (then, then))
    return path


def test_save_removes_what_killed_saves_left_but_not_live_writers_files(log: Path):
    dead = _leftover(log, "dead1234", age=60)
    young = _leftover(log, "young123", age=0)
    live = _leftover(log, "live1234", age=60)
    other = log.with_name(".other.xml.dead1234.tmp")
    other.write_bytes(b"")
    os.utime(other, (1, 1))
    unrelated = log.with_name(f".{log.name}.notours.tmp")
    unrelated.write_bytes(b"")
    os.utime(unrelated, (1, 1))
    with open(live, "rb") as holder:
        fcntl.flock(holder.fileno(), fcntl.LOCK_EX)  # a writer still at work holds its lock
        assert set(disk_changes.stale_temp_files(log)) == {dead, young, live}
        _edited(log).save()
    assert not dead.exists()
    assert young.exists() and live.exists(), "young or locked: possibly a live writer's"
    assert other.exists() and unrelated.exists(), "only this log's temporary files"


def test_a_save_holds_its_lock_until_the_replace(log: Path, monkeypatch):
    """While write_atomic replaces the target, the temporary file is still locked."""
    seen: list[bool] = []
    real_replace = os.replace

    def spying_replace(source, target):
        fd = os.open(source, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            seen.append(False)
        except BlockingIOError:
            seen.append(True)
        finally:
            os.close(fd)
        return real_replace(source, target)

    monkeypatch.setattr(os, "replace", spying_replace)
    _edited(log).save()
    assert seen == [True]
