"""Kill -9 during `annotator replace` over five logs: after every kill each log is whole, one version or the
other, and the temporary files kills leave are gone after the next replace of each log. 30 kills here;
`REPLACE_KILLS=300 python -m pytest tests/safety/test_replace_kill_loop.py` for more."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.replace_kill_loop import run


@pytest.mark.slow
def test_every_log_survives_every_sigkill_of_a_replace(tmp_path: Path):
    count = int(os.environ.get("REPLACE_KILLS", "30"))
    report = run(tmp_path, count)
    print(f"\nreplace kill loop: {report}")
    assert report.failures == []
    assert report.kills == count
    assert report.leftovers_at_end == 0
