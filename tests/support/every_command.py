"""One ordinary run of every sub-command of `annotator` (but the window's), on a work folder of real files
(tests.support.output_commands.make_work): for the tests that hold every command to a rule, such as what
happens when its standard output cannot be written."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from tests.support.output_commands import Work

WINDOW = "gui"  # its own process answers for its output: tests/gui

EVERY_COMMAND: dict[str, Callable[[Work, Path], list]] = {
    # name: argv from (work, a fresh folder for its outputs)
    "validate": lambda w, out: ["validate", w.log],
    "info": lambda w, out: ["info", w.corpus],
    "export": lambda w, out: ["export", w.corpus, "--to", "csv", "-o", out],
    "fold": lambda w, out: ["fold", w.log, w.annotations, "-o", out / "folded.xml"],
    "replace": lambda w, out: ["replace", w.corpus, "--find", "boston", "--replace", "austin"],
    "replace --dry-run": lambda w, out: ["replace", w.corpus, "--find", "boston", "--replace", "austin", "--dry-run"],
    "extract": lambda w, out: ["extract", w.corpus, "-o", out / "annotations.csv"],
    "import": lambda w, out: ["import", "--from", "dialbb", w.scenario, "-o", out],
    "agree": lambda w, out: ["agree", f"a={w.corpus}", f"b={w.corpus}"],
    "adjudicate": lambda w, out: ["adjudicate", w.log, f"a={w.log}", f"b={w.log}", "--majority", "-o", out / "a.xml"],
    "assign": lambda w, out: ["assign", w.corpus, "--annotators", "a,b", "--seed", "1", "-o", out / "assignment.csv"],
    "search": lambda w, out: ["search", "boston", w.corpus],
    "index": lambda w, out: ["index", w.corpus],
    "index --where": lambda w, out: ["index", w.corpus, "--where"],
    "index --clear": lambda w, out: ["index", w.corpus, "--clear"],
    "align": lambda w, out: ["align", w.corpus],
    "markers": lambda w, out: [
        "markers",
        "--config",
        w.kpis,
        w.corpus,
        "-o",
        out / "markers.csv",
        "--stats-file-prefix",
        out / "stats",
    ],
    "--help": lambda w, out: ["--help"],
    "--version": lambda w, out: ["--version"],
    "info --help": lambda w, out: ["info", "--help"],
}
