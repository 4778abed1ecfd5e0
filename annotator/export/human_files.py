"""Export the annotations as MITRE human-annotation files (docs/mitre-human-file.md), one beside each log's name.

    export_human([Path("corpus/")], Path("annotations/"))

For each log X-hublog.xml (or X.xml) the -o folder gets X-human.xml, at the log's
path relative to the common root of the given paths (so logs of the same name in
different folders do not collide, and copying the folder over the corpus puts each
file beside its log, where `annotator fold` looks by default). The file holds every
session of the log (MITRE's layout is one session a log; a log of several sessions
gets one file with several GC_SESSION), with the session's task completion and its
turns' transcriptions, written by annotator.annotation_files.human_format in the form
`annotator fold` reads. A session without annotations still gets its GC_SESSION.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from pathlib import Path

from annotator.annotation_files.fold import extract
from annotator.annotation_files.human_format import human_file_bytes, human_path_for
from annotator.corpus.parallel import FileMap, first_results, raise_if_failed, serial_map
from annotator.corpus.paths import common_root, expand_log_paths
from annotator.errors import AnnotatorError
from annotator.export.dialogue_text import ExportOptions, ExportReport, load_log, relative_name
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress


@dataclass(frozen=True)
class HumanFile:
    """One log's human-annotation file: where it goes in the output folder, and what it holds."""

    relative: Path
    content: bytes
    sessions: int
    transcriptions: int


def export_human(
    paths: list[Path],
    out_dir: Path,
    options: ExportOptions | None = None,
    progress: Progress | None = None,
    guard: OutputGuard | None = None,
    file_map: FileMap = serial_map,
) -> ExportReport:
    paths = [Path(p) for p in paths]
    out_dir = Path(out_dir)
    work = partial(human_file_of, root=common_root(paths) if paths else Path.cwd(), out_dir=out_dir)
    report = ExportReport("human", out_dir)
    failed: list[AnnotatorError] = []
    with StagedFolder(out_dir, guard) as staged:
        for _, human in first_results(file_map(work, expand_log_paths(paths), progress), failed):
            if human is None:
                continue
            staged.write(human.relative, human.content)
            report.sessions += human.sessions
            report.utterances += human.transcriptions
        raise_if_failed(failed)
    report.files = staged.files
    report.summary = (
        f"wrote {len(report.files)} human-annotation file(s) for {report.sessions} session(s), "
        f"{report.utterances} transcription(s), to {out_dir}"
    )
    return report


def human_file_of(path: Path, *, root: Path, out_dir: Path) -> HumanFile | None:
    """The human-annotation file of the log at PATH, for OUT_DIR (None for a MITRE file itself): per-file work."""
    doc = load_log(path)
    if doc is None:
        return None
    relative = human_path_for(relative_name(path, root))
    if relative.is_absolute() or ".." in relative.parts:  # a log outside the common root
        relative = Path(relative.name)
    annotations = extract(doc)
    content = human_file_bytes(out_dir / relative, annotations, doc.sessions)
    return HumanFile(relative, content, len(doc.sessions), len(annotations.transcriptions))
