"""Work the process-map tests hand to worker processes: pickled by its module path, so it lives in a module
every worker can import."""

from __future__ import annotations

import os
import time
from pathlib import Path


def record_and_wait(folder: Path, path: Path) -> None:
    (folder / f"pid-{os.getpid()}").touch()
    time.sleep(60)
