"""What a command may write: never over its own inputs, an existing log or a human-annotation file, unless forced.

    guard = OutputGuard(logs=[Path("corpus")], others=[Path("turns.csv")], force=args.force)
    guard.check_folder(Path("out"))          # refused if out holds an input log
    guard.check_file(Path("out/x.xml"))      # refused if it is an input, or an existing log or human file

Every command that writes (export in every format, extract, fold, import,
markers) asks the guard before it replaces anything; a refusal is an
OutputRefusedError, one line, exit status 2, and nothing is written. --force
(force=True) lets every write through but into an input folder or in place of
something that is not a regular file.

- An output is an input when it is the same file (same device and inode,
  through symlinks and hard links), or, when it does not exist yet, the same
  resolved path.
- An output folder holds an input log when the log, or a folder of logs given,
  is the folder or lies below it (compared by device and inode of the folder and
  of each ancestor, so symlinks and bind mounts do not hide it).
- An output (file or folder) lies inside an input folder when one of its folders
  is a folder given as input (by device and inode): the next run over that folder
  would read it as input, so --force does not let it through. An input itself
  (fold --force rewriting a corpus in place), the copy of an original a rewrite
  keeps (NAME.orig.xml, never read as a log) and a file that belongs there
  (assign's assignment) are let through.
- An output path that is a device, a FIFO, a socket (or a folder where a file is
  written, a file where a folder is) is refused whatever --force says: nothing is ever
  written in its place.
- An existing log is a regular file whose root element is GC_LOG or GC_SESSION,
  or named *-hublog.xml; an existing human-annotation file one whose root is
  GC_LOG_ANNOTATIONS, or named *-human.xml (the root element decides first). Only regular files are opened to look
  (a FIFO or a device is never read). Files the command itself writes are
  checked before they are moved into place, so "existing" means existing
  before the command ran.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from annotator.corpus.paths import ANNOTATION_ROOT, expand_log_paths, root_tag
from annotator.errors import WriteError
from annotator.writes.atomic import existing_mode, refuse_not_regular, refuse_special_output
from annotator.writes.original_copy import ORIGINAL_COPY_SUFFIX

LOG_ROOTS = ("GC_LOG", "GC_SESSION")
_FORCE_HINT = "use --force to write anyway"


class OutputRefusedError(WriteError):
    """An output that would replace an input, an existing log or a human-annotation file; nothing was written."""


class OutputGuard:
    def __init__(self, logs: Iterable[str | Path] = (), others: Iterable[str | Path] = (), force: bool = False):
        self.logs = [Path(p) for p in logs]  # log files or folders of logs
        self.others = [Path(p) for p in others]  # other files (or folders of them) read: annotations, markers, sources
        self.force = force
        self._identities: dict[tuple[int, int], Path] | None = None
        self._folders: dict[tuple[int, int], Path] | None = None
        self._resolved: dict[Path, Path] = {}

    def check_file(self, output: str | Path, belongs_inside: bool = False) -> None:
        """Refuse OUTPUT if it is not a regular file (even with --force), an input, an existing log or
        human-annotation file, or inside an input folder (unless BELONGS_INSIDE: a corpus's own file)."""
        output = Path(output)
        refuse_special_output(output)
        same = self._input_named(output)
        if same is None and not belongs_inside and not output.name.lower().endswith(ORIGINAL_COPY_SUFFIX):
            self._refuse_inside_an_input_folder(output)
        if self.force:
            return
        _refuse_the_input(output, same)
        kind = existing_kind(output)
        if kind is not None:
            raise OutputRefusedError(
                f"{output}: an existing {kind} this command did not write; nothing written ({_FORCE_HINT})"
            )

    def check_folder(self, folder: str | Path) -> None:
        """Refuse writing files into FOLDER if it is something else than a folder (even with --force), an
        input file, or holds an input log."""
        folder = Path(folder)
        mode = existing_mode(folder)
        if mode is not None and not stat.S_ISDIR(mode):
            refuse_not_regular(folder, mode)  # a device, FIFO or socket: refused whatever --force says
        self._refuse_inside_an_input_folder(folder)  # each file written into an input folder itself is checked
        if self.force:
            return
        _refuse_the_input(folder, self._input_named(folder))
        try:
            folder_id = _identity(os.stat(folder))
        except OSError:
            return  # a folder that does not exist holds nothing
        for log in [*self.logs, *self.others]:
            try:
                ancestors = [log.resolve(), *log.resolve().parents]
            except (OSError, RuntimeError):
                continue
            for ancestor in ancestors:
                try:
                    if _identity(os.stat(ancestor)) == folder_id:
                        raise OutputRefusedError(
                            f"{folder}: this folder holds the input {log}; nothing written ({_FORCE_HINT})"
                        )
                except OSError:
                    continue

    def _refuse_inside_an_input_folder(self, output: Path) -> None:
        """Refuse OUTPUT below a folder given as input: a later run over that folder would read it as input,
        however the user insists."""
        folders = self._input_folders()
        for ancestor in Path(os.path.abspath(output)).parents:
            try:
                given = folders.get(_identity(os.stat(ancestor)))
            except OSError:
                continue  # not made yet
            if given is not None:
                raise OutputRefusedError(
                    f"{output}: inside the input folder {given}; nothing written (the next run "
                    "over that folder would read it as input: write somewhere else)"
                )

    def _input_folders(self) -> dict[tuple[int, int], Path]:
        if self._folders is None:
            self._folders = {}
            for path in [*self.logs, *self.others]:
                try:
                    status = os.stat(path)
                except OSError:
                    continue
                if stat.S_ISDIR(status.st_mode):
                    self._folders.setdefault(_identity(status), path)
        return self._folders

    def _input_named(self, output: Path) -> Path | None:
        """The input OUTPUT is (same file, or same resolved path when OUTPUT does not exist), else None."""
        try:
            return self._input_identities().get(_identity(os.stat(output)))
        except OSError:
            pass
        try:
            return self._resolved.get(output.resolve())
        except (OSError, RuntimeError):
            return None

    def _input_identities(self) -> dict[tuple[int, int], Path]:
        if self._identities is None:
            self._identities = {}
            others = [
                found for path in self.others for found in ([path, *path.rglob("*")] if path.is_dir() else [path])
            ]
            for path in [*expand_log_paths(self.logs), *self.logs, *others]:
                try:
                    self._identities.setdefault(_identity(os.stat(path)), path)
                    self._resolved.setdefault(path.resolve(), path)
                except (OSError, RuntimeError):
                    continue  # an input that cannot be read: reading it will say why
        return self._identities


def existing_kind(path: Path) -> str | None:
    """ "log" or "human-annotation file" when PATH is an existing regular file of that kind, else None."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None
    except OSError:
        return None
    tag = root_tag(path)
    name = path.name.lower()
    if tag in LOG_ROOTS or tag != ANNOTATION_ROOT and name.endswith("-hublog.xml"):
        return "log"
    if tag == ANNOTATION_ROOT or name.endswith("-human.xml"):
        return "human-annotation file"
    return None


def _identity(status: os.stat_result) -> tuple[int, int]:
    return status.st_dev, status.st_ino


def _refuse_the_input(output: Path, same: Path | None) -> None:
    """Refuse OUTPUT when it is the input SAME (OutputGuard._input_named's answer)."""
    if same is not None:
        raise OutputRefusedError(f"{output}: this is the input {same}; nothing written ({_FORCE_HINT})")
