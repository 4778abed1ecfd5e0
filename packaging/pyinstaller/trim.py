"""Trim the standalone build: Qt plugins a desktop app never loads, the
system libraries that must come from the machine the app runs on, and the
debugging data of a locally built Python.

Used by annotator.spec after Analysis. Five steps:
  1. drop Qt plugins for embedded and kiosk set-ups (EGLFS, linuxfb, VNC,
     evdev/tslib input) and the GTK3 platform theme, which would load the
     desktop's GTK on top of the build's own GLib and Pango;
  2. drop the libraries a desktop provides and that must match it: the C++
     runtime (GPU drivers that Qt loads need the system's, usually newer, one),
     ALSA (its plugins and configuration belong to the system), fontconfig and
     FreeType (they read the system's font configuration), X11, and glibc's
     libmvec (part of the C library, which is never bundled);
  3. drop every bundled library that nothing left in the build needs;
  4. drop Qt's translations of its own dialogs (the app installs no translator);
  5. strip the debugging data from the Python interpreter's own libraries when
     it was built with it (pyenv's is: libpython alone shrinks from 23 to 6 MB).
     Only those: wheels' libraries are already stripped, and some of them were
     rewritten by patchelf, which strip can break.
The build lists what it dropped in build/pyinstaller/annotator/trimmed.txt.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

UNUSED_QT_PLUGINS = re.compile(
    r"PySide6/Qt/plugins/("
    r"egldeviceintegrations/|generic/|platformthemes/libqgtk3|"
    r"platforms/lib(qeglfs|qlinuxfb|qminimal|qminimalegl|qvnc|qvkkhrdisplay)\.so)"
)
SYSTEM_LIBRARIES = re.compile(
    r"(libstdc\+\+|libgcc_s|libmvec|libasound|libfontconfig|libfreetype|libX11|libX11-xcb|libXau|libXdmcp)\.so"
)
# Loaded with dlopen(), not linked: nothing names them as a dependency.
DLOPENED = re.compile(r"(libpython3[.\d]*\.so|libportaudio\.so|libespeak-ng\.so)")


def needed_libraries(path: str) -> set[str]:
    """The names PATH's ELF header lists as NEEDED (its direct dependencies)."""
    done = subprocess.run(["objdump", "-p", path], capture_output=True, text=True, check=False)
    return {line.split()[1] for line in done.stdout.splitlines() if line.strip().startswith("NEEDED")}


def _reachable(roots: list[str], libraries: dict[str, str]) -> set[str]:
    """Names of the bundled LIBRARIES (name -> file) that ROOTS need directly or through other bundled ones.

    Not through the system's libraries: those bring their own dependencies.
    """
    seen: set[str] = set()
    todo = [name for root in roots for name in needed_libraries(root)]
    while todo:
        name = todo.pop()
        if name in libraries and name not in seen:
            seen.add(name)
            todo += needed_libraries(libraries[name])
    return seen


def _is_shared_library(dest: str, kind: str) -> bool:
    """A library collected as a dependency (top level or Qt's lib/), not an extension module or a plugin."""
    return kind == "BINARY" and ("/" not in dest or dest.startswith("PySide6/Qt/lib/"))


def _without_debug_data(entry: tuple, folder: Path) -> tuple:
    dest, source, kind = entry
    if not Path(source).is_relative_to(Path(sys.base_prefix).resolve()) or shutil.which("strip") is None:
        return entry
    copy = folder / dest
    copy.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source, copy)
    done = subprocess.run(["strip", "--strip-debug", str(copy)], capture_output=True, check=False)
    return (dest, str(copy), kind) if done.returncode == 0 else entry


def trim(binaries: list, datas: list, report: Path) -> tuple[list, list]:
    """The (binaries, datas) TOCs without the files described in the module docstring."""
    dropped: list[str] = []
    kept = []
    for entry in binaries:
        dest = entry[0]
        if UNUSED_QT_PLUGINS.match(dest) or SYSTEM_LIBRARIES.match(Path(dest).name):
            dropped.append(dest)
        else:
            kept.append(entry)
    libraries = {Path(dest).name: source for dest, source, kind in kept if _is_shared_library(dest, kind)}
    roots = [
        source for dest, source, kind in kept if not _is_shared_library(dest, kind) or DLOPENED.match(Path(dest).name)
    ]
    needed = _reachable(roots, libraries)
    binaries = []
    for entry in kept:
        name = Path(entry[0]).name
        if _is_shared_library(entry[0], entry[2]) and not DLOPENED.match(name) and name not in needed:
            dropped.append(entry[0])
        else:
            binaries.append(entry)
    gone = set(dropped)
    datas = [entry for entry in datas if not (entry[2] == "SYMLINK" and (entry[1] in gone or entry[0] in gone))]
    dropped += [entry[0] for entry in datas if entry[0].startswith("PySide6/Qt/translations/")]
    datas = [entry for entry in datas if not entry[0].startswith("PySide6/Qt/translations/")]
    binaries = [_without_debug_data(entry, report.parent / "stripped") for entry in binaries]
    report.parent.mkdir(parents=True, exist_ok=True)
    report.write_text("".join(f"{dest}\n" for dest in sorted(dropped)), encoding="utf-8")
    return binaries, datas
