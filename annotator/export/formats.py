"""Every export format by name: what -o names (a folder or a file), which options apply, and the
Qt-free function that writes it. The CLI and the GUI's File > Export menu both read this table.

    fmt = EXPORT_FORMATS["convlab"]
    report = fmt.run([Path("corpus/")], Path("out/"), ExportOptions(dataset="travel"), progress=wrapper)
    print(report)              # one line
    for warning in report.warnings: ...

`progress`, if given, wraps the iteration over the log files: progress(items, total=N)
yields the same items (tqdm fits; progress_from_callback adapts a (done, total)
callback, e.g. a worker that drives a progress bar). Modules are imported only
when their format is used.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from annotator.corpus.parallel import FileMap, serial_map
from annotator.export.dialogue_text import ExportOptions, ExportReport
from annotator.outputs.guard import OutputGuard
from annotator.progress import Progress

T = TypeVar("T")


@dataclass(frozen=True)
class ExportFormat:
    name: str
    title: str  # for menus: what the user gets
    output_is_folder: bool  # -o names a folder (else a file)
    options: tuple[str, ...]  # the ExportOptions fields that apply
    module: str  # under annotator.export
    function: str
    file_suffix: str = ""  # the usual suffix of the output file, for save dialogs

    def run(
        self,
        paths: list[Path],
        output: Path,
        options: ExportOptions | None = None,
        progress: Progress | None = None,
        guard: OutputGuard | None = None,
        file_map: FileMap | None = None,
    ) -> ExportReport:
        """Export; GUARD, if given, checks every file before it replaces anything (see output_guard);
        FILE_MAP, if given, runs the per-file work (in this process by default)."""
        exporter = getattr(importlib.import_module(f"annotator.export.{self.module}"), self.function)
        mapped = {"file_map": file_map} if file_map is not None else {}
        return exporter([Path(p) for p in paths], Path(output), options or ExportOptions(), progress, guard, **mapped)


EXPORT_FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat(
            "csv",
            "CSV tables: sessions.csv, turns.csv, events.csv, words.csv",
            True,
            (),
            "formats",
            "export_csv_report",
        ),
        ExportFormat(
            "parquet",
            "Parquet tables: sessions.parquet, turns.parquet, events.parquet, words.parquet",
            True,
            (),
            "parquet",
            "export_parquet",
        ),
        ExportFormat(
            "convlab",
            "ConvLab-3 unified dataset (a dataset folder with data.zip)",
            True,
            ("text", "dataset", "split", "split_ratios", "seed"),
            "convlab",
            "export_convlab",
        ),
        ExportFormat("dialbb", "DialBB test scenario", False, ("text",), "dialbb", "export_dialbb", ".txt"),
        ExportFormat(
            "lmc",
            "LM Challenge corpus (user marked-up jsonlines)",
            False,
            ("text", "speaker"),
            "lmc",
            "export_lmc",
            ".jsonl",
        ),
        ExportFormat(
            "lmc-text",
            "LM Challenge corpus (plain text, one utterance a line)",
            False,
            ("text", "speaker"),
            "lmc",
            "export_lmc_text",
            ".txt",
        ),
        ExportFormat(
            "sclite", "NIST sclite reference and hypothesis (ref.trn, hyp.trn)", True, (), "sclite", "export_sclite"
        ),
        ExportFormat(
            "human",
            "MITRE human-annotation files (X-human.xml for each X-hublog.xml)",
            True,
            (),
            "human_files",
            "export_human",
        ),
        ExportFormat(
            "textgrid", "Praat TextGrid, with each session's audio as a WAV", True, (), "praat_elan", "export_textgrid"
        ),
        ExportFormat("eaf", "ELAN (EAF), with each session's audio as a WAV", True, (), "praat_elan", "export_eaf"),
    )
}


def export_csv_report(
    paths: list[Path],
    out_dir: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    """The CSV export (annotator.export.csv_export) behind the same interface as the others."""
    from annotator.export.csv_export import export_csv

    summary = export_csv(paths, out_dir, progress=progress, guard=guard, file_map=file_map)
    return ExportReport("csv", out_dir, list(summary.files), summary.sessions, summary.turns, summary=str(summary))


def progress_from_callback(report: Callable[[int, int], None]) -> Progress:
    """A progress wrapper that calls REPORT(done, total) before the first item and after each one."""

    def wrap(items: Iterable[T], total: int | None = None) -> Iterator[T]:
        items = list(items) if total is None else items
        count = len(items) if total is None else total  # type: ignore[arg-type]
        report(0, count)
        for done, item in enumerate(items, start=1):
            yield item
            report(done, count)

    return wrap
