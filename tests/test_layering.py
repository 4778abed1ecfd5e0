"""Qt lives in annotator/gui only: everything else must import without PySide6 or pyqtgraph."""

from __future__ import annotations

import ast
import subprocess
import sys
from graphlib import TopologicalSorter
from pathlib import Path

import pytest

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
    offenders = [
        str(path.relative_to(PACKAGE.parent))
        for path in PACKAGE.rglob("*.py")
        if "gui" not in path.relative_to(PACKAGE).parts[:1]
        and any(name.split(".")[0] in QT for name in _imported_modules(path))
    ]
    assert offenders == []


def test_the_core_loads_without_qt_in_the_process():
    script = (
        "import sys; import annotator.cli.main, annotator.analysis.validation, annotator.export.formats, "
        "annotator.markers, annotator.audio, annotator.timeline.data, annotator.timeline.hits; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# The dependency rule: each package of annotator may import the packages listed for it (and the
# modules at the package's top, errors, input_files, file_name_text, progress, resources, user_patterns, which import none
# of the packages; __main__, the entry point, runs the command line); nothing else. Read upwards: log <- the facts computed from a log <- corpus
# <- writing outputs <- imports, exports <- the window and the command line.
FILES = {"writes", "reading"}  # writing files safely; reading a log file losslessly
DOCUMENT = FILES | {"log"}
BESIDE_THE_DOCUMENT = DOCUMENT | {"audio", "analysis", "annotation_files"}
ABOUT_THE_DOCUMENT = BESIDE_THE_DOCUMENT | {"timeline", "markers"}
TEAM = BESIDE_THE_DOCUMENT | {"team"}  # who annotated what: names, per-annotator files
CORPUS = ABOUT_THE_DOCUMENT | TEAM | {"corpus"}
OUTPUTS = CORPUS | {"outputs"}
MAY_IMPORT = {
    "writes": set(),
    "reading": {"writes"},
    "log": FILES,
    "journal": DOCUMENT,  # the recovery journal and the instance locks, above the document they watch
    "audio": DOCUMENT,
    "analysis": DOCUMENT,
    "annotation_files": DOCUMENT | {"analysis"},
    "timeline": BESIDE_THE_DOCUMENT,
    "markers": BESIDE_THE_DOCUMENT,
    "team": BESIDE_THE_DOCUMENT,
    "corpus": ABOUT_THE_DOCUMENT | {"team"},
    "corpus_index": CORPUS,  # the corpus's persistent index: reads logs as the corpus scan does
    "outputs": CORPUS,
    "alignment": CORPUS | {"corpus_index"},  # the words placed on a turn's audio, kept beside the corpus index
    "imports": OUTPUTS,
    "export": OUTPUTS | {"imports", "alignment", "corpus_index"},  # what an import recorded; the words aligned
    "agreement": OUTPUTS,  # reads annotators' work as fold and extract do, writes its report through outputs
    "gui": OUTPUTS
    | {
        "imports",
        "export",
        "agreement",
        "corpus_index",
        "journal",
        "alignment",
    },  # Compare reads and records as `annotator adjudicate`
    "cli": OUTPUTS
    | {"imports", "export", "gui", "agreement", "corpus_index", "alignment"},  # `annotator gui` starts the window
}


def _package_of(module: str) -> str | None:
    """'annotator.log.document' -> 'log'; None for the modules at the top of annotator."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else None


@pytest.mark.slow
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


# The window's own rule (docs/architecture.md, "The window by feature"): each feature package of
# annotator/gui may import the shell's modules at the top of annotator/gui (app, the composition root,
# aside) and the packages listed for it; imports under `if TYPE_CHECKING:` are for types only and aside.
GUI_SHELL_IMPORTS = {
    "main_window": {"appearance"},  # the shell fits itself to the screen
    # The one table of docks names each pane's view, wherever its feature keeps it.
    "docks": {"annotating", "appearance", "compare", "corpus", "listening", "panes", "search", "timeline"},
}
GUI_MAY_IMPORT = {
    "widgets": set(),
    "runtime": set(),
    "appearance": set(),
    "preferences": set(),
    "opening": {"runtime"},
    "timeline": {"widgets"},
    "listening": {"runtime", "widgets", "timeline"},
    "annotating": {"listening", "opening", "runtime", "widgets"},
    "panes": {"annotating", "listening", "opening", "runtime", "timeline", "widgets", "appearance"},
    "corpus": {"annotating", "opening", "runtime", "widgets"},
    "recovery": {"annotating", "opening", "runtime"},
    "search": {"annotating", "corpus", "opening", "recovery", "runtime", "widgets"},
    "markers": {"annotating", "corpus", "opening", "timeline"},
    "compare": {"annotating", "corpus", "opening", "widgets"},
    "exporting": {"annotating", "opening", "runtime"},
}
GUI = PACKAGE / "gui"
GUI_TOP_MODULES_AT_MOST = 12


def _runtime_import_nodes(path: Path) -> list[ast.Import | ast.ImportFrom]:
    """The import statements of PATH that run, those under `if TYPE_CHECKING:` (types only) aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and getattr(branch.test, "id", None) == "TYPE_CHECKING"
        for node in ast.walk(branch)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in typing_only
    ]


def _runtime_imports(path: Path) -> set[str]:
    """The modules PATH imports, but for those under `if TYPE_CHECKING:`."""
    names = set()
    for node in _runtime_import_nodes(path):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif node.module:
            names.add(node.module)
    return names


def _gui_part(module: str) -> str | None:
    """'annotator.gui.opening.opener' -> 'opening'; 'annotator.gui.theme' -> 'theme' (a shell module)."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["annotator", "gui"] else None


def test_the_window_is_built_from_feature_packages():
    top_modules = sorted(path.name for path in GUI.glob("*.py"))
    assert len(top_modules) <= GUI_TOP_MODULES_AT_MOST, top_modules
    packages = {path.name for path in GUI.iterdir() if (path / "__init__.py").is_file()}
    assert packages == set(GUI_MAY_IMPORT), "a new package of the window needs its place in GUI_MAY_IMPORT"
    undocumented = [
        name
        for name in packages
        if "May import"
        not in (ast.get_docstring(ast.parse((GUI / name / "__init__.py").read_text(encoding="utf-8"))) or "")
    ]
    assert undocumented == [], "each package's __init__ says what it holds and what it may import"


def test_every_package_of_the_window_keeps_its_rule():
    packages = set(GUI_MAY_IMPORT)
    against = []
    for path in GUI.rglob("*.py"):
        parts = path.relative_to(GUI).parts
        own = parts[0] if len(parts) > 1 else path.stem
        if own == "app":
            continue  # the composition root imports every part
        allowed = GUI_MAY_IMPORT.get(own, GUI_SHELL_IMPORTS.get(own, set())) | {own}
        for module in _runtime_imports(path):
            other = _gui_part(module)
            if other in packages and other not in allowed:
                against.append(f"{path.relative_to(PACKAGE.parent)} imports {module}")
            if other == "app":
                against.append(f"{path.relative_to(PACKAGE.parent)} imports the composition root")
    assert against == []


def test_the_window_s_rule_has_no_cycle():
    TopologicalSorter(GUI_MAY_IMPORT).prepare()


def _module_name(path: Path) -> str:
    name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return name.removesuffix(".__init__")


@pytest.mark.slow
def test_no_two_modules_import_each_other_at_run_time():
    """Nor any longer loop of modules: what a module needs is below it. Imports for types only
    (`if TYPE_CHECKING:`) are aside; `from a.package import module` needs the module, not the package."""
    modules = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        needed = set()
        for node in _runtime_import_nodes(path):
            if isinstance(node, ast.ImportFrom) and node.module in modules:
                submodules = {f"{node.module}.{alias.name}" for alias in node.names} & modules.keys()
                needed |= submodules if len(submodules) == len(node.names) else {node.module, *submodules}
            elif isinstance(node, ast.Import):
                needed |= {alias.name for alias in node.names if alias.name in modules}
        graph[name] = needed - {name}
    TopologicalSorter(graph).prepare()  # raises CycleError naming the loop
