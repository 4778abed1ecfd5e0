"""Saving a log reached through a symlink writes the real file; a hard-linked log keeps its inode;
mode, group and owner survive a save."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from annotator.errors import WriteError
from annotator.log.annotations import set_transcription
from annotator.log.audio_refs import resolver_for
from annotator.log.document import LogDocument
from annotator.writes.atomic import write_atomic
from annotator.writes.inplace import side_files
from tests.support.repository import SAMPLE_LOGS

SESSION = "travel-20261121-001"
NAME = f"{SESSION}-hublog.xml"


@pytest.fixture
def real_log(tmp_path: Path) -> Path:
    """A copy of a sample session (log and audio) in tmp_path/real/."""
    folder = tmp_path / "real"
    shutil.copytree(SAMPLE_LOGS / SESSION, folder)
    return folder / NAME


def _edit_and_save(path: Path, text: str = "to boston, please") -> LogDocument:
    doc = LogDocument.load(path)
    set_transcription(doc.sessions[0].user_turns[0], text)
    doc.save()
    return doc


def _audio_found(doc: LogDocument) -> int:
    resolver = resolver_for(doc.path)
    return sum(
        resolver.resolve(turn, "input") is not None and resolver.resolve(turn, "input").found
        for turn in doc.sessions[0].user_turns
    )


def _leftovers(*folders: Path) -> list[str]:
    return [p.name for folder in folders for p in folder.iterdir() if p.name.startswith(".")]


@pytest.mark.parametrize("how", ["relative", "absolute", "chain"])
def test_saving_through_a_symlink_writes_the_real_log(tmp_path: Path, real_log: Path, how: str):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    link = elsewhere / "link.xml"
    if how == "relative":
        link.symlink_to(os.path.relpath(real_log, elsewhere))
    elif how == "absolute":
        link.symlink_to(real_log)
    else:
        middle = tmp_path / "middle.xml"
        middle.symlink_to(real_log)
        link.symlink_to(middle)
    written_in_link = os.readlink(link)
    doc = LogDocument.load(link)
    found_before = _audio_found(doc)
    assert found_before > 0 and doc.folder == real_log.parent
    set_transcription(doc.sessions[0].user_turns[0], "to boston, please")
    doc.save()
    assert link.is_symlink() and os.readlink(link) == written_in_link, "the link is still the same link"
    assert LogDocument.load(real_log).sessions[0].user_turns[0].transcription == "to boston, please"
    assert doc.folder == real_log.parent and _audio_found(LogDocument.load(link)) == found_before
    assert _leftovers(elsewhere, real_log.parent) == []
    doc.save()  # saving again: the stamp was taken from the real file, nothing "changed on disk"


def test_save_as_to_a_dangling_link_is_a_clear_error(tmp_path: Path, real_log: Path):
    dangling = tmp_path / "dangling.xml"
    dangling.symlink_to(tmp_path / "gone" / "nowhere.xml")
    doc = LogDocument.load(real_log)
    with pytest.raises(WriteError) as caught:
        doc.save(dangling)
    message = str(caught.value)
    assert message.startswith(str(dangling)) and "symbolic link" in message and "nowhere.xml" in message
    assert "does not exist" in message and "\n" not in message
    assert dangling.is_symlink() and not dangling.exists()


def test_a_symlink_loop_is_a_clear_error(tmp_path: Path):
    loop = tmp_path / "loop.xml"
    loop.symlink_to(loop)
    with pytest.raises(WriteError, match="symbolic link"):
        write_atomic(loop, b"x")


def test_mode_group_and_owner_are_kept(real_log: Path):
    os.chmod(real_log, 0o640)
    if os.geteuid() == 0:
        os.chown(real_log, 4321, 1234)
    before = os.stat(real_log)
    _edit_and_save(real_log)
    after = os.stat(real_log)
    assert after.st_mode & 0o7777 == 0o640
    assert after.st_gid == before.st_gid and after.st_uid == before.st_uid
    assert after.st_ino != before.st_ino, "an ordinary save replaces the file atomically"


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's group to another gid needs root here")
def test_group_is_kept_through_a_symlink(tmp_path: Path, real_log: Path):
    os.chown(real_log, -1, 2345)
    os.chmod(real_log, 0o660)
    link = tmp_path / "link.xml"
    link.symlink_to(real_log)
    _edit_and_save(link, "through the link")
    assert LogDocument.load(real_log).sessions[0].user_turns[0].transcription == "through the link"
    assert os.stat(real_log).st_gid == 2345 and os.stat(real_log).st_mode & 0o777 == 0o660


def test_a_hard_linked_log_is_written_in_place(tmp_path: Path, real_log: Path):
    other = tmp_path / "other-name.xml"
    os.link(real_log, other)
    inode = os.stat(real_log).st_ino
    doc = _edit_and_save(real_log, "hard links see this")
    assert os.stat(real_log).st_ino == inode, "the same file, not a new one"
    assert other.read_bytes() == real_log.read_bytes()
    assert LogDocument.load(other).sessions[0].user_turns[0].transcription == "hard links see this"
    assert any("1 other hard link" in notice for notice in doc.save_notices)
    assert _leftovers(real_log.parent, tmp_path) == []


def _interrupted(real_log: Path, on_disk: bytes, new: bytes | None) -> tuple[bytes, Path]:
    """REAL_LOG (hard-linked) as an in-place save killed half way left it: ON_DISK in the file, the
    backup of the old content, and NEW as the new-content file (None: not there)."""
    os.link(real_log, real_log.with_name("other.xml"))
    old = real_log.read_bytes()
    new_file, backup = side_files(real_log)
    backup.write_bytes(old)
    if new is not None:
        new_file.write_bytes(new)
    with open(real_log, "r+b") as stream:  # in place, as the killed save wrote
        stream.write(on_disk)
        stream.truncate()
    return old, real_log.with_name("other.xml")


@pytest.mark.parametrize("state", ["torn", "finished", "untouched"])
def test_loading_puts_an_interrupted_in_place_save_right(real_log: Path, state: str):
    old = real_log.read_bytes()
    new = old.replace(b"i want to fly to boston", b"i want to fly to boston today")
    on_disk = {
        "torn": new[: len(new) // 2] + old[len(new) // 2 : len(new) // 2 + 100],
        "finished": new,
        "untouched": old,
    }[state]
    _, other = _interrupted(real_log, on_disk, new)
    doc = LogDocument.load(other)  # through either name
    expected = new if state == "finished" else old
    assert real_log.read_bytes() == expected == other.read_bytes()
    words = {"torn": "rolled back", "finished": "had finished", "untouched": "had not changed it"}[state]
    assert any(words in note for note in doc.notes), doc.notes
    assert _leftovers(real_log.parent) == []
    assert LogDocument.load(real_log).notes == [], "said once"


def test_a_new_content_file_without_a_backup_is_a_leftover_removed_quietly(real_log: Path):
    leftover, _ = side_files(real_log)
    leftover.write_bytes(b"half")
    assert LogDocument.load(real_log).notes == []
    assert not leftover.exists()


def test_a_file_without_other_links_says_nothing(real_log: Path):
    assert _edit_and_save(real_log).save_notices == ()
