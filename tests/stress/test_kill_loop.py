"""The kill loop (see kill_loop.py); not in the default run: `KILL_LOOP_COUNT=20 python -m pytest tests/stress -q`."""

from __future__ import annotations

from pathlib import Path

from tests.support.kill_loop import count_from_environment, run


def test_the_log_survives_every_sigkill(tmp_path: Path):
    count = count_from_environment()
    report = run(tmp_path / "session", count)
    print(f"\nkill loop: {report}")
    assert report.failures == []
    assert report.kills == count
    assert report.version_a + report.version_b == count
    assert report.saves_seen > count, "the children were saving when killed"
    assert report.leftovers_at_end == 0, "leftovers of killed saves are cleaned up"
