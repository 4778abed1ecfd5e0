"""Fixtures of the data-safety tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.tmpfs import mount_tmpfs, unmount


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 256 KiB tmpfs of the test's own at tmp_path/tmpfs, unmounted at the end (skipped where mounting is not
    permitted)."""
    mountpoint = tmp_path / "tmpfs"
    if not mount_tmpfs(mountpoint):
        pytest.skip("mounting a tmpfs is not permitted here")
    try:
        yield mountpoint
    finally:
        unmount(mountpoint)
