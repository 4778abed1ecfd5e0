"""The journal kill loop (see journal_kill_loop.py); not in the default run:
`KILL_LOOP_COUNT=20 python -m pytest tests/stress -q`."""

from __future__ import annotations

from pathlib import Path

from tests.support.journal_kill_loop import run
from tests.support.kill_loop import count_from_environment


def test_no_edit_older_than_2_s_is_lost_to_a_sigkill(tmp_path: Path):
    count = count_from_environment()
    report = run(tmp_path, count)
    print(f"\njournal kill loop: {report}")
    assert report.failures == [], "\n".join(report.failures)
    assert report.kills == count
    assert report.edits_due > count, "the windows were editing when killed"
    assert report.two_window_rounds > 0 or count < 4
    assert report.restored_rounds > 0
    assert report.children_left == 0, "the validation children die with their window"
