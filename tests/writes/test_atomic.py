"""Atomic writes leave the previous file intact on failure."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from annotator.errors import WriteError
from annotator.writes.atomic import write_atomic


def test_replaces_and_keeps_permissions(tmp_path: Path):
    target = tmp_path / "f.xml"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert os.stat(target).st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["f.xml"], "no temporary file left behind"


def test_failure_while_writing_keeps_the_old_file(tmp_path: Path):
    target = tmp_path / "f.xml"
    target.write_bytes(b"old")

    def explode(stream):
        stream.write(b"half")
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteError, match="No space left on device"):
        write_atomic(target, explode)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.xml"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root ignores folder permissions")
def test_read_only_folder(tmp_path: Path):
    target = tmp_path / "f.xml"
    target.write_bytes(b"old")
    os.chmod(tmp_path, 0o500)
    try:
        with pytest.raises(WriteError, match="cannot write"):
            write_atomic(target, b"new")
    finally:
        os.chmod(tmp_path, 0o700)
    assert target.read_bytes() == b"old"


def test_read_only_file_is_not_replaced(tmp_path: Path):
    """os.replace in a writable folder would replace a chmod a-w file, root or not; the write is refused."""
    target = tmp_path / "f.xml"
    target.write_bytes(b"old")
    os.chmod(target, 0o444)
    with pytest.raises(WriteError, match=r"f\.xml: is read-only \(-r--r--r--\)"):
        write_atomic(target, b"new")
    assert target.read_bytes() == b"old"
    assert os.stat(target).st_mode & 0o777 == 0o444
    assert [p.name for p in tmp_path.iterdir()] == ["f.xml"], "no temporary file left behind"


def test_read_only_file_behind_a_symlink_is_not_replaced(tmp_path: Path):
    target = tmp_path / "real.xml"
    target.write_bytes(b"old")
    os.chmod(target, 0o400)
    (tmp_path / "link.xml").symlink_to(target)
    with pytest.raises(WriteError, match=r"link\.xml: is read-only"):
        write_atomic(tmp_path / "link.xml", b"new")
    assert target.read_bytes() == b"old"
