"""Importers: text corpora of neighbouring formats turned into Communicator logs, one GC_LOG per dialogue.

    report = IMPORT_FORMATS["convlab"].run(Path("multiwoz21/data.zip"), Path("logs/"))

The logs are built by annotator.imports.synthetic_log (text turns, no audio,
synthesised times marked as such). Modules are imported only when used.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path

from annotator.errors import AnnotatorError
from annotator.progress import Progress


class ImportFormatError(AnnotatorError):
    """A source that cannot be imported; the message names the file and the place in it."""


@dataclass
class ImportReport:
    format: str
    source: Path
    out_dir: Path
    files: list[Path] = field(default_factory=list)
    turns: int = 0
    warnings: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"imported {len(self.files)} dialogue(s), {self.turns} turn(s), from {self.source} "
            f"as {self.format} into {self.out_dir}"
        )


@dataclass(frozen=True)
class ImportFormat:
    name: str
    title: str
    source_is_folder_or_file: str  # what SRC may be, for help texts and file dialogs
    module: str
    function: str

    def run(self, source: Path, out_dir: Path, progress: Progress | None = None, guard=None) -> ImportReport:
        """Import; GUARD (an annotator.outputs.guard.OutputGuard), if given, checks each log it would replace."""
        importer = getattr(importlib.import_module(f"annotator.imports.{self.module}"), self.function)
        return importer(Path(source), Path(out_dir), progress, guard)


IMPORT_FORMATS: dict[str, ImportFormat] = {
    f.name: f
    for f in (
        ImportFormat(
            "convlab",
            "ConvLab-3 unified dataset",
            "data.zip, a dataset folder, or a dialogues JSON file",
            "convlab",
            "import_convlab",
        ),
        ImportFormat(
            "dialbb", "DialBB test scenario (or dialbb-test output)", "a scenario text file", "dialbb", "import_dialbb"
        ),
    )
}
