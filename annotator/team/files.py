"""Where each annotator's human-annotation file of a log lies: `<log-stem>-human-<annotator>.xml`.

The standard's name for a log's human file is `<log-stem>-human.xml` (X-hublog.xml and X.xml
both give X-human.xml: annotator.annotation_files.human_format.human_path_for); a team's
annotator inserts their name before ".xml": X-human-alice.xml. See docs/team.md.
"""

from __future__ import annotations

from pathlib import Path

from annotator.annotation_files.human_format import human_path_for
from annotator.team.names import ANNOTATORS_FILE, check_annotator_name

_XML = ".xml"


def human_path_of(log_path: str | Path, annotator: str) -> Path:
    """The file ANNOTATOR's work on the log at LOG_PATH is saved to in team mode."""
    shared = human_path_for(log_path)
    return shared.with_name(f"{shared.name[: -len(_XML)]}-{check_annotator_name(annotator)}{_XML}")


def human_files_beside(log_path: str | Path) -> dict[str, Path]:
    """annotator name -> their human file, for every `<log-stem>-human-<name>.xml` beside the log
    (regular files only; names that are no valid annotator name are not annotators' files), sorted by name.
    It lists the log's folder: for every log of a corpus, use one HumanFileIndex instead."""
    return HumanFileIndex().files_of(log_path)


class HumanFileIndex:
    """human_files_beside for many logs, each folder listed once (a corpus costs one listing per folder)."""

    def __init__(self) -> None:
        self._folders: dict[Path, dict[str, dict[str, Path]]] = {}

    def files_of(self, log_path: str | Path) -> dict[str, Path]:
        shared = human_path_for(log_path)
        by_prefix = self._folders.get(shared.parent)
        if by_prefix is None:
            by_prefix = self._folders[shared.parent] = _annotators_files(shared.parent)
        return dict(by_prefix.get(shared.name[: -len(_XML)], {}))


def _annotators_files(folder: Path) -> dict[str, dict[str, Path]]:
    """For each shared human-file stem (X-human) in FOLDER, its annotators' files, sorted by name."""
    found: dict[str, dict[str, Path]] = {}
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return found
    for entry in entries:
        match = ANNOTATORS_FILE.fullmatch(entry.name)
        if match is not None and entry.is_file():
            found.setdefault(match["stem"], {})[match["name"]] = entry
    return {stem: dict(sorted(files.items())) for stem, files in found.items()}
