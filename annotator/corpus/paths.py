"""Which files of a folder are logs: every *.xml below it, minus annotation files (the shared
X-human.xml and the team's X-human-NAME.xml) and backups.

A name ending in .xml that is not a regular file (a FIFO, a socket, a device, a
symlink to one) is listed too, never opened here: loading it refuses it in one
line, so a corpus that holds one shows that line (a finding, a row of the
session browser) instead of hanging on it or silently leaving it out.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path
from typing import cast

from lxml import etree

from annotator.input_files import open_input_file
from annotator.team.names import annotator_of_file_name

NOT_LOG_SUFFIXES = ("-human.xml", ".orig.xml")
ANNOTATION_ROOT = "GC_LOG_ANNOTATIONS"  # MITRE's human-annotation files, met among logs: not logs
_STAGING = re.compile(r"\..+\.[A-Za-z0-9_]{8}\.tmp")  # tempfile.mkdtemp(prefix=".NAME.", suffix=".tmp")


def is_log_file_name(path: Path) -> bool:
    return _is_log_name(path.name)


def _is_log_name(name: str) -> bool:
    name = name.lower()
    return name.endswith(".xml") and not name.endswith(NOT_LOG_SUFFIXES) and annotator_of_file_name(name) is None


def expand_log_paths(paths: list[Path] | list[str]) -> list[Path]:
    """Files as given (whatever their name); folders replaced by the logs below them, sorted; each file
    once, however the paths overlap (`CORPUS CORPUS/sub`, a link, a second hard link): where it is
    first met.

    Staging folders of exports (.NAME.XXXXXXXX.tmp, annotator.outputs.staging), which a
    killed export can leave behind, are not looked into."""
    found: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found += logs_below(path)
        else:
            found.append(path)
    return _once_each(found)


def logs_below(folder: Path) -> list[Path]:
    """The logs below FOLDER, sorted as Paths sort (by their parts): what rglob("*.xml") lists, minus
    annotation files, backups, names that lead nowhere or to a folder, and whatever is below a staging
    folder; links to folders are not followed (as rglob). Not only regular files: a FIFO or a socket
    named *.xml is listed, so that loading names it. One pass of os.scandir per folder, which tells
    folders from files without a stat call per file (rglob and exists() and is_dir() made three)."""
    found: list[tuple[tuple[str, ...], Path]] = []
    folders: list[tuple[Path, tuple[str, ...]]] = [(folder, ())]
    while folders:
        here, parts = folders.pop()
        try:
            with os.scandir(here) as listing:
                entries = list(listing)
        except OSError:  # as rglob: a folder that cannot be listed holds nothing
            continue
        for entry in entries:
            name = entry.name
            if _is_real_dir(entry):
                if not _STAGING.fullmatch(name):
                    folders.append((here / name, parts + (name,)))
            elif fnmatch.fnmatchcase(name, "*.xml") and _is_log_name(name) and _leads_to_a_file(entry):
                found.append((parts + (name,), here / name))
    found.sort(key=lambda item: item[0])
    return [path for _parts, path in found]


def _leads_to_a_file(entry: os.DirEntry) -> bool:
    """Not a folder (a link to one included), and not a link that leads nowhere."""
    try:
        return not entry.is_dir() and (not entry.is_symlink() or os.path.exists(entry.path))
    except OSError:
        return False


def _once_each(paths: list[Path]) -> list[Path]:
    """PATHS without the second and later names of one file (same device and inode; a path that cannot
    be stat()ed is kept, for loading to say why)."""
    seen: set[tuple[int, int]] = set()
    kept: list[Path] = []
    for path in paths:
        identity = file_identity(path)
        if identity is None:
            kept.append(path)
        elif identity not in seen:
            seen.add(identity)
            kept.append(path)
    return kept


def file_identity(path: Path) -> tuple[int, int] | None:
    """The file PATH names, whatever the name (a link, a second hard link): its device and inode; None
    when it cannot be stat()ed."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def first_log_path(folder: Path) -> Path | None:
    """expand_log_paths([FOLDER])[0] (None: no log), found without listing or checking every file: the
    folders are walked in the order that list is sorted in (by path parts, so a folder's files sort
    where its name does) and the walk ends at the first log. Opening a corpus folder in the window
    wants only that one; the session browser lists the rest on its workers."""
    try:
        entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
    except OSError:  # as rglob: a folder that cannot be listed holds nothing
        return None
    for entry in entries:
        path = folder / entry.name
        if fnmatch.fnmatchcase(entry.name, "*.xml") and is_log_file_name(path) and path.exists() and not path.is_dir():
            return path
        if _is_real_dir(entry) and not _STAGING.fullmatch(entry.name):
            found = first_log_path(path)
            if found is not None:
                return found
    return None


def _is_real_dir(entry: os.DirEntry) -> bool:
    """A folder rglob descends into: not a link to one."""
    try:
        return entry.is_dir() and not entry.is_symlink()
    except OSError:
        return False


def common_root(paths: list[Path] | list[str]) -> Path:
    """The folder that relative file names in exports are written against."""
    given = [Path(p).resolve() for p in paths]
    if len(given) == 1:
        return given[0] if given[0].is_dir() else given[0].parent
    folders = [p if p.is_dir() else p.parent for p in given]
    root = folders[0]
    for folder in folders[1:]:
        while not folder.is_relative_to(root):
            root = root.parent
    return root


def root_tag(path: Path) -> str | None:
    """The root element's name, read from the first bytes only (None if that fails: loading will say why)."""
    parser = etree.XMLPullParser(
        events=("start",), resolve_entities=False, no_network=True, load_dtd=False, huge_tree=True
    )
    try:
        with open_input_file(path) as stream:
            for chunk in iter(lambda: stream.read(1 << 16), b""):
                parser.feed(chunk)
                for _event, element in parser.read_events():
                    tag = cast(etree._Element, element).tag  # a "start" event's item is its element
                    return tag if isinstance(tag, str) else None
    except (OSError, etree.XMLSyntaxError):
        return None
    return None
