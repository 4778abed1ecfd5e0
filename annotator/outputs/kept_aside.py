"""The previous file of an output, kept aside while a group of files is moved into place, and what a run
killed meanwhile left of it.

replace_together (annotator.outputs.staging) keeps each output's present file as a hidden
`.NAME.xxxxxxxx.previous` beside it, a hard link (or, where there are none, the file itself renamed),
so that a failed move can put every output back. A run killed outright (SIGKILL, a power cut) between
keeping it aside and the end leaves it there; where the file had been renamed, the output is missing
and that hidden file is its only copy. The next run writing the same output puts it back where the
output is missing, and removes it where the output is in place.
"""

from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path

# A file kept aside less long ago than this may belong to a run still moving its files into place.
ABANDONED_AFTER_SECONDS = 60.0
_KEPT_ASIDE = re.compile(r"\.(.+)\.[0-9a-f]{8}\.previous")  # what keep_aside names: the output's name inside


def keep_aside(final: Path) -> Path:
    """A hidden hard link to FINAL's present file beside it (FINAL stays in place), or FINAL moved there."""
    while True:
        aside = final.with_name(f".{final.name}.{secrets.token_hex(4)}.previous")
        try:
            os.link(final, aside, follow_symlinks=False)
            return aside
        except FileExistsError:
            continue
        except OSError:
            if os.path.lexists(aside):
                continue
            os.rename(final, aside)  # no hard links here: FINAL is missing until its replacement lands
            return aside


def put_back_kept_aside(finals: list[Path]) -> list[Path]:
    """Deal with the files a killed run kept aside for each of FINALS: the newest put back when its output is
    missing, the others removed; those kept aside in the last ABANDONED_AFTER_SECONDS are left alone. Each
    folder is listed once, however many outputs it holds. The files seen."""
    wanted: dict[Path, set[str]] = {}
    for final in finals:
        wanted.setdefault(final.parent, set()).add(final.name)
    seen = []
    for folder, names in wanted.items():
        try:
            listed = os.listdir(folder if str(folder) else ".")
        except OSError:
            continue
        kept: dict[str, list[str]] = {}
        for name in listed:
            found = _KEPT_ASIDE.fullmatch(name)
            if found is not None and found.group(1) in names:
                kept.setdefault(found.group(1), []).append(name)
        for final_name, asides in kept.items():
            seen += _put_back(folder / final_name, [folder / aside for aside in asides])
    return seen


def _put_back(final: Path, asides: list[Path]) -> list[Path]:
    now, abandoned = time.time(), []
    for path in asides:
        try:
            changed = os.lstat(path).st_ctime  # when it was linked or renamed aside, not its content's time
        except OSError:
            continue
        if now - changed >= ABANDONED_AFTER_SECONDS:
            abandoned.append((changed, path))
    abandoned.sort(reverse=True)
    for position, (_changed, path) in enumerate(abandoned):
        try:
            if position == 0 and not os.path.lexists(final):
                os.rename(path, final)  # its only copy: the output as it was before the killed run
            else:
                path.unlink()
        except OSError:
            continue
    return [path for _changed, path in abandoned]
