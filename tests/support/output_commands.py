"""Every command that writes, as the output-guard tests drive it (tests/cli/test_output_guard.py, and the
special-output tests of tests/safety): a work folder of real files to write from, the commands that write one file
and those that write a folder, as argv builders, and the command run through its entry point in this process."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from annotator.annotation_files.fold import extract, write_annotations
from annotator.annotation_files.human_format import write_human_file
from annotator.cli.main import main
from annotator.export.convlab import export_convlab
from annotator.export.dialbb import export_dialbb
from annotator.log.document import LogDocument
from tests.support.repository import REPO, SAMPLE_LOGS

LOG_001 = "travel-20261121-001/travel-20261121-001-hublog.xml"
LOG_002 = "travel-20261121-002/travel-20261121-002-hublog.xml"


@dataclass
class Work:
    root: Path

    @property
    def corpus(self) -> Path:
        return self.root / "corpus"

    @property
    def log(self) -> Path:
        return self.corpus / LOG_001

    @property
    def annotations(self) -> Path:
        return self.root / "annotations.csv"

    @property
    def kpis(self) -> Path:
        return self.root / "kpis.yml"

    @property
    def dataset(self) -> Path:
        return self.root / "dataset" / "communicator"

    @property
    def scenario(self) -> Path:
        return self.root / "scenario.txt"

    def input_copy(self, suffix: str) -> Path:
        """A copy of session 001's log under a name ending in SUFFIX (a log given by path may have any name)."""
        path = self.root / f"input{suffix}"
        if not path.exists():
            shutil.copyfile(self.log, path)
        return path

    def other_log_bytes(self) -> bytes:
        return (self.corpus / LOG_002).read_bytes()

    def human_bytes(self) -> bytes:
        target = self.root / "scratch-human.xml"
        doc = LogDocument.load(self.corpus / LOG_002)
        write_human_file(target, extract(doc), doc.sessions)
        data = target.read_bytes()
        target.unlink()
        return data


def make_work(root: Path) -> Work:
    """The sample corpus, an annotations CSV of session 001, a markers file, a ConvLab dataset and a DialBB scenario."""
    root.mkdir()
    shutil.copytree(SAMPLE_LOGS, root / "corpus")
    w = Work(root)
    doc = LogDocument.load(w.log)
    annotations = extract(doc)
    annotations.task_completion = {ref: "0" for ref in annotations.task_completion}  # folding changes the log's 1
    write_annotations(w.annotations, annotations)  # no file column: the rows fold into copies under other names
    shutil.copyfile(REPO / "resources" / "markers" / "communicator-kpis.yml", w.kpis)
    export_convlab([w.corpus], root / "dataset")
    export_dialbb([w.corpus], w.scenario)
    return w


def run_in_process(argv: list, capsys) -> tuple[int, str]:
    """The command through its entry point (cli.main.main) in this process: its exit status and what it wrote
    to stderr (CAPSYS is the test's pytest fixture)."""
    status = main([str(part) for part in argv])
    return status, capsys.readouterr().err


# --- commands writing one file ------------------------------------------------------------------

FILE_COMMANDS: dict[str, tuple[str, Callable[[Work, Path, Path], list]]] = {
    # name: (suffix of the output, argv from (work, input log, output))
    "extract-csv": (".csv", lambda w, log, out: ["extract", log, "-o", out]),
    "extract-xml": (".xml", lambda w, log, out: ["extract", log, "-o", out]),
    "export-dialbb": (".txt", lambda w, log, out: ["export", log, "--to", "dialbb", "-o", out]),
    "export-lmc": (".jsonl", lambda w, log, out: ["export", log, "--to", "lmc", "-o", out]),
    "export-lmc-text": (".txt", lambda w, log, out: ["export", log, "--to", "lmc-text", "-o", out]),
    "fold": (".xml", lambda w, log, out: ["fold", log, w.annotations, "-o", out]),
    "markers": (".csv", lambda w, log, out: ["markers", "--config", w.kpis, log, "-o", out, "--no-stats"]),
}


# --- commands writing into a folder -------------------------------------------------------------


@dataclass(frozen=True)
class FolderCommand:
    argv: Callable[[Work, Path], list]
    written: str  # a file the command writes, relative to the output folder
    input_of: Callable[[Work], Path]  # an input a link inside the output may point at
    holds_input: Callable[[Work], Path] | None  # an output folder that holds an input log (None: no log is input)


FOLDER_COMMANDS = {
    "export-csv": FolderCommand(
        lambda w, out: ["export", w.corpus, "--to", "csv", "-o", out],
        "sessions.csv",
        lambda w: w.log,
        lambda w: w.corpus,
    ),
    "export-sclite": FolderCommand(
        lambda w, out: ["export", w.corpus, "--to", "sclite", "-o", out], "ref.trn", lambda w: w.log, lambda w: w.corpus
    ),
    "export-convlab": FolderCommand(
        lambda w, out: ["export", w.corpus, "--to", "convlab", "--dataset", "corpus", "-o", out],
        "corpus/data.zip",
        lambda w: w.log,
        lambda w: w.root,
    ),  # writes OUT/corpus/, the corpus itself
    "export-human": FolderCommand(
        lambda w, out: ["export", w.corpus, "--to", "human", "-o", out],
        "travel-20261121-001/travel-20261121-001-human.xml",
        lambda w: w.log,
        lambda w: w.corpus,
    ),
    "export-textgrid": FolderCommand(
        lambda w, out: ["export", w.corpus, "--to", "textgrid", "-o", out],
        "travel-20261121-001.TextGrid",
        lambda w: w.log,
        lambda w: w.corpus,
    ),
    "fold-folder": FolderCommand(
        lambda w, out: ["fold", w.corpus, w.annotations, "-o", out], LOG_001, lambda w: w.log, lambda w: w.corpus
    ),
    "import-convlab": FolderCommand(
        lambda w, out: ["import", "--from", "convlab", w.dataset, "-o", out],
        "communicator-train-00000-hublog.xml",
        lambda w: w.dataset / "data.zip",
        None,
    ),
    "import-dialbb": FolderCommand(
        lambda w, out: ["import", "--from", "dialbb", w.scenario, "-o", out],
        "scenario-001-hublog.xml",
        lambda w: w.scenario,
        None,
    ),
}
