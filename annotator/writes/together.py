"""Several files written all or nothing: every new version staged first, then all put in place, and those
already in place put back if one fails.

One atomic write after another leaves the first files written when a later one fails (a full disk, a file
too large), so a run over many logs stopped half way. Here each file's new content is written first to a
temporary file beside it (`.NAME.xxxxxxxx.tmp`, fsynced, with the file's owner and mode, under an flock):
what fails there, as a full disk does, fails before any file has changed. Then each file is put in place,
as write_atomic does, by a rename: the file it replaces is kept meanwhile under a hard link of the same
kind of name, so that it can be renamed back if a later file cannot be put in place. A file with other
hard links is written in place instead (annotator.writes.inplace; a rename would detach its other names)
with a copy of its content staged to write back. Only when every file is in place do the kept versions
go.

A kill -9 at any moment leaves every file whole, the old version or the new (each moves by one rename or
by the in-place protocol), and the temporary files of the run beside them: loading ignores those, and the
next save of the same file removes them (annotator.reading.disk_changes.remove_stale_temp_files), as it
does for a single save killed half way.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import BinaryIO

from annotator.errors import WriteError
from annotator.writes.atomic import writable_target
from annotator.writes.durable import Writer, Written, remove_quietly, sync_folder, write_beside
from annotator.writes.inplace import links_notice, lock, write_in_place

_NAME_LETTERS = "abcdefghijklmnopqrstuvwxyz0123456789_"  # what tempfile.mkstemp puts in its names


@dataclass
class _Staged:
    path: Path  # as given
    target: Path  # the file written: PATH, or the file its symlinks finally name
    existing: os.stat_result | None  # the file there before, None for a new file
    new: Path  # the new content, complete and fsynced
    held: list[int] = field(default_factory=list)  # descriptors holding flocks on NEW and OLD while they are ours
    old: Path | None = None  # the previous version while it may have to go back
    keep_old: bool = False  # putting it back failed: the message names OLD, so it stays

    @property
    def in_place(self) -> bool:
        return self.existing is not None and self.existing.st_nlink > 1


def write_together(contents: Sequence[tuple[Path, bytes | Writer]]) -> list[Written]:
    """Write each (PATH, CONTENT) of CONTENTS, replacing the file or making it, all or nothing (see module).

    Raises WriteError naming the file that failed; every file is then as it was."""
    staged: list[_Staged] = []
    try:
        for path, content in contents:
            staged.append(_stage(path, content))
        placed: list[_Staged] = []
        for step in staged:
            try:
                _put_in_place(step)
            except (OSError, WriteError) as error:
                raise WriteError(_failure(step, error, bool(placed), _put_back(placed))) from None
            placed.append(step)
        return [Written(step.target, _notices(step)) for step in staged]
    finally:
        for step in staged:
            _clean(step)


def _stage(path: Path, content: bytes | Writer) -> _Staged:
    target, existing = writable_target(path)
    try:
        new = _complete(path, target, content, existing)
    except WriteError as error:
        raise WriteError(f"{error}; nothing written") from None
    step = _Staged(path, target, existing, new.path, [new.held])
    if step.in_place:  # written over, not replaced: its content now is what a failure writes back
        try:
            old = _complete(path, target, partial(_copy_from, target), existing)
        except BaseException as error:
            _clean(step)
            if isinstance(error, WriteError):
                raise WriteError(f"{error}; nothing written") from None
            raise
        step.old = old.path
        step.held.append(old.held)
    return step


def _complete(path: Path, target: Path, content: bytes | Writer, existing: os.stat_result | None) -> _Complete:
    """A temporary file beside TARGET holding CONTENT, fsynced, under an flock that keeps a stale-file cleanup from
    taking it while this run lives."""
    held: list[int] = []

    def hold(descriptor: int) -> None:
        held.append(os.dup(descriptor))
        lock(held[0], exclusive=True)

    try:
        return _Complete(write_beside(path, target, content, existing, on_open=hold), held[0])
    except BaseException:
        for descriptor in held:
            os.close(descriptor)
        raise


@dataclass(frozen=True)
class _Complete:
    path: Path
    held: int


def _copy_from(source: Path, stream: BinaryIO) -> None:
    with open(source, "rb") as reader:
        shutil.copyfileobj(reader, stream)


def _put_in_place(step: _Staged) -> None:
    if step.in_place:
        assert step.existing is not None
        write_in_place(step.path, step.target, partial(_copy_from, step.new), step.existing.st_nlink - 1)
        return
    if step.existing is not None:  # kept under a second name until every file is in place: moments, as the
        step.old = _hard_link(step.target)  # stale-file cleanup leaves names younger than 2 s alone
    os.replace(step.new, step.target)
    _let_go(step)  # the flock is now the log's own: a load, or an in-place write through another name, waits on it
    sync_folder(step.target.parent)


def _hard_link(target: Path) -> Path:
    """A second name for TARGET beside it, named as the temporary files of its saves are."""
    while True:
        name = target.with_name(f".{target.name}.{''.join(secrets.choice(_NAME_LETTERS) for _ in range(8))}.tmp")
        try:
            os.link(target, name)
            return name
        except FileExistsError:
            continue


def _put_back(placed: Iterable[_Staged]) -> list[str]:
    """Undo the files put in place, last first; what could not be undone, in words."""
    failures = []
    for step in reversed(list(placed)):
        try:
            if step.in_place:
                assert step.existing is not None and step.old is not None
                write_in_place(step.path, step.target, partial(_copy_from, step.old), step.existing.st_nlink - 1)
            elif step.old is not None:
                os.replace(step.old, step.target)
                step.old = None
            else:
                os.unlink(step.target)  # made by this run
            sync_folder(step.target.parent)
        except (OSError, WriteError) as error:
            step.keep_old = True
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            kept = f": its previous version is in {step.old}" if step.old is not None else ""
            failures.append(f"{step.path} could not be put back ({reason}){kept}")
    return failures


def _failure(step: _Staged, error: OSError | WriteError, any_placed: bool, not_put_back: list[str]) -> str:
    if isinstance(error, WriteError):  # an in-place write: its message names the file and says it is intact
        said = str(error)
    else:
        said = f"{step.path}: not written: {error.strerror or error}"
    if not any_placed:
        return f"{said}; nothing written"
    if not not_put_back:
        return f"{said}; nothing written: the files already replaced were put back as they were"
    return f"{said}; and {'; '.join(not_put_back)}"


def _notices(step: _Staged) -> tuple[str, ...]:
    if step.existing is None or not step.in_place:
        return ()
    return (links_notice(step.path, step.existing.st_nlink - 1),)


def _clean(step: _Staged) -> None:
    """Remove what the run left beside STEP's file (the new content if unused, the previous version unless a
    message names it), then let go of the flocks."""
    remove_quietly(step.new)
    if step.old is not None and not step.keep_old:
        remove_quietly(step.old)
    _let_go(step)
    sync_folder(step.target.parent)


def _let_go(step: _Staged) -> None:
    for held in step.held:
        os.close(held)
    step.held.clear()
