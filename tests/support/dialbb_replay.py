"""DialBB's own test tool (dialbb-test, a peer tool) replaying an exported scenario through an application that
answers each user line with the scenario's next system line (tests/export/dialbb_app)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.peer_tools import peer_tool
from tests.support.repository import REPO

APP = REPO / "tests" / "export" / "dialbb_app" / "config.yml"
DIALBB_TEST = peer_tool("DIALBB_TEST", "dialbb-test", venv=".venv-dialbb")
needs_dialbb = pytest.mark.skipif(
    DIALBB_TEST is None,
    reason="DialBB's test tool is not installed. Its full dependency set is heavy (LangChain, PySide6...), so: "
    "python3 -m venv .venv-dialbb && .venv-dialbb/bin/pip install --no-deps dialbb==2.0.2 && "
    ".venv-dialbb/bin/pip install pymongo==4.20.0 python-dotenv==1.2.2 PyYAML==6.0.3 (found there, at the "
    "top of the checkout), or put dialbb-test on PATH, or set DIALBB_TEST to it",
)


def replay(scenario: Path, folder: Path) -> tuple[list[str], str]:
    """Run dialbb-test over SCENARIO with the replaying application: (its --output lines, its stdout)."""
    output = folder / "replayed.txt"
    environment = {**os.environ, "DIALBB_REPLAY_SCENARIO": str(scenario)}
    result = subprocess.run(
        [DIALBB_TEST, str(APP), str(scenario), "--output", str(output)],
        cwd=folder,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    return output.read_text(encoding="utf-8").splitlines(), result.stdout
