"""The corpus-wide commands that write, as argv builders, for the tests and the benchmark of --jobs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

KPIS = Path(__file__).resolve().parents[2] / "resources" / "markers" / "communicator-kpis.yml"

# name: argv writing below OUT for the corpus at C
WRITERS: dict[str, Callable[[Path, Path], list]] = {
    "export-csv": lambda c, out: ["export", c, "--to", "csv", "-o", out],
    "export-parquet": lambda c, out: ["export", c, "--to", "parquet", "-o", out],
    "export-convlab": lambda c, out: ["export", c, "--to", "convlab", "-o", out],
    "export-dialbb": lambda c, out: ["export", c, "--to", "dialbb", "-o", out / "scenario.txt"],
    "export-lmc": lambda c, out: ["export", c, "--to", "lmc", "-o", out / "corpus.jsonl"],
    "export-lmc-text": lambda c, out: ["export", c, "--to", "lmc-text", "-o", out / "corpus.txt"],
    "export-sclite": lambda c, out: ["export", c, "--to", "sclite", "-o", out],
    "export-human": lambda c, out: ["export", c, "--to", "human", "-o", out],
    "export-textgrid": lambda c, out: ["export", c, "--to", "textgrid", "-o", out],
    "export-eaf": lambda c, out: ["export", c, "--to", "eaf", "-o", out],
    "extract-csv": lambda c, out: ["extract", c, "-o", out / "annotations.csv"],
    "extract-xml": lambda c, out: ["extract", c, "-o", out / "annotations.xml"],
    "markers": lambda c, out: [
        "markers",
        "--config",
        KPIS,
        c,
        "-o",
        out / "markers.csv",
        "--stats-file-prefix",
        out / "stats",
    ],
}
