"""Outputs of several files, all or nothing.

    with StagedFolder(Path("out"), guard) as staged:
        staged.write("sessions.csv", data)
        with staged.open("turns.csv") as stream: ...
        log.save(staged.path("sub/x-hublog.xml"))     # a writer that wants a path
    # here every file is in out/, or (on any exception) none is and nothing else changed

The files are written into a hidden staging folder, flushed and fsynced, and
moved into place only when all of them are written:
- when the target folder does not exist, the staging folder `.NAME.XXXXXXXX.tmp` is
  made beside it (in the nearest existing folder) and renamed to it at the end:
  the folder appears complete or not at all, and its missing parents are made then;
- when it exists, the staging folder is made inside it (the same file system even
  when the target is a mount point) and each file replaces the one of the same
  name; other files in the folder are left alone. Should a move fail, the files
  already moved are put back as they were.
Any failure, or an exception of the caller (an unreadable input, Ctrl+C, SIGTERM),
removes the staging folder and leaves the target as it was; one left by a run
killed outright is removed by the next run into the same place (stale_staging).
The guard, if given, checks every file that would be replaced before the first
move (annotator.outputs.guard).

write_together() does the same for a few files in different folders: each is
written beside its target, then all replace their targets together.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import BinaryIO

from annotator.errors import AnnotatorError, WriteError
from annotator.input_files import kind_words
from annotator.outputs.guard import OutputGuard
from annotator.outputs.kept_aside import keep_aside, put_back_kept_aside
from annotator.outputs.stale_staging import StagingFolder
from annotator.reading.disk_changes import lock_held, remove_stale_temp_files
from annotator.writes.atomic import existing_mode, refuse_not_regular, refuse_special_output, refuse_unwritable
from annotator.writes.durable import keep_owner_and_mode, sync_folder
from annotator.writes.uninterrupted import uninterrupted

Writer = Callable[[BinaryIO], None]
_NOT_CHANGED = "not written, and no output was changed"


class StagedFolder:
    def __init__(self, target: str | Path, guard: OutputGuard | None = None):
        self.target = Path(target)
        self.guard = guard
        self.staging: Path | None = None
        self.relatives: dict[str, None] = {}  # the files written, relative to the target, in order
        self.merge = False  # the target exists: files replace their namesakes in it
        self.claim: StagingFolder | None = None  # the staging folder's lock, held while this writer lives

    def __enter__(self) -> StagedFolder:
        mode = existing_mode(self.target)
        if mode is not None and not stat.S_ISDIR(mode):
            kind = kind_words(mode) or "is a file"
            raise WriteError(f"{self.target}: {kind.split(',')[0]}, and the output is a folder; nothing written")
        if self.guard is not None:
            self.guard.check_folder(self.target)
        self.merge = self.target.is_dir()
        return self

    def path(self, relative: str | Path) -> Path:
        """Where to write the file that becomes TARGET/RELATIVE; its folders are made."""
        parts = PurePosixPath(Path(relative).as_posix()).parts
        if not parts or parts[0] == "/" or ".." in parts:
            raise ValueError(f"{relative}: not a path inside the output folder")
        key = "/".join(parts)
        try:
            if self.staging is None:  # made with the first file, so that a failure can name it
                home = self.target if self.merge else _nearest_existing(self.target.parent)
                with uninterrupted():  # a stop between the folder's making and its noting here left it behind
                    self.claim = StagingFolder(home, self.target.name or "output")
                    self.staging = self.claim.path
            staged = self.staging.joinpath(*parts)
            staged.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise WriteError(f"{self.target / key}: {_NOT_CHANGED}: {error.strerror or error}") from None
        self.relatives[key] = None
        return staged

    @contextmanager
    def open(self, relative: str | Path) -> Iterator[BinaryIO]:
        """A binary stream for TARGET/RELATIVE, flushed and fsynced when the block ends."""
        staged = self.path(relative)
        try:
            with open(staged, "wb") as stream:
                yield stream
                stream.flush()
                os.fsync(stream.fileno())
        except OSError as error:
            error.filename = error.filename or str(staged)  # a full disk says nothing of the file
            raise

    def write(self, relative: str | Path, content: bytes | Writer) -> None:
        with self.open(relative) as stream:
            if isinstance(content, (bytes, bytearray)):
                stream.write(content)
            else:
                content(stream)

    @property
    def files(self) -> list[Path]:
        """Where the files written are (or will be, before the block ends)."""
        return [self.target.joinpath(*key.split("/")) for key in self.relatives]

    def __exit__(self, kind, error, traceback) -> bool:
        try:
            return self._finish(error)
        finally:
            if self.claim is not None:
                self.claim.release()

    def _finish(self, error: BaseException | None) -> bool:
        if error is not None:
            replacement = self._explained(error)
            self._remove_staging()
            if replacement is not None:
                raise replacement from None
            return False
        try:
            self._commit()
        except OSError as failure:
            raise WriteError(
                f"{self.target}: cannot move the new files into place, no output was changed: "
                f"{failure.strerror or failure}"
            ) from None
        finally:
            self._remove_staging()
        return False

    def _explained(self, error: BaseException) -> WriteError | None:
        """A WriteError naming the target for an OSError; an error of ours gets the target's name in place."""
        if isinstance(error, OSError):
            where = self._unstaged(error.filename) if error.filename else self.target
            return WriteError(f"{where}: {_NOT_CHANGED}: {error.strerror or error}")
        if isinstance(error, AnnotatorError) and self.staging is not None:
            error.args = (self._unstaged(str(error)),)  # e.g. write_atomic's WriteError about a staged path
        return None

    def _commit(self) -> None:
        finals = self.files
        if self.staging is None:
            return  # nothing was written
        if self.guard is not None:
            for final in finals:
                self.guard.check_file(final)
        if not self.merge:
            made: list[Path] = []
            try:
                _make_folders(self.target.parent, made)
                _set_default_mode(self._staging())
                with uninterrupted():  # renamed and forgotten together: never removed once it is the output
                    os.rename(self._staging(), self.target)
                    self.staging = None
            except OSError:
                _remove_folders(made)
                if not self.target.is_dir():
                    raise
                self.merge = True  # someone made the folder meanwhile: move the files into it
            else:
                sync_folder(self.target.parent)
                return
        replace_together(
            [(self._staging().joinpath(*key.split("/")), final) for key, final in zip(self.relatives, finals)]
        )

    def _staging(self) -> Path:
        assert self.staging is not None, "StagedFolder used outside its with block"
        return self.staging

    def _unstaged(self, text: str | bytes) -> str:
        text = os.fsdecode(text)
        return text.replace(str(self.staging), str(self.target)) if self.staging is not None else text

    def _remove_staging(self) -> None:
        if self.staging is not None:
            shutil.rmtree(self.staging, ignore_errors=True)
            self.staging = None


def write_together(contents: dict[Path, bytes], guard: OutputGuard | None = None) -> list[Path]:
    """Write each file of CONTENTS (path -> bytes) beside its target, then replace all targets together.

    Missing folders are made, and removed again if the write fails. The paths written."""
    staged: list[tuple[Path, Path]] = []
    made: list[Path] = []
    held: list[int] = []  # the temporary files' locks: a later run removes them only once this one is gone
    for final in contents:
        refuse_special_output(final)  # before the first temporary file is made
        remove_stale_temp_files(final)  # what a run killed outright (SIGKILL) left beside it
    try:
        for final, content in contents.items():
            _make_folders(final.parent, made)
            handle, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
            staged.append((Path(name), final))
            lock_held(handle, held)
            with os.fdopen(handle, "wb") as stream:
                keep_owner_and_mode(stream.fileno(), _stat_or_none(final))
                stream.write(content)
                stream.flush()
                os.fsync(stream.fileno())
        if guard is not None:
            for final in contents:
                guard.check_file(final)
        replace_together(staged)
    except BaseException as error:
        for temp, _ in staged:
            temp.unlink(missing_ok=True)
        _remove_folders(made)
        if isinstance(error, OSError):
            where = next((final for temp, final in staged if str(temp) == error.filename), None)
            where = where or (staged[-1][1] if staged else next(iter(contents), Path(".")))
            raise WriteError(f"{where}: {_NOT_CHANGED}: {error.strerror or error}") from None
        raise
    finally:
        for fd in held:
            os.close(fd)
    return list(contents)


def replace_together(moves: list[tuple[Path, Path]]) -> None:
    """Move each staged file onto its final path; if one move fails, every final path is put back as it was."""
    put_back_kept_aside([final for _, final in moves])  # what a run killed while moving files into place left
    for _, final in moves:  # before any move: every output stays as it was
        try:
            mode = os.lstat(final).st_mode
        except FileNotFoundError:
            continue
        if not stat.S_ISLNK(mode):  # a link is replaced, not the file it names
            refuse_not_regular(final, mode)  # a device, FIFO, socket or folder is never moved aside
            refuse_unwritable(final)
    done: list[tuple[Path, Path | None]] = []  # (final, the previous file kept aside, or None)
    made: list[Path] = []
    try:
        for staged, final in moves:
            _make_folders(final.parent, made)
            previous = keep_aside(final) if os.path.lexists(final) else None
            done.append((final, previous))
            os.replace(staged, final)
    except OSError:
        for final, previous in reversed(done):
            try:
                if previous is not None:
                    os.replace(previous, final)
                    previous.unlink(missing_ok=True)  # rename does nothing between two links of one file
                else:
                    final.unlink(missing_ok=True)
            except OSError:
                pass
        _remove_folders(made)
        raise
    for _, previous in done:
        if previous is not None:
            previous.unlink(missing_ok=True)
    for folder in dict.fromkeys(final.parent for _, final in moves):
        sync_folder(folder)


def _nearest_existing(folder: Path) -> Path:
    for candidate in [folder, *folder.parents]:
        if candidate.is_dir():
            return candidate
    return Path(".")


def _make_folders(folder: Path, made: list[Path]) -> None:
    """Make FOLDER and its missing parents, outermost first, adding each to MADE once made."""
    missing = []
    for candidate in [folder, *folder.parents]:
        if candidate.exists():
            break
        missing.append(candidate)
    for candidate in reversed(missing):
        try:
            candidate.mkdir()
        except FileExistsError:
            continue
        made.append(candidate)


def _remove_folders(folders: list[Path]) -> None:
    for folder in reversed(folders):
        try:
            folder.rmdir()
        except OSError:
            pass


def _set_default_mode(folder: Path) -> None:
    """The mode a new folder gets from the umask (mkdtemp makes it private)."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(folder, 0o777 & ~umask)


def _stat_or_none(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
