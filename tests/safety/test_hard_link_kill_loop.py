"""Kill -9 during saves of a log that has another hard link (written in place, annotator.writes.inplace):
after every kill, loading leaves the log exactly the old or the new version, same inode, same under
both names. 50 kills here; `HARD_LINK_KILLS=500 python -m pytest tests/safety/test_hard_link_kill_loop.py`
for more."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.kill_loop import run


@pytest.mark.slow
def test_a_hard_linked_log_survives_every_sigkill(tmp_path: Path):
    count = int(os.environ.get("HARD_LINK_KILLS", "50"))
    report = run(tmp_path / "session", count, hardlinked=True)
    print(f"\nhard-link kill loop: {report}")
    assert report.failures == []
    assert report.kills == count and report.version_a + report.version_b == count
    assert report.saves_seen > count, "the children were saving when killed"
    assert report.leftovers_at_end == 0
