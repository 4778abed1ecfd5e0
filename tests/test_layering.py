"""Qt lives in annotator/gui only: everything else must import without PySide6 or pyqtgraph."""

from __future__ import annotations

import ast
import subprocess
import sys
from graphlib import TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "annotator"
QT = ("PySide6", "pyqtgraph", "shiboken6")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_no_qt_import_outside_the_gui_package():
    offenders = [str(path.relative_to(PACKAGE.parent)) for path in PACKAGE.rglob("*.py")
                 if "gui" not in path.relative_to(PACKAGE).parts[:1]
                 and any(name.split(".")[0] in QT for name in _imported_modules(path))]
    assert offenders == []


def test_the_core_loads_without_qt_in_the_process():
    script = ("import sys; import annotator.cli.main, annotator.analysis.validation, annotator.export.formats, "
              "annotator.markers, annotator.audio, annotator.timeline.data, annotator.timeline.hits; "
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# The dependency rule: each package of annotator may import the packages listed for it (and the
# modules at the package's top, errors, input_files, file_name_text, progress, resources, user_patterns, which import none
# of the packages; __main__, the entry point, runs the command line); nothing else. Read upwards: log <- the facts computed from a log <- corpus
# <- writing outputs <- imports, exports <- the window and the command line.
DOCUMENT = {"log"}
BESIDE_THE_DOCUMENT = DOCUMENT | {"audio", "analysis", "annotation_files"}
ABOUT_THE_DOCUMENT = BESIDE_THE_DOCUMENT | {"timeline", "markers"}
TEAM = BESIDE_THE_DOCUMENT | {"team"}  # who annotated what: names, per-annotator files
CORPUS = ABOUT_THE_DOCUMENT | TEAM | {"corpus"}
OUTPUTS = CORPUS | {"outputs"}
MAY_IMPORT = {
    "log": set(),
    "audio": DOCUMENT,
    "analysis": DOCUMENT,
    "annotation_files": DOCUMENT | {"analysis"},
    "timeline": BESIDE_THE_DOCUMENT,
    "markers": BESIDE_THE_DOCUMENT,
    "team": BESIDE_THE_DOCUMENT,
    "corpus": ABOUT_THE_DOCUMENT | {"team"},
    "outputs": CORPUS,
    "imports": OUTPUTS,
    "export": OUTPUTS | {"imports"},  # an export reads what an import recorded in the log
    "agreement": OUTPUTS,  # reads annotators' work as fold and extract do, writes its report through outputs
    "gui": OUTPUTS | {"imports", "export", "agreement"},  # Compare reads and records as `annotator adjudicate`
    "cli": OUTPUTS | {"imports", "export", "gui", "agreement"},  # `annotator gui` starts the window
}


def _package_of(module: str) -> str | None:
    """'annotator.log.document' -> 'log'; None for the modules at the top of annotator."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else None


def test_every_package_keeps_the_dependency_rule():
    packages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()}
    assert packages == set(MAY_IMPORT), "a new package needs its place in MAY_IMPORT"
    against = []
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).parts
        own = parts[0] if len(parts) > 1 else None
        if parts == ("__main__.py",):
            continue
        for module in _imported_modules(path):
            if module.split(".")[0] != "annotator":
                continue
            other = _package_of(module)
            allowed = MAY_IMPORT.get(own, set()) | {own} if own else set()
            if other is not None and other not in allowed:
                against.append(f"{path.relative_to(PACKAGE.parent)} imports {module}")
    assert against == []


def test_the_rule_has_no_cycle():
    TopologicalSorter(MAY_IMPORT).prepare()  # raises CycleError
