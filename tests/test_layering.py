"""Qt lives in annotator/gui only: everything else must import without PySide6 or pyqtgraph."""

from __future__ import annotations

import ast
import subprocess
import sys
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
    script = ("import sys; import annotator.cli.main, annotator.log.validation, annotator.export.formats, "
              "annotator.markers, annotator.audio, annotator.timeline.data; "
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')))")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
