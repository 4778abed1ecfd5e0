"""Where the recovery journals and locks live, and whose file is whose: the data folder ($ANNOTATOR_DATA_DIR,
else the user's data folder), a log's journal stem (readable, unique per resolved path), a window's instance
name, and the other windows holding a log."""

from __future__ import annotations

import hashlib
import os
import re
import uuid
from pathlib import Path

from annotator.journal import instance_lock

APP_NAME = "communicator-annotator"
DATA_DIR_VARIABLE = "ANNOTATOR_DATA_DIR"


def data_dir() -> Path:
    """The user's data folder for the annotator ($ANNOTATOR_DATA_DIR overrides it)."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def journal_dir() -> Path:
    return data_dir() / "journals"


def new_instance() -> str:
    return uuid.uuid4().hex[:12]


def others_holding(log_path: Path, instance: str, folder: Path | None = None) -> dict[str, instance_lock.InstanceLock]:
    """The windows other than INSTANCE holding the log at LOG_PATH (resolved) whose owner runs or
    cannot be checked from here, by instance."""
    folder = folder if folder is not None else journal_dir()
    stem = journal_stem(log_path)
    found: dict[str, instance_lock.InstanceLock] = {}
    for path in folder.glob(f"{stem}.*.lock"):
        owner = owner_of(stem, path)
        assert owner is not None  # the glob leaves INSTANCE.lock after the stem
        lock = instance_lock.read_lock(path)
        if owner != instance and lock is not None and lock.state() != instance_lock.DEAD:
            found[owner] = lock
    return found


def journal_stem(log_path: Path) -> str:
    """'travel-001-hublog.xml-3f2a...': readable, and unique per resolved path."""
    digest = hashlib.sha256(str(log_path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    readable = re.sub(r"[^A-Za-z0-9._-]", "_", log_path.name)[:60]
    return f"{readable}-{digest}"


def owner_of(stem: str, path: Path) -> str | None:
    """The instance a journal or lock file belongs to; None for a journal of the old one-per-log kind."""
    rest = path.name[len(stem) + 1 :]
    return rest.split(".")[0] if rest.count(".") else None
