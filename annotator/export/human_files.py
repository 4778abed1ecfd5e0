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

from pathlib import Path

from annotator.annotation_files.fold import extract
from annotator.annotation_files.human_format import human_path_for, write_human_file
from annotator.corpus.paths import common_root
from annotator.export.dialogue_text import (
    ExportOptions,
    ExportReport,
    iter_log_documents,
    relative_name,
)
from annotator.outputs.guard import OutputGuard
from annotator.outputs.staging import StagedFolder
from annotator.progress import Progress


def export_human(paths: list[Path], out_dir: Path, options: ExportOptions | None = None,
                 progress: Progress | None = None, guard: OutputGuard | None = None) -> ExportReport:
    paths = [Path(p) for p in paths]
    out_dir = Path(out_dir)
    root = common_root(paths) if paths else Path.cwd()
    report = ExportReport("human", out_dir)
    with StagedFolder(out_dir, guard) as staged:
        for path, doc in iter_log_documents(paths, progress):
            relative = human_path_for(relative_name(path, root))
            if relative.is_absolute() or ".." in relative.parts:  # a log outside the common root
                relative = Path(relative.name)
            annotations = extract(doc)
            write_human_file(staged.path(relative), annotations, doc.sessions)
            report.sessions += len(doc.sessions)
            report.utterances += len(annotations.transcriptions)
    report.files = staged.files
    report.summary = (f"wrote {len(report.files)} human-annotation file(s) for {report.sessions} session(s), "
                      f"{report.utterances} transcription(s), to {out_dir}")
    return report
